/** When the popover shows breadcrumbs: the user's presence, from visibility and focus signals. Pure. */

const MINUTE = 60_000

/** How long the popover must have been out of sight for the breadcrumbs to come back. */
export const BREADCRUMB_ABSENCE_MS = 10 * MINUTE

/**
 * Breadcrumbs ("while you were away…") show when the user returns: on the first view after loading, or when
 * the popover was hidden for at least ten minutes. They stay until the popover is hidden again.
 * @param absenceMs how long it was hidden before this showing; null for the first showing.
 */
export function breadcrumbsOnReturn(absenceMs: number | null): boolean {
  return absenceMs === null || absenceMs >= BREADCRUMB_ABSENCE_MS
}

/** Whether the user is away from the popover, and whether breadcrumbs are showing. */
export interface Presence {
  /** When the user left (the window hidden or unfocused); null while they are here. */
  leftAt: number | null
  showBreadcrumbs: boolean
}

/**
 * What the page saw: it was hidden or shown (`visibilitychange`: Electron reports a `win.hide()` popover as
 * hidden), or it lost or got focus (a browser tab left visible behind another window is never hidden).
 */
export type PresenceSignal = 'hidden' | 'visible' | 'blurred' | 'focused'

export const INITIAL_PRESENCE: Presence = { leftAt: null, showBreadcrumbs: true }

/**
 * Leaving starts the absence once (blur then hide is one absence); a hidden page drops its breadcrumbs
 * (nobody sees them), an unfocused one keeps them on screen. Coming back after at least ten minutes brings
 * them back, a shorter absence ends them.
 */
export function nextPresence(presence: Presence, signal: PresenceSignal, now: number): Presence {
  if (signal === 'hidden') return { leftAt: presence.leftAt ?? now, showBreadcrumbs: false }
  if (signal === 'blurred') return { ...presence, leftAt: presence.leftAt ?? now }
  if (presence.leftAt === null) return presence
  return { leftAt: null, showBreadcrumbs: breadcrumbsOnReturn(now - presence.leftAt) }
}
