import { memo, useEffect, useRef } from 'react'
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

interface Props {
  event: EngineEvent
  now: number
  selected: boolean
  /** Scroll to the row when it gets the cursor (not for the implicit first-row cursor). */
  follow: boolean
}

/** One event on one line: time, project, what happened; colored by kind, dimmed after an hour. */
export const EventRow = memo(function EventRow({ event, now, selected, follow }: Props) {
  const setCursor = useUiStore((s) => s.setEventCursor)
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (selected && follow) ref.current?.scrollIntoView({ block: 'nearest' })
  }, [selected, follow])
  const classes = [
    'event',
    `event--${eventColorClass(event.type)}`,
    isOldEvent(now, event) ? 'event--old' : '',
  ]
  return (
    <div
      ref={ref}
      className={classes.join(' ').trim()}
      role="option"
      aria-selected={selected}
      data-testid="event-row"
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
