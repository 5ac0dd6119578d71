import { describe, expect, it } from 'vitest'
import {
  REOPEN_GUARD_MS,
  SHOW_GRACE_MS,
  shouldHideOnBlur,
  toggleAction,
} from '../../electron/main/popover/blur-guard.ts'

describe('popover blur guard', () => {
  it.each([
    ['never shown', { shownAt: null, hiddenByBlurAt: null }, 1000, true],
    [
      'blur right after showing (the tray click)',
      { shownAt: 1000, hiddenByBlurAt: null },
      1000 + SHOW_GRACE_MS - 1,
      false,
    ],
    [
      'blur later (the user left)',
      { shownAt: 1000, hiddenByBlurAt: null },
      1000 + SHOW_GRACE_MS,
      true,
    ],
  ])('hide on blur: %s', (_name, times, now, expected) => {
    expect(shouldHideOnBlur(times, now)).toBe(expected)
  })

  it.each([
    ['visible → hide', true, { shownAt: 0, hiddenByBlurAt: null }, 5000, 'hide'],
    ['hidden long ago → show', false, { shownAt: 0, hiddenByBlurAt: 1000 }, 5000, 'show'],
    ['never hidden by blur → show', false, { shownAt: null, hiddenByBlurAt: null }, 5000, 'show'],
    [
      'the click whose blur just hid it → stays hidden',
      false,
      { shownAt: 0, hiddenByBlurAt: 5000 },
      5000 + REOPEN_GUARD_MS - 1,
      'none',
    ],
    [
      'a click after the guard → show',
      false,
      { shownAt: 0, hiddenByBlurAt: 5000 },
      5000 + REOPEN_GUARD_MS,
      'show',
    ],
  ] as const)('toggle: %s', (_name, visible, times, now, expected) => {
    expect(toggleAction(visible, times, now)).toBe(expected)
  })
})
