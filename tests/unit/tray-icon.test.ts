import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  renderAppIcon,
  renderTrayIcon,
  trayThemeFor,
  type TrayTheme,
} from '../../electron/main/tray/icon-bitmap.ts'
import { badgeText, textPixels } from '../../electron/main/tray/pixel-font.ts'
import { crc32, encodePng } from '../../electron/main/tray/png.ts'
import type { RgbaImage } from '../../electron/main/tray/png.ts'

const pixel = (image: RgbaImage, x: number, y: number) => {
  const i = (y * image.width + x) * 4
  return [...image.data.subarray(i, i + 4)]
}
/** Every pixel of the bottom-right quarter, where the badge goes. */
const corner = (image: RgbaImage) => {
  const half = image.width / 2
  const rows: number[] = []
  for (let y = half; y < image.height; y++)
    rows.push(...image.data.subarray((y * image.width + half) * 4, (y + 1) * image.width * 4))
  return Buffer.from(rows)
}

describe('renderTrayIcon', () => {
  it.each([
    [1, 16],
    [2, 32],
  ] as const)('is %i× → %i px square RGBA', (scale, size) => {
    const image = renderTrayIcon({ state: 'idle', badge: 0, theme: 'dark', scale })
    expect(image).toMatchObject({ width: size, height: size })
    expect(image.data.length).toBe(size * size * 4)
  })

  it.each(['idle', 'working', 'attention'] as const)(
    'template %s is black and alpha only',
    (state) => {
      const image = renderTrayIcon({ state, badge: 5, theme: 'template', scale: 2 })
      let opaque = 0
      for (let i = 0; i < image.data.length; i += 4) {
        expect([image.data[i], image.data[i + 1], image.data[i + 2]]).toEqual([0, 0, 0])
        if ((image.data[i + 3] as number) > 0) opaque++
      }
      expect(opaque).toBeGreaterThan(20)
    },
  )

  it('template ignores the badge (macOS shows the count as the title)', () => {
    const without = renderTrayIcon({ state: 'attention', badge: 0, theme: 'template', scale: 1 })
    const withBadge = renderTrayIcon({ state: 'attention', badge: 3, theme: 'template', scale: 1 })
    expect(withBadge.data.equals(without.data)).toBe(true)
  })

  it.each(['light', 'dark'] as TrayTheme[])('a badge changes the corner only (%s)', (theme) => {
    const plain = renderTrayIcon({ state: 'working', badge: 0, theme, scale: 1 })
    const badged = renderTrayIcon({ state: 'working', badge: 2, theme, scale: 1 })
    expect(corner(badged).equals(corner(plain))).toBe(false)
    expect(pixel(badged, 0, 0)).toEqual(pixel(plain, 0, 0))
    expect(pixel(badged, 3, 8)).toEqual(pixel(plain, 3, 8))
    // The badge is red, with white digits in it.
    expect(pixel(badged, 8, 15).slice(0, 3)).toEqual([229, 72, 77])
    const white = [...Array(256).keys()].filter(
      (i) => pixel(badged, i % 16, Math.floor(i / 16))[0] === 255,
    )
    expect(white.length).toBeGreaterThan(5)
  })

  it.each(['light', 'dark', 'template'] as TrayTheme[])('the three states differ (%s)', (theme) => {
    const images = (['idle', 'working', 'attention'] as const).map((state) =>
      renderTrayIcon({ state, badge: 0, theme, scale: 2 }).data.toString('hex'),
    )
    expect(new Set(images).size).toBe(3)
  })

  it('the glyph follows the theme; the amber attention disc reads on either bar', () => {
    const render = (state: 'idle' | 'attention', theme: TrayTheme) =>
      renderTrayIcon({ state, badge: 0, theme, scale: 1 }).data.toString('hex')
    expect(
      new Set([render('idle', 'light'), render('idle', 'dark'), render('idle', 'template')]).size,
    ).toBe(3)
    expect(render('attention', 'light')).toBe(render('attention', 'dark'))
  })

  it('every badge count renders distinctly, 10 and more as 9+', () => {
    const render = (badge: number) =>
      renderTrayIcon({ state: 'attention', badge, theme: 'dark', scale: 1 }).data.toString('hex')
    const counts = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    expect(new Set(counts.map(render)).size).toBe(counts.length)
    expect(render(42)).toBe(render(10))
  })

  it('idle glyph is a ring: centre empty, edge inked', () => {
    const image = renderTrayIcon({ state: 'idle', badge: 0, theme: 'light', scale: 2 })
    expect(pixel(image, 16, 16)[3]).toBe(0)
    expect(pixel(image, 16, 4)[3]).toBe(255)
    const working = renderTrayIcon({ state: 'working', badge: 0, theme: 'light', scale: 2 })
    expect(pixel(working, 16, 16)[3]).toBe(255)
  })
})

describe('pixel font', () => {
  it('has a distinct glyph for every digit and +', () => {
    const shapes = [...'0123456789+'].map((c) => JSON.stringify(textPixels(c)))
    expect(new Set(shapes).size).toBe(11)
  })
  it.each([
    [0, '0'],
    [7, '7'],
    [9, '9'],
    [10, '9+'],
    [250, '9+'],
  ])('badge %i reads %s', (count, text) => expect(badgeText(count)).toBe(text))
  it('rejects characters it cannot draw', () => expect(() => textPixels('a')).toThrow(RangeError))
})

describe('encodePng', () => {
  it('computes the standard CRC-32 check value', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926)
    expect(crc32(Buffer.from('IEND'))).toBe(0xae426082)
  })

  it('writes a valid PNG that round-trips the pixels', () => {
    const image = renderTrayIcon({ state: 'working', badge: 4, theme: 'dark', scale: 1 })
    const png = encodePng(image)
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const chunks: { type: string; body: Buffer }[] = []
    for (let at = 8; at < png.length;) {
      const length = png.readUInt32BE(at)
      const type = png.toString('ascii', at + 4, at + 8)
      const body = png.subarray(at + 8, at + 8 + length)
      expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(png.subarray(at + 4, at + 8 + length)))
      chunks.push({ type, body })
      at += 12 + length
    }
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND'])
    const header = chunks[0]!.body
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([
      16, 16, 8, 6,
    ])
    const raw = inflateSync(chunks[1]!.body)
    expect(raw.length).toBe(16 * (16 * 4 + 1))
    for (let y = 0; y < 16; y++) {
      expect(raw[y * 65]).toBe(0)
      expect(
        raw.subarray(y * 65 + 1, (y + 1) * 65).equals(image.data.subarray(y * 64, (y + 1) * 64)),
      ).toBe(true)
    }
  })

  it('refuses a buffer of the wrong size', () => {
    expect(() => encodePng({ width: 2, height: 2, data: Buffer.alloc(15) })).toThrow(RangeError)
  })
})

describe('renderAppIcon', () => {
  it('is opaque in the middle and transparent in the corners', () => {
    const image = renderAppIcon(64)
    expect(image.width).toBe(64)
    expect(pixel(image, 0, 0)[3]).toBe(0)
    expect(pixel(image, 32, 32)[3]).toBe(255)
  })
})

describe('trayThemeFor', () => {
  it.each([
    ['darwin', true, true, 'template'],
    ['darwin', false, false, 'template'],
    ['win32', false, true, 'dark'],
    ['win32', true, false, 'light'],
    ['linux', false, false, 'dark'],
    ['linux', true, true, 'dark'],
  ] as const)(
    '%s darkColors=%s darkSystemUi=%s → %s',
    (platform, darkColors, darkSystemUi, theme) => {
      expect(trayThemeFor(platform, { darkColors, darkSystemUi })).toBe(theme)
    },
  )
})
