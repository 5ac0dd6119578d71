/**
 * JSON's scalar grammar over UTF-8 bytes, for the projection scanner (json-projection.ts): where a number
 * ends, its value, and whether a literal is there. Each takes the bytes and a position, and reads nothing
 * past `end` but the one byte after a number's digits, as the scanner always has. Pure.
 */
import { utf8Of } from './json-strings.ts'

const MINUS = 0x2d
const PLUS = 0x2b
const ZERO = 0x30
const NINE = 0x39
const DOT = 0x2e
const LOWER_E = 0x65
const UPPER_E = 0x45

/** Where the run of digits from `from` ends (`from` itself when there is none). */
function digitsEnd(bytes: Buffer, from: number, end: number): number {
  let at = from
  while (at < end) {
    const d = bytes[at] as number
    if (d < ZERO || d > NINE) break
    at++
  }
  return at
}

/**
 * Where the number that starts at `start` ends, as JSON writes one (`-`, no leading zeros, an optional
 * fraction and exponent); -1 when the bytes there are not a number.
 */
export function numberEnd(bytes: Buffer, start: number, end: number): number {
  let at = start
  if (bytes[at] === MINUS) at++
  if (bytes[at] === ZERO) at++
  else {
    const digits = digitsEnd(bytes, at, end)
    if (digits === at) return -1
    at = digits
  }
  if (bytes[at] === DOT) {
    const digits = digitsEnd(bytes, at + 1, end)
    if (digits === at + 1) return -1
    at = digits
  }
  const e = bytes[at]
  if (e === LOWER_E || e === UPPER_E) {
    at++
    const sign = bytes[at]
    if (sign === PLUS || sign === MINUS) at++
    const digits = digitsEnd(bytes, at, end)
    if (digits === at) return -1
    at = digits
  }
  return at
}

/**
 * The value of the number in `bytes[start, stop)` (as `numberEnd` found it). A plain non-negative integer
 * of up to 15 digits (token counts, durations: most numbers of a transcript) is summed in place, exactly;
 * anything else goes through `Number`.
 */
export function numberValue(bytes: Buffer, start: number, stop: number): number {
  if (stop - start <= 15 && bytes[start] !== MINUS) {
    let value = 0
    let i = start
    for (; i < stop; i++) {
      const d = (bytes[i] as number) - ZERO
      if (d < 0 || d > 9) break
      value = value * 10 + d
    }
    if (i === stop) return value
  }
  return Number(utf8Of(bytes, start, stop))
}

/** Whether the ASCII `word` (true, false, null) is at `at`, wholly before `end`. */
export function literalAt(bytes: Buffer, at: number, end: number, word: string): boolean {
  if (at + word.length > end) return false
  for (let i = 0; i < word.length; i++) if (bytes[at + i] !== word.charCodeAt(i)) return false
  return true
}
