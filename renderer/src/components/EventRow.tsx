import { memo } from 'react'
import type { EngineEvent } from '../../../shared/schemas/event.ts'
import {
  clockTime,
  eventColorClass,
  eventText,
  eventTooltip,
  isOldEvent,
  singleLine,
} from '../store/selectors.ts'
import { useUiStore } from '../store/ui-store.ts'

/** Every row is one line of this height (events.css), so the list can place rows it has not drawn. */
export const EVENT_ROW_HEIGHT = 22

interface Props {
  event: EngineEvent
  now: number
  selected: boolean
  /** Where the row sits in the list, in px (the list draws only the rows in view). */
  top: number
}

/** One event on one line: time, project, what happened; colored by kind, dimmed after an hour. */
export const EventRow = memo(function EventRow({ event, now, selected, top }: Props) {
  const setCursor = useUiStore((s) => s.setEventCursor)
  const classes = [
    'event',
    `event--${eventColorClass(event.type)}`,
    isOldEvent(now, event) ? 'event--old' : '',
  ]
  return (
    <div
      className={classes.join(' ').trim()}
      style={{ transform: `translateY(${top}px)` }}
      role="option"
      aria-selected={selected}
      data-testid="event-row"
      data-event={event.id}
      data-type={event.type}
      data-project={event.project}
      title={eventTooltip(event)}
      onClick={() => setCursor(event.id)}
    >
      <time className="event-time" dateTime={event.timestamp}>
        {clockTime(now, event.timestamp)}
      </time>
      <span className="event-project">{singleLine(event.project)}</span>
      <span className="event-text">{eventText(event)}</span>
    </div>
  )
})
