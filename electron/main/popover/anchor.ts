/** A screen rectangle in DIPs, as Electron's `Rectangle`. */
export interface Bounds {
  x: number
  y: number
  width: number
  height: number
}

export type TrayEdge = 'top' | 'bottom' | 'left' | 'right'

export interface AnchorInput {
  /** `tray.getBounds()`: all zeros where the platform cannot tell (many Linux panels). */
  trayBounds: Bounds
  windowSize: { width: number; height: number }
  /** The display's area without menu bar, dock, taskbar and panels. */
  workArea: Bounds
  displayBounds: Bounds
  platform: NodeJS.Platform
}

/** Space kept between the popover and the tray icon, and between the popover and the work area's edges. */
export const POPOVER_MARGIN = 6

const clamp = (value: number, low: number, high: number) => Math.max(low, Math.min(value, high))

/**
 * Which display edge the tray sits on. A taskbar or menu bar is where the work area is inset from the
 * display, so a tray inside an inset strip sits on that edge; otherwise the nearest display edge wins.
 */
export function trayEdge(tray: Bounds, workArea: Bounds, display: Bounds): TrayEdge {
  const cx = tray.x + tray.width / 2
  const cy = tray.y + tray.height / 2
  if (cy < workArea.y) return 'top'
  if (cy >= workArea.y + workArea.height) return 'bottom'
  if (cx < workArea.x) return 'left'
  if (cx >= workArea.x + workArea.width) return 'right'
  const distances: [TrayEdge, number][] = [
    ['top', cy - display.y],
    ['bottom', display.y + display.height - cy],
    ['left', cx - display.x],
    ['right', display.x + display.width - cx],
  ]
  return distances.reduce((best, next) => (next[1] < best[1] ? next : best))[0]
}

/**
 * Where the popover's top-left corner goes: centred under a tray at the top, above one at the bottom,
 * beside one on a left or right taskbar; always inside the work area with a margin. Without tray bounds
 * it goes to the work area's top-right corner (bottom-right on Windows, where the tray usually is).
 */
export function anchorPopover(input: AnchorInput): { x: number; y: number } {
  const { trayBounds: tray, windowSize: size, workArea: area } = input
  const minX = area.x + POPOVER_MARGIN
  const maxX = area.x + area.width - size.width - POPOVER_MARGIN
  const minY = area.y + POPOVER_MARGIN
  const maxY = area.y + area.height - size.height - POPOVER_MARGIN
  const place = (x: number, y: number) => ({
    x: Math.round(clamp(x, minX, Math.max(minX, maxX))),
    y: Math.round(clamp(y, minY, Math.max(minY, maxY))),
  })

  if (tray.width <= 0 || tray.height <= 0)
    return place(maxX, input.platform === 'win32' ? maxY : minY)

  const centreX = tray.x + tray.width / 2 - size.width / 2
  const centreY = tray.y + tray.height / 2 - size.height / 2
  switch (trayEdge(tray, area, input.displayBounds)) {
    case 'top':
      return place(centreX, tray.y + tray.height + POPOVER_MARGIN)
    case 'bottom':
      return place(centreX, tray.y - size.height - POPOVER_MARGIN)
    case 'left':
      return place(tray.x + tray.width + POPOVER_MARGIN, centreY)
    case 'right':
      return place(tray.x - size.width - POPOVER_MARGIN, centreY)
  }
}
