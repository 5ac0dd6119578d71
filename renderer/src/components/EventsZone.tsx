import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef } from 'react'
import { useEventsStore, EVENTS_CAP } from '../store/events-store.ts'
import { resolveCursor } from '../store/selectors.ts'
import { useUiStore } from '../store/ui-store.ts'
import { EventRow, EVENT_ROW_HEIGHT } from './EventRow.tsx'
import { ListZone } from './ListZone.tsx'

/** Rows drawn beyond the visible ones, so a quick scroll never shows a gap. */
const OVERSCAN = 12
/** Older events are fetched when the list is scrolled this close to its end. */
const LOAD_AHEAD_ROWS = 40

/**
 * Zone 3: what happened, newest first. Only the rows in view (and a few around them) are in the page:
 * the popover holds up to 5,000 events and a frame must still take well under 16 ms to draw and scroll.
 * Older events come a page at a time as the list (or the keyboard cursor) nears its end.
 */
export function EventsZone() {
  const events = useEventsStore((s) => s.events)
  const hasMore = useEventsStore((s) => s.hasMore)
  const loadOlder = useEventsStore((s) => s.loadOlder)
  const cursor = useUiStore((s) => s.eventCursor)
  const now = useUiStore((s) => s.now)
  const scrollRef = useRef<HTMLDivElement>(null)
  const selected = resolveCursor(
    events.map((e) => e.id),
    cursor,
  )
  const rows = useVirtualizer({
    count: events.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => EVENT_ROW_HEIGHT,
    getItemKey: (index) => events[index]?.id ?? index,
    overscan: OVERSCAN,
  })
  const selectedIndex = selected === null ? -1 : events.findIndex((e) => e.id === selected)
  // The keyboard moves the cursor: its row is scrolled into view (it may not be in the page yet).
  useEffect(() => {
    if (cursor !== null && selectedIndex >= 0) rows.scrollToIndex(selectedIndex, { align: 'auto' })
  }, [cursor, selectedIndex, rows])
  const items = rows.getVirtualItems()
  const lastShown = items.at(-1)?.index ?? 0
  const canLoadMore = hasMore && events.length < EVENTS_CAP
  useEffect(() => {
    if (canLoadMore && events.length > 0 && lastShown >= events.length - LOAD_AHEAD_ROWS)
      void loadOlder()
  }, [canLoadMore, lastShown, events.length, loadOlder])
  return (
    <ListZone zone="events" count={events.length} more={canLoadMore} scrollRef={scrollRef}>
      {events.length === 0 && <p className="empty">No events yet.</p>}
      <div className="event-rows" style={{ height: rows.getTotalSize() }}>
        {items.map((item) => {
          const event = events[item.index]
          if (!event) return null
          return (
            <EventRow
              key={event.id}
              event={event}
              now={now}
              selected={event.id === selected}
              top={item.start}
            />
          )
        })}
      </div>
    </ListZone>
  )
}
