/**
 * The event log as the faces list it: newest first, sorted once per read of the log (a day of events paged
 * 200 or 1,000 at a time is sorted once, not once a page), a `sinceMs` window found by binary search.
 */
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { EventLog } from './adapters/event-log.ts'
import { countAtOrAfter, filterEvents } from './core/event-line.ts'

export interface EventQuery {
  /** Only the events of the last `sinceMs` milliseconds. */
  sinceMs?: number
  /** Only the events of the project with this name. */
  project?: string
}

/**
 * Lists `log`'s events. Without a query, the same array for as long as the log is unchanged: read-only to
 * its callers.
 */
export function createEventListing(
  log: EventLog,
  clock: () => number,
): (query: EventQuery) => Promise<readonly EngineEvent[]> {
  /** Keyed by the log's read: a changed log is a new array. */
  const newestFirst = new WeakMap<readonly EngineEvent[], readonly EngineEvent[]>()
  return async (query) => {
    const { events } = await log.readAll()
    let all = newestFirst.get(events)
    if (!all) {
      all = filterEvents(events)
      newestFirst.set(events, all)
    }
    const recent =
      query.sinceMs === undefined ? all : all.slice(0, countAtOrAfter(all, clock() - query.sinceMs))
    return query.project ? recent.filter((e) => e.project === query.project) : recent
  }
}
