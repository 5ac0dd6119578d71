/**
 * Navi's Electron entry: one instance, no Dock icon, the login shell's PATH, then the tray app
 * (`app.ts`). A tray app does not quit when its window closes; quitting stops the PM and the engine first.
 */
import { homedir } from 'node:os'
import { app } from 'electron'
import { startNavi, type NaviApp } from './app.ts'
import { fixPath } from './fix-path.ts'
import { registerRendererScheme } from './popover/renderer-protocol.ts'

/** How long quitting waits for the PM and the engine to stop before leaving anyway. */
const STOP_TIMEOUT_MS = 5_000

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  registerRendererScheme()
  if (process.platform === 'win32') app.setAppUserModelId('dev.navi.app')
  // Started from Finder, the Dock or a desktop entry, the app lacks the shell's PATH: claude, git, tmux
  // and gh must be found before the engine and the PM look for them.
  const pathFixed = fixPath({ env: process.env, platform: process.platform, home: homedir() })
    .then((path) => {
      if (path) process.env.PATH = path
    })
    .catch((error) => console.error('navi: reading the login shell PATH failed:', error))

  let navi: NaviApp | null = null
  let stopping: Promise<unknown> | null = null
  let stopped = false
  let confirming = false

  app.on('second-instance', () => navi?.showPopover())
  app.on('window-all-closed', () => {
    // Keep running in the tray.
  })
  app.on('before-quit', (event) => {
    const running = navi
    if (stopped || !running) return
    event.preventDefault()
    if (stopping || confirming) return
    // Quitting cancels the delegated tasks this Navi runs: the user is asked first (app.ts confirmQuit).
    confirming = true
    running
      .confirmQuit()
      .catch((error: unknown) => {
        console.error('navi: asking before quitting failed:', error)
        return true
      })
      .then((go) => {
        confirming = false
        if (!go) return
        const timeout = new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS))
        stopping = Promise.race([running.stop(), timeout])
          .catch((error) => console.error('navi: stopping failed:', error))
          .finally(() => {
            stopped = true
            app.quit()
          })
      })
  })

  app.whenReady().then(async () => {
    app.dock?.hide()
    await pathFixed
    try {
      navi = await startNavi({ e2e: process.env.NAVI_E2E === '1' })
    } catch (error) {
      console.error('navi: failed to start:', error)
      app.exit(1)
    }
  })
}
