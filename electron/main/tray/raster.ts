import type { RgbaImage } from './png.ts'

/** A color as 0–255 RGB plus 0–1 opacity. */
export type Rgba = readonly [r: number, g: number, b: number, a: number]

/** Whether a point, in the canvas's logical units, is inside a shape. */
export type Shape = (x: number, y: number) => boolean

/** Samples per device pixel along each axis: enough anti-aliasing for 16 px icons. */
const SUPERSAMPLE = 4

/**
 * A tiny software canvas: shapes are described in logical units (a 16-unit square for the tray) and
 * rasterised at any pixel size with supersampled anti-aliasing. Pixels are kept premultiplied while
 * drawing and returned straight.
 */
export interface Canvas {
  readonly size: number
  /** Paints a shape over what is there (source-over). */
  fill(shape: Shape, color: Rgba): void
  /** Makes a shape transparent again, anti-aliased at its edge. */
  erase(shape: Shape): void
  /** Paints whole device pixels, unsmoothed: for pixel-font text. */
  fillPixels(x: number, y: number, width: number, height: number, color: Rgba): void
  toImage(): RgbaImage
}

export function createCanvas(sizePx: number, logicalSize: number): Canvas {
  const pixels = new Float32Array(sizePx * sizePx * 4)
  const unit = logicalSize / sizePx

  const coverage = (shape: Shape, px: number, py: number): number => {
    let hits = 0
    for (let sy = 0; sy < SUPERSAMPLE; sy++) {
      for (let sx = 0; sx < SUPERSAMPLE; sx++) {
        const x = (px + (sx + 0.5) / SUPERSAMPLE) * unit
        const y = (py + (sy + 0.5) / SUPERSAMPLE) * unit
        if (shape(x, y)) hits++
      }
    }
    return hits / (SUPERSAMPLE * SUPERSAMPLE)
  }

  const blend = (index: number, color: Rgba, amount: number) => {
    const alpha = color[3] * amount
    if (alpha <= 0) return
    const keep = 1 - alpha
    pixels[index] = (color[0] / 255) * alpha + (pixels[index] as number) * keep
    pixels[index + 1] = (color[1] / 255) * alpha + (pixels[index + 1] as number) * keep
    pixels[index + 2] = (color[2] / 255) * alpha + (pixels[index + 2] as number) * keep
    pixels[index + 3] = alpha + (pixels[index + 3] as number) * keep
  }

  return {
    size: sizePx,
    fill(shape, color) {
      for (let py = 0; py < sizePx; py++)
        for (let px = 0; px < sizePx; px++)
          blend((py * sizePx + px) * 4, color, coverage(shape, px, py))
    },
    erase(shape) {
      for (let py = 0; py < sizePx; py++) {
        for (let px = 0; px < sizePx; px++) {
          const keep = 1 - coverage(shape, px, py)
          if (keep === 1) continue
          const index = (py * sizePx + px) * 4
          for (let c = 0; c < 4; c++) pixels[index + c] = (pixels[index + c] as number) * keep
        }
      }
    },
    fillPixels(x, y, width, height, color) {
      for (let py = Math.max(0, y); py < Math.min(sizePx, y + height); py++)
        for (let px = Math.max(0, x); px < Math.min(sizePx, x + width); px++)
          blend((py * sizePx + px) * 4, color, 1)
    },
    toImage() {
      const data = Buffer.alloc(sizePx * sizePx * 4)
      for (let i = 0; i < pixels.length; i += 4) {
        const alpha = pixels[i + 3] as number
        if (alpha <= 0) continue
        for (let c = 0; c < 3; c++)
          data[i + c] = Math.round(((pixels[i + c] as number) / alpha) * 255)
        data[i + 3] = Math.round(alpha * 255)
      }
      return { width: sizePx, height: sizePx, data }
    },
  }
}

export const disc =
  (cx: number, cy: number, r: number): Shape =>
  (x, y) =>
    (x - cx) ** 2 + (y - cy) ** 2 <= r * r

export const ring =
  (cx: number, cy: number, outer: number, inner: number): Shape =>
  (x, y) => {
    const d = (x - cx) ** 2 + (y - cy) ** 2
    return d <= outer * outer && d >= inner * inner
  }

export const rect =
  (left: number, top: number, right: number, bottom: number): Shape =>
  (x, y) =>
    x >= left && x <= right && y >= top && y <= bottom

export const roundedRect =
  (left: number, top: number, right: number, bottom: number, radius: number): Shape =>
  (x, y) => {
    if (x < left || x > right || y < top || y > bottom) return false
    const dx = Math.max(left + radius - x, 0, x - (right - radius))
    const dy = Math.max(top + radius - y, 0, y - (bottom - radius))
    return dx * dx + dy * dy <= radius * radius
  }

export const union =
  (...shapes: Shape[]): Shape =>
  (x, y) =>
    shapes.some((shape) => shape(x, y))
