import { create } from 'zustand'
import type { EngineState } from '../../../shared/schemas/state.ts'
import { invoke } from '../lib/api.ts'

interface ProjectsStore {
  state: EngineState | null
  error: string | null
  load(): Promise<void>
  apply(state: EngineState): void
}

/** A push can overtake the first `state:get`: keep whichever state the engine generated last. */
const newer = (current: EngineState | null, next: EngineState): EngineState =>
  current && Date.parse(current.generated_at) > Date.parse(next.generated_at) ? current : next

export const useProjectsStore = create<ProjectsStore>()((set, get) => ({
  state: null,
  error: null,
  load: async () => {
    const result = await invoke('state:get', undefined)
    if (result.ok) set({ state: newer(get().state, result.data), error: null })
    else set({ error: result.error.message })
  },
  apply: (state) => set({ state: newer(get().state, state), error: null }),
}))
