import { create } from 'zustand'
import type { Settings, SettingPatch } from '../../../shared/schemas/settings.ts'
import { invoke } from '../lib/api.ts'

interface SettingsStore {
  settings: Settings | null
  error: string | null
  /** What the last "Install hooks" said. */
  hooksMessage: string | null
  load(): Promise<void>
  set(patch: SettingPatch): Promise<void>
  installHooks(): Promise<void>
}

export const useSettingsStore = create<SettingsStore>()((set) => ({
  settings: null,
  error: null,
  hooksMessage: null,
  load: async () => {
    const result = await invoke('settings:get', undefined)
    if (result.ok) set({ settings: result.data, error: null })
    else set({ error: result.error.message })
  },
  set: async (patch) => {
    const result = await invoke('settings:set', patch)
    if (result.ok) set({ settings: result.data, error: null })
    else set({ error: result.error.message })
  },
  installHooks: async () => {
    set({ hooksMessage: 'Installing…' })
    const result = await invoke('hooks:install', undefined)
    set({ hooksMessage: result.ok ? result.data.message : `Failed: ${result.error.message}` })
  },
}))
