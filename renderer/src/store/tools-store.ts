import { create } from 'zustand'
import type { ToolStatus } from '../../../shared/ipc-contract.ts'
import { invoke } from '../lib/api.ts'

interface ToolsStore {
  tools: ToolStatus[]
  error: string | null
  load(): Promise<void>
}

export const useToolsStore = create<ToolsStore>()((set) => ({
  tools: [],
  error: null,
  load: async () => {
    const result = await invoke('tools:get', undefined)
    if (result.ok) set({ tools: result.data, error: null })
    else set({ error: result.error.message })
  },
}))
