import { create } from 'zustand'
import {
  mergeSettingPatch,
  type SettingPatch,
  type Settings,
} from '../../../shared/schemas/settings.ts'
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

export const useSettingsStore = create<SettingsStore>()((set, get) => ({
  settings: null,
  error: null,
  hooksMessage: null,
  load: async () => {
    const result = await invoke('settings:get', undefined)
    if (result.ok) set({ settings: result.data, error: null })
    else set({ error: result.error.message })
  },
  set: async (patch) => {
    // Shown at once (a checkbox must not wait for the disk); the server's answer, or the old value, wins.
    const before = get().settings
    if (before) {
      try {
        set({ settings: mergeSettingPatch(before, patch) })
      } catch {
        // An invalid value: leave it to the server to say why.
      }
    }
    const result = await invoke('settings:set', patch)
    if (result.ok) set({ settings: result.data, error: null })
    else set({ settings: before, error: result.error.message })
  },
  installHooks: async () => {
    set({ hooksMessage: 'Installing…' })
    const result = await invoke('hooks:install', undefined)
    set({ hooksMessage: result.ok ? result.data.message : `Failed: ${result.error.message}` })
  },
}))
