import type { RgbaImage } from './png.ts'
import { badgeText, GLYPH_HEIGHT, textPixels, textWidth } from './pixel-font.ts'
import {
  createCanvas,
  disc,
  rect,
  ring,
  roundedRect,
  union,
  type Rgba,
  type Shape,
} from './raster.ts'
import type { TrayIconState } from './tray-state.ts'

/**
 * `light` / `dark`: the system appearance (dark glyph on a light bar, light glyph on a dark bar).
 * `template`: macOS template image — black plus alpha only; macOS tints it and shows no color, so
 * no badge is drawn (the count goes in the tray title instead).
 */
export type TrayTheme = 'light' | 'dark' | 'template'

export interface TrayIconOptions {
  state: TrayIconState
  badge: number
  theme: TrayTheme
  scale: 1 | 2
}

/** Tray icons are drawn on a 16-unit square: 16 px at scale 1, 32 px at scale 2. */
const UNITS = 16
const CENTRE = 8

const INK: Record<TrayTheme, Rgba> = {
  light: [31, 31, 31, 1],
  dark: [242, 242, 242, 1],
  template: [0, 0, 0, 1],
}
const ATTENTION: Rgba = [245, 158, 11, 1]
const BADGE: Rgba = [229, 72, 77, 1]
const WHITE: Rgba = [255, 255, 255, 1]

/** The badge sits in the bottom-right corner, a 9-unit circle, with a 1-unit gap cut around it. */
const BADGE_CENTRE = 11.5
const BADGE_RADIUS = 4.5
const BADGE_GAP = 1

const outline = ring(CENTRE, CENTRE, 6.5, 4.75)
const exclamation = union(rect(7, 3.25, 9, 8.75), disc(CENTRE, 11.25, 1.15))

/**
 * Renders the tray icon: a ring when idle, a ring with a dot while agents work, an amber disc with "!"
 * when something needs the user (an amber ring plus the red count badge when a badge is drawn).
 */
export function renderTrayIcon(opts: TrayIconOptions): RgbaImage {
  const size = UNITS * opts.scale
  const canvas = createCanvas(size, UNITS)
  const ink = INK[opts.theme]

  const badged = opts.badge > 0 && opts.theme !== 'template'
  if (opts.state === 'attention' && badged) {
    // The badge would cover half the "!", so the number speaks and the glyph is an amber ring.
    canvas.fill(outline, ATTENTION)
  } else if (opts.state === 'attention') {
    canvas.fill(disc(CENTRE, CENTRE, 6.5), opts.theme === 'template' ? ink : ATTENTION)
    canvas.erase(exclamation)
  } else {
    canvas.fill(outline, ink)
    if (opts.state === 'working') canvas.fill(disc(CENTRE, CENTRE, 2.25), ink)
  }

  if (badged) {
    canvas.erase(disc(BADGE_CENTRE, BADGE_CENTRE, BADGE_RADIUS + BADGE_GAP))
    canvas.fill(disc(BADGE_CENTRE, BADGE_CENTRE, BADGE_RADIUS), BADGE)
    drawCentredText(canvas, badgeText(opts.badge), BADGE_CENTRE * opts.scale, opts.scale, WHITE)
  }
  return canvas.toImage()
}

function drawCentredText(
  canvas: ReturnType<typeof createCanvas>,
  text: string,
  centrePx: number,
  scale: number,
  color: Rgba,
): void {
  const left = Math.round(centrePx - (textWidth(text) * scale) / 2)
  const top = Math.round(centrePx - (GLYPH_HEIGHT * scale) / 2)
  for (const { x, y } of textPixels(text))
    canvas.fillPixels(left + x * scale, top + y * scale, scale, scale, color)
}

/** The application icon (Dock, installers, task switchers): the tray's "working" glyph on a tile. */
export function renderAppIcon(sizePx: number): RgbaImage {
  const canvas = createCanvas(sizePx, UNITS)
  const tile: Shape = roundedRect(1, 1, 15, 15, 3.5)
  canvas.fill(tile, [30, 41, 59, 1])
  canvas.fill(ring(CENTRE, CENTRE, 5, 3.6), [242, 242, 242, 1])
  canvas.fill(disc(CENTRE, CENTRE, 1.9), ATTENTION)
  return canvas.toImage()
}

/**
 * Which glyph colors suit the tray's bar. macOS: a template image (the menu bar tints it). Windows: the
 * taskbar follows the *system* theme, which may differ from the apps' theme. Linux: the common top panels
 * (GNOME, Ubuntu, Cinnamon, Xfce) are dark whatever the GTK theme says, so a light glyph.
 */
export function trayThemeFor(
  platform: NodeJS.Platform,
  theme: { darkColors: boolean; darkSystemUi: boolean },
): TrayTheme {
  if (platform === 'darwin') return 'template'
  if (platform === 'win32') return theme.darkSystemUi ? 'dark' : 'light'
  return 'dark'
}
