/**
 * The verified prefix of the event log: its first bytes, as far as a marker beside it says (with their
 * SHA-256), are lines Navi wrote that read back exactly as the schema makes them. Such a line is taken
 * with `JSON.parse` alone; zod validating 2,000 events was a tenth of `navi events`. Anything past the
 * prefix, or any log whose prefix does not hash as the marker says, is validated line by line as before.
 * Pure.
 */
import { engineEventSchema, type EngineEvent } from '../../../shared/schemas/event.ts'
import { sameJson } from './same-json.ts'
import { parseJson } from './parse-json.ts'
import { parseLogText, type EventLogContents } from './event-line.ts'

/**
 * What "exact" means for the lines a marker vouches for. Bumped whenever the event schema changes what
 * it makes of a line (a new field with a default, a new constraint): a marker of another version is not
 * believed, and the lines are validated again. tests/unit/event-verified.test.ts pins the schema it was
 * last bumped for.
 */
export const VERIFIED_EVENT_LINES_VERSION = 1

/**
 * The event `line` holds when it is exact: its JSON is already what the schema makes of it (nothing
 * defaulted, dropped or converted) and its time is a date. Null otherwise, or when it is no event.
 */
export function exactEventOf(line: string): EngineEvent | null {
  const json = parseJson(line)
  if (json === undefined) return null
  const parsed = engineEventSchema.safeParse(json)
  if (!parsed.success || Number.isNaN(Date.parse(parsed.data.timestamp))) return null
  return sameJson(json, parsed.data) ? parsed.data : null
}

/**
 * The events of a log's bytes, in file order. The first `verifiedBytes` (whole lines, vouched for by a
 * marker whose hash matched) are parsed as JSON alone; the rest as `parseLogText` parses any text.
 */
export function parseVerifiedLog(bytes: Uint8Array, verifiedBytes: number): EventLogContents {
  const split = Math.min(verifiedBytes, bytes.length)
  const decoder = new TextDecoder()
  const events: EngineEvent[] = []
  let corrupt = 0
  if (split > 0) {
    for (const line of decoder.decode(bytes.subarray(0, split)).split('\n')) {
      if (line === '') continue
      try {
        events.push(JSON.parse(line) as EngineEvent)
      } catch {
        // A marker that vouched for a broken line was not made by Navi: counted, never shown.
        corrupt++
      }
    }
  }
  const rest = parseLogText(decoder.decode(bytes.subarray(split)))
  return { events: [...events, ...rest.events], corrupt: corrupt + rest.corrupt }
}

/**
 * How many leading bytes of `lines` (each written with its newline) are exact event lines; the first
 * `knownExact` are known to be (a marker vouched for them) and are not validated again.
 */
export function exactPrefixBytes(lines: readonly string[], knownExact = 0): number {
  let bytes = 0
  for (const [index, line] of lines.entries()) {
    if (index >= knownExact && exactEventOf(line) === null) break
    bytes += Buffer.byteLength(line, 'utf8') + 1
  }
  return bytes
}

/** How many lines end in the first `bytes` of `content`. */
export function linesIn(content: Buffer, bytes: number): number {
  let count = 0
  for (let at = content.indexOf(0x0a); at !== -1 && at < bytes; at = content.indexOf(0x0a, at + 1))
    count++
  return count
}

/** The smallest of `times`; Infinity for none (a loop: a day's log holds more ids than a call's arguments). */
export function earliest(times: Iterable<number>): number {
  let min = Infinity
  for (const t of times) if (t < min) min = t
  return min
}
