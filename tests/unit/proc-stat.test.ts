import { describe, expect, it } from 'vitest'
import { parseProcStartTime } from '../../electron/engine/core/proc-stat.ts'

/** Builds a stat line with `comm` and field 22 set, the other fields filled with their index. */
function statLine(comm: string, startTime: string): string {
  const rest = Array.from({ length: 50 }, (_, i) => String(i + 3))
  rest[0] = 'S'
  rest[22 - 3] = startTime
  return `4242 (${comm}) ${rest.join(' ')}\n`
}

describe('parseProcStartTime', () => {
  it('reads field 22 of a plain stat line', () => {
    expect(parseProcStartTime(statLine('claude', '201495'))).toBe('201495')
  })

  it('reads a real-looking line', () => {
    const line =
      '14332 (claude) S 14300 14332 14300 34816 14332 4194304 9137 0 0 0 120 31 0 0 20 0 11 0 55219 ' +
      '1234567 12345 18446744073709551615 1 1 0 0 0 0 0 16781312 17642 0 0 0 17 1 0 0 0 0 0'
    expect(parseProcStartTime(line)).toBe('55219')
  })

  it('splits after the last ")" when comm has spaces and parentheses', () => {
    expect(parseProcStartTime(statLine('my (weird) name) x', '777'))).toBe('777')
    expect(parseProcStartTime(statLine(') ) )', '888'))).toBe('888')
  })

  it('returns null for truncated or garbage input', () => {
    expect(parseProcStartTime('')).toBeNull()
    expect(parseProcStartTime('4242 (claude) S 1 2 3')).toBeNull()
    expect(parseProcStartTime('no parenthesis here at all')).toBeNull()
    expect(parseProcStartTime(statLine('claude', 'abc'))).toBeNull()
  })
})
