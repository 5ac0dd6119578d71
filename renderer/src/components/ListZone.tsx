import type { ReactNode, RefObject } from 'react'
import type { Zone } from '../store/keymap.ts'
import { useUiStore } from '../store/ui-store.ts'

const TITLES: Record<Zone, string> = { projects: 'Projects', events: 'Events' }

/** The frame of a keyboard zone (projects, events): title, count, and the scrolling list it holds. */
export function ListZone({
  zone,
  count,
  children,
  scrollRef,
  more = false,
}: {
  zone: Zone
  count: number
  /** More are to come as the list is scrolled (older events): the count says "200+", not "200". */
  more?: boolean
  children: ReactNode
  /** The scrolling element, for a list that draws only what is in view. */
  scrollRef?: RefObject<HTMLDivElement | null>
}) {
  const active = useUiStore((s) => s.zone === zone)
  const setZone = useUiStore((s) => s.setZone)
  return (
    <section
      className={`zone zone--${zone}`}
      data-testid={`zone-${zone}`}
      data-active={active}
      data-count={count}
      aria-label={TITLES[zone]}
      // On click, not mousedown: re-rendering between mousedown and mouseup can move the target away
      // (a first click on "Load older events" then only activated the zone).
      onClickCapture={() => setZone(zone)}
    >
      <header className="zone-head">
        <h2 className="zone-title">{TITLES[zone]}</h2>
        {count > 0 && (
          <span className="zone-count" title={more ? 'more load as you scroll' : undefined}>
            {more ? `${count}+` : count}
          </span>
        )}
      </header>
      <div
        ref={scrollRef}
        className={`zone-scroll zone-scroll--${zone}`}
        role="listbox"
        aria-label={TITLES[zone]}
      >
        {children}
      </div>
    </section>
  )
}
