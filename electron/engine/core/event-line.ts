/**
 * Lines of `$NAVI_HOME/pm/events.jsonl` and the pure operations on events read back from it. The
 * adapter (`adapters/event-log.ts`) only moves bytes; everything that decides lives here.
 */
import { sha1Hex } from './digest.ts'
import {
  engineEventSchema,
  type EngineEvent,
  type EventType,
} from '../../../shared/schemas/event.ts'
import { parseJsonAs } from './parse-json.ts'

/** How long the log keeps events. @default 24 h */
export const EVENT_MAX_AGE_MS = 24 * 60 * 60 * 1000

/** One JSON line without its newline. JSON escapes newlines inside strings, so it never spans lines. */
export function serializeEvent(event: EngineEvent): string {
  const { id, timestamp, type, project, session, details } = event
  return JSON.stringify({
    id,
    timestamp,
    type,
    project,
    ...(session !== undefined && { session }),
    details,
  })
}

/**
 * One line back into an event, or null when it is not one: not JSON, not the event shape, or a
 * timestamp that is not a date (such a line could never be pruned, so it counts as corrupt).
 */
export function parseEventLine(line: string): EngineEvent | null {
  const text = line.trim()
  if (text === '') return null
  const event = parseJsonAs(engineEventSchema, text)
  return event && !Number.isNaN(Date.parse(event.timestamp)) ? event : null
}

/**
 * A stable id from what identifies a change (type, project, sha, ...): the same parts always give the
 * same id, so a restarted or second engine recognizes an event already logged. 16 hex chars of SHA-1.
 */
export function eventId(parts: readonly string[]): string {
  return sha1Hex(parts.join('\u0000')).slice(0, 16)
}

/** Epoch milliseconds of an event's timestamp; NaN when it is not a date. */
export function eventTime(event: Pick<EngineEvent, 'timestamp'>): number {
  return Date.parse(event.timestamp)
}

export interface PrunedLines {
  /** Lines of events not older than the max age, first of each id only, verbatim and in order. */
  kept: string[]
  /** The kept events' ids with their times (an append skips ids already here). */
  keptIds: Map<string, number>
  /** Lines that are not an event: moved aside by the caller, never dropped. */
  corrupt: string[]
  /** Events too old, or repeats of an id already kept. */
  dropped: number
  /** How many of the first kept lines came from the exact ones (`exactLines`): exact too. */
  keptExact: number
}

/**
 * What a prune of the log keeps: lines stay byte for byte (a rewrite never re-serializes an event), an
 * event older than `maxAgeMs` at `now` goes, and so does a second line with an id already kept. The
 * first `exactLines` are known to be exact event lines (vouched for by the log's marker:
 * core/event-verified.ts), read with `JSON.parse` alone; the rest are validated.
 */
export function pruneEventLines(
  lines: readonly string[],
  now: Date | number,
  maxAgeMs: number = EVENT_MAX_AGE_MS,
  exactLines = 0,
): PrunedLines {
  const cutoff = toMs(now) - maxAgeMs
  const result: PrunedLines = {
    kept: [],
    keptIds: new Map(),
    corrupt: [],
    dropped: 0,
    keptExact: 0,
  }
  for (const [index, line] of lines.entries()) {
    const exact = index < exactLines
    const event = exact ? exactLine(line) : parseEventLine(line)
    if (!event) result.corrupt.push(line)
    else if (eventTime(event) < cutoff || result.keptIds.has(event.id)) result.dropped++
    else {
      result.kept.push(line)
      result.keptIds.set(event.id, eventTime(event))
      if (exact) result.keptExact++
    }
  }
  return result
}

/** An exact line's event (its id and time are all a prune looks at); null if it is not JSON after all. */
function exactLine(line: string): Pick<EngineEvent, 'id' | 'timestamp'> | null {
  try {
    return JSON.parse(line) as EngineEvent
  } catch {
    return null
  }
}

export interface EventFilter {
  /** Only events at or after this moment. */
  since?: Date | number
  /** Only events of the project with this name. */
  project?: string
  /** Only events of these types (all when absent or empty). */
  types?: readonly EventType[]
}

/** Matching events, newest first; among equal timestamps the later-logged one comes first. */
export function filterEvents(
  events: readonly EngineEvent[],
  filter: EventFilter = {},
): EngineEvent[] {
  const since = filter.since === undefined ? -Infinity : toMs(filter.since)
  const types = filter.types && filter.types.length > 0 ? new Set(filter.types) : null
  return events
    .map((event, index) => ({ event, index, at: eventTime(event) }))
    .filter(
      ({ event, at }) =>
        at >= since &&
        (filter.project === undefined || event.project === filter.project) &&
        (types === null || types.has(event.type)),
    )
    .sort((a, b) => b.at - a.at || b.index - a.index)
    .map(({ event }) => event)
}

/**
 * How many of `newestFirst` (events sorted as `filterEvents` sorts them) are at or after `ms`: a binary
 * search, so a page or a window of a day of events parses a dozen timestamps, not every one. Pure.
 */
export function countAtOrAfter(newestFirst: readonly EngineEvent[], ms: number): number {
  let low = 0
  let high = newestFirst.length
  while (low < high) {
    const mid = (low + high) >>> 1
    const event = newestFirst[mid]
    if (event && eventTime(event) >= ms) low = mid + 1
    else high = mid
  }
  return low
}

function toMs(time: Date | number): number {
  return typeof time === 'number' ? time : time.getTime()
}

/**
 * Split log text into its complete lines and the unterminated rest (a line still being written, or left
 * half-written by a crash). Blank lines are dropped; `\r\n` endings are tolerated.
 */
export function splitLogLines(text: string): { lines: string[]; partial: string } {
  const parts = text.split('\n')
  const partial = parts.pop() ?? ''
  const lines = parts.map((l) => l.replace(/\r$/, '')).filter((l) => l.trim() !== '')
  return { lines, partial }
}

export interface EventLogContents {
  /** In log order. Shared with the log's cache of its last read: never changed by a reader. */
  events: readonly EngineEvent[]
  /** Complete lines that are not valid events. */
  corrupt: number
}

/**
 * The events of a log's text, in file order. A half-written last line is read when it is already whole,
 * and not counted as corrupt when it is not: it may be complete a moment later.
 */
export function parseLogText(text: string): EventLogContents {
  const { lines, partial } = splitLogLines(text)
  const events: EngineEvent[] = []
  let corrupt = 0
  for (const line of lines) {
    const event = parseEventLine(line)
    if (event) events.push(event)
    else corrupt++
  }
  const last = parseEventLine(partial)
  if (last) events.push(last)
  return { events, corrupt }
}
