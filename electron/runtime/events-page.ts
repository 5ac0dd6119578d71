import type { EventsPage } from '../../shared/ipc-contract.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import { countAtOrAfter } from '../engine/core/event-line.ts'

/**
 * One page of `events` (already newest first): those strictly older than `before`, at most `limit`.
 * A page never ends in the middle of a run of equal timestamps when more follow, since the next page
 * (`before` = this page's last timestamp) would skip the rest of the run; it is cut before the run
 * instead, unless the run fills the whole page, which then grows to hold all of it. Pure.
 */
export function pageEvents(
  events: readonly EngineEvent[],
  query: { limit: number; before?: string | undefined },
): EventsPage {
  const before = query.before === undefined ? Infinity : Date.parse(query.before)
  const older = Number.isNaN(before) ? [] : events.slice(countAtOrAfter(events, before))
  if (older.length <= query.limit) return { events: older, has_more: false }

  const boundary = Date.parse(older[query.limit - 1]?.timestamp ?? '')
  const crossesRun = Date.parse(older[query.limit]?.timestamp ?? '') === boundary
  if (!crossesRun) return { events: older.slice(0, query.limit), has_more: true }

  let start = query.limit - 1
  while (start > 0 && Date.parse(older[start - 1]?.timestamp ?? '') === boundary) start--
  if (start > 0) return { events: older.slice(0, start), has_more: true }
  let end = query.limit
  while (end < older.length && Date.parse(older[end]?.timestamp ?? '') === boundary) end++
  return { events: older.slice(0, end), has_more: end < older.length }
}
