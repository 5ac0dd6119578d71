/**
 * The strings a JSON projection (json-projection.ts) keeps, read from a line's bytes: decoded as
 * `JSON.parse` would, and, for a field that holds the same few values line after line, not decoded again
 * at all. Pure as far as a caller can tell: the same bytes always give the same string.
 */
import type { Field } from './json-projection-spec.ts'

/** Values a field remembers; a field that missed this often, more than it hit, stops comparing. */
const RECENT_VALUES = 4
const REPEAT_MISSES = 64

/**
 * `buf.toString('utf8', …)` without the argument checks of its public wrapper, which cost more than the
 * decoding of the short strings read here (`utf8Slice` is what that wrapper calls, on every Node).
 */
type FastSlicing = Buffer & { utf8Slice(start: number, end: number): string }
const HAS_UTF8_SLICE = typeof (Buffer.prototype as Partial<FastSlicing>).utf8Slice === 'function'

export function utf8Of(buf: Buffer, start: number, stop: number): string {
  return HAS_UTF8_SLICE
    ? (buf as FastSlicing).utf8Slice(start, stop)
    : buf.toString('utf8', start, stop)
}

/** The string written at `buf[open, close)`, its quotes included, as `JSON.parse` reads it. */
export function decodeJsonString(buf: Buffer, open: number, close: number): string {
  const raw = utf8Of(buf, open + 1, close - 1)
  return raw.includes('\\') ? (JSON.parse(utf8Of(buf, open, close)) as string) : raw
}

/**
 * The string at `buf[open, close)` for a kept field, decoded only when it is none of the field's last few
 * values: most of what a line keeps is the same on every line of a file (session, directory, branch,
 * version) or one of a handful (a line's or a block's type, a stop reason), and comparing a few dozen
 * bytes costs less than decoding and collecting them. A field whose values keep changing (times, ids)
 * is not compared any more after a few dozen values.
 */
export function repeatedString(field: Field, buf: Buffer, open: number, close: number): string {
  const length = close - open - 2
  const recent = field.recent
  if (recent !== null) {
    const from = open + 1
    for (let r = 0; r < recent.length; r++) {
      const known = recent[r] as string
      if (known.length !== length) continue
      let i = 0
      while (i < length && known.charCodeAt(i) === buf[from + i]) i++
      if (i === length) {
        field.hits++
        return known
      }
    }
  }
  const value = decodeJsonString(buf, open, close)
  if (++field.misses > REPEAT_MISSES && field.misses > field.hits) field.recent = null
  // Compared byte for character: only a value that took one byte a character (ASCII, no escapes).
  else if (recent !== null && value.length === length) {
    if (recent.length === RECENT_VALUES) recent.pop()
    recent.unshift(value)
  }
  return value
}
