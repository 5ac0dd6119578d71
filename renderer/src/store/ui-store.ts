import { create } from 'zustand'
import { invoke } from '../lib/api.ts'
import type { View, Zone } from './keymap.ts'
import { INITIAL_PRESENCE, nextPresence, type PresenceSignal } from './presence.ts'

interface UiStore {
  view: View
  /** The project the detail view shows. */
  detailProject: string | null
  /** The zone the keyboard moves in. */
  zone: Zone
  /** Project name and event id under the cursor; null means "the first one". */
  projectCursor: string | null
  eventCursor: string | null
  /** Projects expanded inline (Space). */
  expanded: string[]
  /** The clock relative times are measured against; ticks every 30 s. */
  now: number
  showBreadcrumbs: boolean
  /** When the user left the popover (hidden or unfocused); null while they are here. */
  leftAt: number | null
  /** A one-line message from the last command that did not work. */
  notice: string | null
  navigate(view: View, project?: string): void
  back(): void
  setZone(zone: Zone): void
  toggleZone(): void
  setProjectCursor(name: string | null): void
  setEventCursor(id: string | null): void
  toggleExpanded(name: string): void
  tick(now: number): void
  presenceChanged(signal: PresenceSignal, now: number): void
  notify(message: string | null): void
  focusSession(sessionId: string): Promise<void>
  hidePopover(): Promise<void>
}

export const useUiStore = create<UiStore>()((set, get) => ({
  view: 'overview',
  detailProject: null,
  zone: 'projects',
  projectCursor: null,
  eventCursor: null,
  expanded: [],
  now: Date.now(),
  ...INITIAL_PRESENCE,
  notice: null,
  navigate: (view, project) =>
    set(
      view === 'project' && project
        ? { view, detailProject: project, projectCursor: project }
        : { view: view === 'project' ? 'overview' : view },
    ),
  back: () => set({ view: 'overview' }),
  setZone: (zone) => set({ zone }),
  toggleZone: () => set({ zone: get().zone === 'projects' ? 'events' : 'projects' }),
  setProjectCursor: (projectCursor) => set({ projectCursor }),
  setEventCursor: (eventCursor) => set({ eventCursor }),
  toggleExpanded: (name) => {
    const { expanded } = get()
    set({
      expanded: expanded.includes(name) ? expanded.filter((n) => n !== name) : [...expanded, name],
    })
  },
  tick: (now) => set({ now }),
  presenceChanged: (signal, now) => {
    const { leftAt, showBreadcrumbs } = get()
    const next = nextPresence({ leftAt, showBreadcrumbs }, signal, now)
    set(signal === 'visible' || signal === 'focused' ? { ...next, now } : next)
  },
  notify: (notice) => set({ notice }),
  focusSession: async (sessionId) => {
    const result = await invoke('session:focus', { session_id: sessionId })
    if (!result.ok) set({ notice: `Could not go to the session: ${result.error.message}` })
    else if (!result.data.done) set({ notice: result.data.message })
  },
  hidePopover: async () => {
    // A browser tab has nothing to hide and answers done: false, which is not worth a notice.
    await invoke('popover:hide', undefined)
  },
}))
