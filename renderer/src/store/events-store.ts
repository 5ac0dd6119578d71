import { create } from 'zustand'
import type { EngineEvent } from '../../../shared/schemas/event.ts'
import { invoke } from '../lib/api.ts'
import { mergeEvents } from './selectors.ts'

/** The most events the popover keeps (a busy day); older ones stay in the log. */
export const EVENTS_CAP = 5000
/** The first page is small, so the popover shows something at once; older pages come bigger. */
const FIRST_PAGE = 200
const OLDER_PAGE = 500

interface EventsStore {
  events: EngineEvent[]
  hasMore: boolean
  /** A page of older events is on its way (scrolling asks again and again; one request is enough). */
  loadingOlder: boolean
  error: string | null
  load(): Promise<void>
  loadOlder(): Promise<void>
  append(events: EngineEvent[]): void
}

export const useEventsStore = create<EventsStore>()((set, get) => ({
  events: [],
  hasMore: false,
  loadingOlder: false,
  error: null,
  load: async () => {
    const result = await invoke('events:list', { limit: FIRST_PAGE })
    if (!result.ok) return set({ error: result.error.message })
    // A reload (after a reconnect) merges the newest page in; older pages already loaded stay, and so
    // does what was known about the ones beyond them.
    const pageOldest = result.data.events.at(-1)?.timestamp
    const holdsOlder = get().events.some(
      (e) => pageOldest !== undefined && e.timestamp < pageOldest,
    )
    set({
      events: mergeEvents(get().events, result.data.events, EVENTS_CAP),
      hasMore: holdsOlder ? get().hasMore : result.data.has_more,
      error: null,
    })
  },
  loadOlder: async () => {
    const oldest = get().events.at(-1)
    if (!oldest || get().loadingOlder) return
    set({ loadingOlder: true })
    const result = await invoke('events:list', { limit: OLDER_PAGE, before: oldest.timestamp })
    if (!result.ok) return set({ error: result.error.message, loadingOlder: false })
    const events = mergeEvents(get().events, result.data.events, EVENTS_CAP)
    set({
      events,
      hasMore: result.data.has_more && events.length < EVENTS_CAP,
      loadingOlder: false,
      error: null,
    })
  },
  append: (incoming) => set({ events: mergeEvents(get().events, incoming, EVENTS_CAP) }),
}))
