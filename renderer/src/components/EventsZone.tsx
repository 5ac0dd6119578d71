import { useEventsStore, EVENTS_CAP } from '../store/events-store.ts'
import { resolveCursor } from '../store/selectors.ts'
import { useUiStore } from '../store/ui-store.ts'
import { EventRow } from './EventRow.tsx'
import { ListZone } from './ListZone.tsx'

/** Zone 3: what happened, newest first. */
export function EventsZone() {
  const events = useEventsStore((s) => s.events)
  const hasMore = useEventsStore((s) => s.hasMore)
  const loadOlder = useEventsStore((s) => s.loadOlder)
  const cursor = useUiStore((s) => s.eventCursor)
  const now = useUiStore((s) => s.now)
  const selected = resolveCursor(
    events.map((e) => e.id),
    cursor,
  )
  return (
    <ListZone zone="events" count={events.length}>
      {events.length === 0 && <p className="empty">No events yet.</p>}
      {events.map((e) => (
        <EventRow
          key={e.id}
          event={e}
          now={now}
          selected={e.id === selected}
          follow={cursor !== null}
        />
      ))}
      {hasMore && events.length < EVENTS_CAP && (
        <button type="button" className="link-button more" onClick={() => loadOlder()}>
          Load older events
        </button>
      )}
    </ListZone>
  )
}
