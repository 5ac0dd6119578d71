import { create } from 'zustand'
import type { BriefingView } from '../../../shared/ipc-contract.ts'
import type { BriefingState, PmRunStatus } from '../../../shared/schemas/briefing.ts'
import { invoke } from '../lib/api.ts'
import { isRunning } from './selectors.ts'
import { useUiStore } from './ui-store.ts'

interface BriefingStore {
  state: BriefingState | null
  /** The PM run in progress, if any. */
  running: PmRunStatus | null
  error: string | null
  load(): Promise<void>
  refresh(): Promise<void>
  /** Hides an attention item: for `snoozeMinutes`, or while the PM lists it. */
  dismiss(item: { project: string; title: string }, snoozeMinutes?: number): Promise<void>
  applyView(view: BriefingView): void
  applyStatus(status: PmRunStatus): void
}

export const useBriefingStore = create<BriefingStore>()((set) => ({
  state: null,
  running: null,
  error: null,
  load: async () => {
    const result = await invoke('briefing:get', undefined)
    if (result.ok) set({ state: result.data.state, running: result.data.running, error: null })
    else set({ error: result.error.message })
  },
  refresh: async () => {
    const result = await invoke('briefing:refresh', undefined)
    const notify = useUiStore.getState().notify
    if (!result.ok) notify(`Refresh failed: ${result.error.message}`)
    else if (!result.data.done) notify(result.data.message)
  },
  dismiss: async (item, snoozeMinutes) => {
    const result = await invoke('attention:dismiss', {
      project: item.project,
      title: item.title,
      ...(snoozeMinutes ? { snooze_minutes: snoozeMinutes } : {}),
    })
    if (!result.ok) useUiStore.getState().notify(`Dismiss failed: ${result.error.message}`)
    // With a PM the new briefing is pushed; without one (navi serve --no-pm) it is asked for.
    else await useBriefingStore.getState().load()
  },
  applyView: (view) =>
    set({ state: view.state, running: isRunning(view.running) ? view.running : null, error: null }),
  applyStatus: (status) => set({ running: isRunning(status) ? status : null }),
}))
