/** The app's hooks into the OS that follow the settings: the global shortcut and launch at login. */
import { app, globalShortcut } from 'electron'

export interface ShortcutBinding {
  /** Binds `accelerator` in place of the previous one; a no-op when it is already bound. */
  apply(accelerator: string): void
  dispose(): void
}

/**
 * Keeps one global shortcut bound. A registration can fail (taken by another app, or not a valid
 * accelerator): `onFailure` hears why, and the shortcut stays unbound until a setting changes it.
 */
export function createShortcutBinding(
  onTrigger: () => void,
  onFailure: (accelerator: string, reason: string) => void,
): ShortcutBinding {
  let bound: string | null = null
  let wanted: string | null = null
  return {
    apply(accelerator) {
      if (accelerator === wanted) return
      wanted = accelerator
      if (bound) globalShortcut.unregister(bound)
      bound = null
      let reason = 'it is taken by another application'
      try {
        if (globalShortcut.register(accelerator, onTrigger)) bound = accelerator
      } catch (error) {
        reason = error instanceof Error ? error.message : String(error)
      }
      if (!bound) onFailure(accelerator, reason)
    },
    dispose() {
      if (bound) globalShortcut.unregister(bound)
      bound = null
      wanted = null
    },
  }
}

/**
 * Launch at login (macOS and Windows; Linux has no API for it). Only a packaged app registers itself:
 * in development the login item would point at the bare Electron binary.
 */
export function applyLaunchAtLogin(enabled: boolean): void {
  if (!app.isPackaged || process.platform === 'linux') return
  if (app.getLoginItemSettings().openAtLogin === enabled) return
  app.setLoginItemSettings({ openAtLogin: enabled })
}
