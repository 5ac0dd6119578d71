import { describe, expect, it } from 'vitest'
import { carriesStamp, newFileStamp } from '../../electron/engine/core/file-stamp.ts'

describe('file stamps', () => {
  it('are whole even seconds, which FAT (2 s) and HFS+ (1 s) keep as they are', () => {
    const now = Date.parse('2026-11-27T10:00:03.456Z')
    const stamp = newFileStamp(now)
    expect(stamp).toBe(Date.parse('2026-11-27T10:00:02.000Z'))
    expect(stamp % 2000).toBe(0)
    expect(newFileStamp(stamp)).toBe(stamp)
  })

  it('are carried by a time within a microsecond of them, and by nothing else', () => {
    const stamp = newFileStamp(Date.parse('2026-11-27T10:00:00.000Z'))
    // Set as seconds in a double and read back through nanoseconds: a hair off either way.
    expect(carriesStamp(stamp + 0.000_4, stamp)).toBe(true)
    expect(carriesStamp(stamp - 0.000_4, stamp)).toBe(true)
    expect(carriesStamp(stamp + 1, stamp)).toBe(false)
    expect(carriesStamp(Number.NaN, stamp)).toBe(false)
    expect(carriesStamp(stamp, String(stamp))).toBe(false)
    expect(carriesStamp(stamp, undefined)).toBe(false)
  })
})
