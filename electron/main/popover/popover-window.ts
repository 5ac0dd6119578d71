/**
 * The popover: one frameless window, created at start and kept warm, shown next to the tray icon and
 * hidden when it loses focus.
 */
import { join } from 'node:path'
import { BrowserWindow, screen, type Rectangle, type WebContents } from 'electron'
import { anchorPopover } from './anchor.ts'
import { shouldHideOnBlur, toggleAction, type PopoverTimes } from './blur-guard.ts'
import { RENDERER_URL } from './renderer-asset.ts'

export const POPOVER_SIZE = { width: 420, height: 620 } as const

/**
 * The renderer's URL: the electron-vite dev server's in development, else the built renderer on its own
 * scheme (`renderer-protocol.ts`). A packaged app ignores ELECTRON_RENDERER_URL: otherwise anyone who can
 * set the app's environment could load a page of their choosing with the preload's API.
 */
export function rendererUrl(isPackaged: boolean): string {
  const devUrl = process.env.ELECTRON_RENDERER_URL
  return devUrl && !isPackaged ? devUrl : RENDERER_URL
}

export interface PopoverOptions {
  /** What `rendererUrl` answered. */
  appUrl: string
  /** Hide when the window loses focus. @default true */
  hideOnBlur?: boolean
  /** Called after every show and hide, e.g. to tell the notifier. */
  onVisibilityChange?(visible: boolean): void
}

export interface Popover {
  readonly webContents: WebContents
  /** Shows it if hidden (unless this very click's blur just hid it), hides it if shown. */
  toggle(trayBounds: Rectangle): void
  /** Shows it beside the tray icon; without tray bounds, in the corner of the display under the cursor. */
  show(trayBounds?: Rectangle): void
  hide(): void
  isVisible(): boolean
  destroy(): void
}

export function createPopover(opts: PopoverOptions): Popover {
  const window = new BrowserWindow({
    ...POPOVER_SIZE,
    show: false,
    frame: false,
    resizable: false,
    movable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    skipTaskbar: true,
    alwaysOnTop: true,
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      // Middle-click would otherwise try to open links in a new window.
      disableBlinkFeatures: 'Auxclick',
    },
  })
  // Show on the Space (macOS) the user is on, even over a full-screen app.
  if (process.platform === 'darwin')
    window.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true })

  const times: PopoverTimes = { shownAt: null, hiddenByBlurAt: null }
  let lastTrayBounds: Rectangle | undefined

  const show = (trayBounds?: Rectangle) => {
    if (trayBounds) lastTrayBounds = trayBounds
    const anchor = lastTrayBounds ?? { x: 0, y: 0, width: 0, height: 0 }
    const display =
      anchor.width > 0 && anchor.height > 0
        ? screen.getDisplayMatching(anchor)
        : screen.getDisplayNearestPoint(screen.getCursorScreenPoint())
    const { x, y } = anchorPopover({
      trayBounds: anchor,
      windowSize: POPOVER_SIZE,
      workArea: display.workArea,
      displayBounds: display.bounds,
      platform: process.platform,
    })
    window.setBounds({ x, y, ...POPOVER_SIZE })
    times.shownAt = Date.now()
    window.show()
    window.focus()
    opts.onVisibilityChange?.(true)
  }

  const hide = () => {
    if (!window.isVisible()) return
    window.hide()
    opts.onVisibilityChange?.(false)
  }

  window.on('blur', () => {
    if (opts.hideOnBlur === false || !window.isVisible()) return
    if (!shouldHideOnBlur(times, Date.now())) return
    times.hiddenByBlurAt = Date.now()
    hide()
  })

  // The popover lives as long as the app: Alt+F4 or Cmd+W hide it instead of destroying it (a destroyed
  // window would break the tray and the notifier's "is it visible" question).
  let destroying = false
  window.on('close', (event) => {
    if (destroying) return
    event.preventDefault()
    hide()
  })
  const load = () =>
    window.loadURL(opts.appUrl).catch(() => {
      // A failed load shows as an empty popover; the renderer's own error reporting covers the rest.
    })
  // A crashed or killed renderer would leave a blank popover until restart: load it again.
  window.webContents.on('render-process-gone', (_event, details) => {
    if (!destroying && details.reason !== 'clean-exit') void load()
  })
  void load()

  return {
    webContents: window.webContents,
    toggle(trayBounds) {
      const action = toggleAction(window.isVisible(), times, Date.now())
      if (action === 'show') show(trayBounds)
      else if (action === 'hide') hide()
    },
    show,
    hide,
    isVisible: () => window.isVisible(),
    destroy: () => {
      destroying = true
      window.destroy()
    },
  }
}
