import { useEventsStore, EVENTS_CAP } from '../store/events-store.ts'
import { resolveCursor } from '../store/selectors.ts'
import { useUiStore } from '../store/ui-store.ts'
import { EventRow } from './EventRow.tsx'

/** Zone 3: what happened, newest first. */
export function EventsZone() {
  const events = useEventsStore((s) => s.events)
  const hasMore = useEventsStore((s) => s.hasMore)
  const loadOlder = useEventsStore((s) => s.loadOlder)
  const active = useUiStore((s) => s.zone === 'events')
  const cursor = useUiStore((s) => s.eventCursor)
  const now = useUiStore((s) => s.now)
  const setZone = useUiStore((s) => s.setZone)
  const selected = resolveCursor(
    events.map((e) => e.id),
    cursor,
  )
  return (
    <section
      className="zone zone--events"
      data-testid="zone-events"
      data-active={active}
      aria-label="Events"
      // On click, not mousedown: re-rendering between mousedown and mouseup can move the target away
      // (a first click on "Load older events" then only activated the zone).
      onClickCapture={() => setZone('events')}
    >
      <header className="zone-head">
        <h2 className="zone-title">Events</h2>
        {events.length > 0 && <span className="zone-count">{events.length}</span>}
      </header>
      <div className="zone-scroll zone-scroll--events" role="listbox" aria-label="Events">
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
      </div>
    </section>
  )
}
