/**
 * `navi events` as text: a line per event (local time, project, what happened), inert, aligned. Pure.
 * Shared because a running Navi writes these lines for the command that asks it (query-serving.ts): a
 * day of 2,000 events is 400 KB of JSON to parse and format in a process that just started, against a
 * page of text from one whose code is warm.
 */
import { describeEvent } from './event-text.ts'
import type { EngineEvent } from './schemas/event.ts'
import { clipText, inertLine } from './text.ts'

/**
 * Which text `formatEvents` writes: a running Navi of another build writes its lines only when they are
 * this text. Raise it with any change to what the lines say or how they are laid out.
 */
export const EVENTS_TEXT_FORMAT = 1

/**
 * What the lines depend on beyond the events: their format and the time zone they are written in (the
 * `TZ` a process was given; unset, the machine's own, the same for every process on it).
 */
export interface EventsTextWanted {
  format: number
  zone: string | null
}

/** The lines a process given `zone` (its `TZ`, or null) writes. */
export const eventsTextIn = (zone: string | null): EventsTextWanted => ({
  format: EVENTS_TEXT_FORMAT,
  zone,
})

/** Whether a process given `zone` writes the lines `wanted` describes. */
export function writesEventsText(wanted: unknown, zone: string | null): boolean {
  if (typeof wanted !== 'object' || wanted === null) return false
  const asked = wanted as Record<string, unknown>
  return asked.format === EVENTS_TEXT_FORMAT && asked.zone === zone
}

export function formatEvents(events: readonly EngineEvent[]): string {
  if (events.length === 0) return 'No events.'
  // A day of events is 2,000 rows: the table made each of their 6,000 cells inert again. The time is
  // ours and the project comes out of clip inert; the description is made inert once more (it joins
  // inert pieces, and an empty one leaves two spaces the table collapses). The same text as table().
  const times = events.map((e) => shortTime(e.timestamp))
  const projects = events.map((e) => clipText(e.project, 30))
  let timeWidth = 0
  let projectWidth = 0
  for (const time of times) timeWidth = Math.max(timeWidth, time.length)
  for (const project of projects) projectWidth = Math.max(projectWidth, project.length)
  return events
    .map((e, i) =>
      `${(times[i] ?? '').padEnd(timeWidth)}  ${(projects[i] ?? '').padEnd(projectWidth)}  ${inertLine(describeEvent(e))}`.trimEnd(),
    )
    .join('\n')
}

function shortTime(iso: string): string {
  const d = new Date(iso)
  // The local time once (each local getter looks the zone up again: 2,000 events were 3.5 ms), read
  // with the UTC getters.
  const local = new Date(d.getTime() - d.getTimezoneOffset() * 60_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`
}
