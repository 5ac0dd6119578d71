/**
 * A tray click and the popover's blur arrive in either order depending on the platform. Two small time
 * guards keep a click on the tray from closing and reopening the popover in one go.
 */

/** A blur this soon after showing is the tray click handing focus over, not the user leaving. */
export const SHOW_GRACE_MS = 250
/** A tray click this soon after a blur hid the popover is the click that caused the blur: it closes. */
export const REOPEN_GUARD_MS = 300

export interface PopoverTimes {
  /** When the popover was last shown (ms since the epoch), or null. */
  shownAt: number | null
  /** When a blur last hid it, or null. */
  hiddenByBlurAt: number | null
}

/** Whether a blur should hide the popover now. */
export function shouldHideOnBlur(times: PopoverTimes, now: number): boolean {
  return times.shownAt === null || now - times.shownAt >= SHOW_GRACE_MS
}

/** What a tray click does: hide a visible popover; show a hidden one unless the click's own blur just hid it. */
export function toggleAction(
  visible: boolean,
  times: PopoverTimes,
  now: number,
): 'show' | 'hide' | 'none' {
  if (visible) return 'hide'
  if (times.hiddenByBlurAt !== null && now - times.hiddenByBlurAt < REOPEN_GUARD_MS) return 'none'
  return 'show'
}
