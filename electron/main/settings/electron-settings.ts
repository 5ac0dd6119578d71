/**
 * The tray app's settings: electron-store over `$NAVI_HOME/settings.json`, the file `navi serve`, the CLI
 * and the engine read through `electron/services/settings-store.ts`. Same interface, same normalisation.
 */
import Store from 'electron-store'
import { createSettingsStoreOver, type ElectronSettingsStore } from './settings-store-over.ts'

export type { ElectronSettingsStore } from './settings-store-over.ts'

/** Opens `$NAVI_HOME/settings.json` with electron-store, watching it for changes by other Navi processes. */
export function createElectronSettingsStore(naviHome: string): ElectronSettingsStore {
  const store = new Store<Record<string, unknown>>({
    cwd: naviHome,
    name: 'settings',
    // Unreadable JSON: start from the defaults (written back below) rather than failing to start.
    clearInvalidConfig: true,
    watch: true,
    serialize: (value) => `${JSON.stringify(value, null, 2)}\n`,
  })
  return createSettingsStoreOver(store)
}
