import { describe, expect, it } from 'vitest'
import {
  anchorPopover,
  POPOVER_MARGIN as M,
  trayEdge,
  type AnchorInput,
} from '../../electron/main/popover/anchor.ts'

const size = { width: 420, height: 620 }
const display = { x: 0, y: 0, width: 1920, height: 1080 }
const input = (over: Partial<AnchorInput>): AnchorInput => ({
  trayBounds: { x: 0, y: 0, width: 0, height: 0 },
  windowSize: size,
  workArea: display,
  displayBounds: display,
  platform: 'linux',
  ...over,
})

describe('anchorPopover', () => {
  const cases: {
    name: string
    over: Partial<AnchorInput>
    edge?: string
    at: { x: number; y: number }
  }[] = [
    {
      name: 'macOS menu bar: centred under the icon',
      over: {
        platform: 'darwin',
        trayBounds: { x: 1500, y: 0, width: 24, height: 24 },
        workArea: { x: 0, y: 24, width: 1920, height: 1056 },
      },
      edge: 'top',
      at: { x: 1512 - 210, y: 24 + M },
    },
    {
      name: 'Windows taskbar at the bottom: above the icon, pushed in from the right edge',
      over: {
        platform: 'win32',
        trayBounds: { x: 1800, y: 1040, width: 40, height: 40 },
        workArea: { x: 0, y: 0, width: 1920, height: 1040 },
      },
      edge: 'bottom',
      at: { x: 1920 - 420 - M, y: 1040 - 620 - M },
    },
    {
      name: 'taskbar on the left: beside the icon',
      over: {
        platform: 'win32',
        trayBounds: { x: 0, y: 500, width: 48, height: 40 },
        workArea: { x: 48, y: 0, width: 1872, height: 1080 },
      },
      edge: 'left',
      at: { x: 48 + M, y: 520 - 310 },
    },
    {
      name: 'taskbar on the right: beside the icon, clamped above the bottom',
      over: {
        platform: 'win32',
        trayBounds: { x: 1872, y: 1000, width: 48, height: 40 },
        workArea: { x: 0, y: 0, width: 1872, height: 1080 },
      },
      edge: 'right',
      at: { x: 1872 - 420 - M, y: 1080 - 620 - M },
    },
    {
      name: 'icon at the far left of a top panel: clamped to the left margin',
      over: {
        trayBounds: { x: 2, y: 0, width: 22, height: 22 },
        workArea: { x: 0, y: 28, width: 1920, height: 1052 },
      },
      edge: 'top',
      at: { x: M, y: 22 + M + 6 },
    },
    {
      name: 'auto-hidden menu bar (no inset): nearest display edge decides',
      over: { platform: 'darwin', trayBounds: { x: 900, y: 0, width: 24, height: 22 } },
      edge: 'top',
      at: { x: 912 - 210, y: 22 + M },
    },
    {
      name: 'second display to the right',
      over: {
        trayBounds: { x: 3600, y: 0, width: 24, height: 24 },
        workArea: { x: 1920, y: 24, width: 2560, height: 1416 },
        displayBounds: { x: 1920, y: 0, width: 2560, height: 1440 },
      },
      edge: 'top',
      at: { x: 3612 - 210, y: 24 + M },
    },
    {
      name: 'display left of and above the primary (negative coordinates), tray at its right end',
      over: {
        trayBounds: { x: -30, y: -1080, width: 24, height: 24 },
        workArea: { x: -1920, y: -1056, width: 1920, height: 1056 },
        displayBounds: { x: -1920, y: -1080, width: 1920, height: 1080 },
      },
      edge: 'top',
      at: { x: -420 - M, y: -1056 + M },
    },
    {
      name: 'empty tray bounds on Linux: top-right corner of the work area',
      over: { workArea: { x: 0, y: 27, width: 1920, height: 1053 } },
      at: { x: 1920 - 420 - M, y: 27 + M },
    },
    {
      name: 'empty tray bounds on Windows: bottom-right corner',
      over: { platform: 'win32', workArea: { x: 0, y: 0, width: 1920, height: 1040 } },
      at: { x: 1920 - 420 - M, y: 1040 - 620 - M },
    },
    {
      name: 'work area smaller than the window: pinned to its top-left margin',
      over: {
        trayBounds: { x: 500, y: 0, width: 20, height: 20 },
        workArea: { x: 0, y: 20, width: 400, height: 500 },
        displayBounds: { x: 0, y: 0, width: 400, height: 520 },
      },
      edge: 'top',
      at: { x: M, y: 20 + M },
    },
  ]

  it.each(cases)('$name', ({ over, edge, at }) => {
    const args = input(over)
    if (edge) expect(trayEdge(args.trayBounds, args.workArea, args.displayBounds)).toBe(edge)
    expect(anchorPopover(args)).toEqual(at)
  })

  it('returns whole pixels for fractional (scaled) bounds', () => {
    const at = anchorPopover(
      input({
        trayBounds: { x: 1000.5, y: 0, width: 23.3, height: 24 },
        windowSize: { width: 421, height: 620 },
        workArea: { x: 0, y: 24.5, width: 1920, height: 1055.5 },
      }),
    )
    expect(Number.isInteger(at.x) && Number.isInteger(at.y)).toBe(true)
  })
})
