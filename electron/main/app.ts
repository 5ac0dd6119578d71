/**
 * Wires the tray app together: engine, PM, settings, the contract over IPC, pushes, notifications, the
 * tray and its popover. Every decision lives in the modules it calls; this file only connects them.
 */
import { join } from 'node:path'
import { Notification, app, session } from 'electron'
import type { CommandResult } from '../../shared/ipc-contract.ts'
import type { BriefingState } from '../../shared/schemas/briefing.ts'
import type { Settings } from '../../shared/schemas/settings.ts'
import { loadConfig } from '../engine/adapters/config-file.ts'
import { resolvePaths } from '../engine/core/paths.ts'
import { createEngine } from '../engine/index.ts'
import { createPm } from '../pm/index.ts'
import { createContractHandlers, installHooksCommand } from '../services/contract-handlers.ts'
import { createPushHub } from '../services/push-hub.ts'
import { checkTools, findOnPath } from '../services/tools.ts'
import { forwardPushes, registerIpcHandlers } from './ipc/register-handlers.ts'
import { isPaused, pauseUntil } from './notifications/decide.ts'
import { createNotifier } from './notifications/notifier.ts'
import { createPopover, rendererUrl } from './popover/popover-window.ts'
import { RENDERER_URL } from './popover/renderer-asset.ts'
import { serveRenderer } from './popover/renderer-protocol.ts'
import { hardenSession, hardenWebContents } from './security/harden.ts'
import { createElectronSettingsStore } from './settings/electron-settings.ts'
import { applyLaunchAtLogin, createShortcutBinding } from './system-integration.ts'
import type { MenuAction } from './tray/menu-model.ts'
import { createTray } from './tray/tray.ts'
import { deriveTrayState } from './tray/tray-state.ts'

export interface NaviApp {
  showPopover(): void
  /** Stops the PM and the engine (waiting for them) and releases the tray and the shortcut. */
  stop(): Promise<void>
}

/**
 * The hooks run Navi's handler with the system's node: the packaged app's own binary cannot, because the
 * `runAsNode` fuse is off (it would make the signed app a general-purpose node for anyone).
 */
async function installHooksForApp(): Promise<CommandResult> {
  const paths = resolvePaths()
  const nodePath = await findOnPath('node', process.env.PATH ?? '')
  if (!nodePath)
    return {
      done: false,
      message:
        "Navi's hooks need Node.js on your PATH (install it from nodejs.org or with your package manager). " +
        'Without hooks Navi still reads status from the transcripts, a little later.',
    }
  const handlerSource = app.isPackaged
    ? join(process.resourcesPath, 'hooks', 'navi-hook.mjs')
    : join(app.getAppPath(), 'resources', 'hooks', 'navi-hook.mjs')
  return installHooksCommand(paths, { nodePath, handlerSource })
}

export async function startNavi(opts: { e2e: boolean }): Promise<NaviApp> {
  const paths = resolvePaths()
  const appUrl = rendererUrl(app.isPackaged)
  const devServer = appUrl !== RENDERER_URL
  // The Vite dev server injects an inline preamble that a strict CSP would block.
  hardenSession(session.defaultSession, devServer ? { csp: null } : {})
  if (!devServer) serveRenderer()

  const settings = createElectronSettingsStore(paths.naviHome)
  const { config } = await loadConfig(paths)
  const engine = createEngine({ paths })
  const pm = createPm({
    paths,
    engine,
    settings: config.pm,
    reloadSettings: async () => (await loadConfig(paths)).config.pm,
  })
  const hub = createPushHub({ engine, pm })
  let briefing: BriefingState | null = null

  const popover = createPopover({ appUrl, hideOnBlur: !opts.e2e })
  hardenWebContents(popover.webContents, { appUrl })
  const showPopover = () => popover.show(tray.bounds())
  const navigate = (view: 'settings' | 'project', project?: string) => {
    showPopover()
    hub.publish('popover:navigate', project ? { view, project } : { view })
  }

  const handlers = createContractHandlers({
    engine,
    pm,
    settings,
    paths,
    checkTools: async () =>
      checkTools({
        env: process.env,
        claudePath: (await loadConfig(paths)).config.pm.claudePath,
      }),
    installHooks: installHooksForApp,
    hidePopover: (): CommandResult => {
      popover.hide()
      return { done: true, message: 'hidden' }
    },
    getPmRunning: () => hub.running(),
  })
  registerIpcHandlers(handlers, () => ({ appUrl, popoverId: popover.webContents.id }))
  forwardPushes(hub, popover.webContents)

  const notifier = createNotifier({
    getSettings: () => settings.get(),
    isPopoverVisible: () => popover.isVisible(),
    onOpenProject: (project) => navigate('project', project),
    onGoToSession: (id) => void handlers['session:focus']({ session_id: id }),
    onError: (error) => console.error('navi: notification failed:', error),
  })

  const onMenuAction = (action: MenuAction) => {
    const actions: Record<MenuAction, () => unknown> = {
      open: showPopover,
      refresh: () => handlers['briefing:refresh'](),
      pause: () => settings.set({ paused_until: pauseUntil(Date.now(), 1) }),
      resume: () => settings.set({ paused_until: null }),
      settings: () => navigate('settings'),
      quit: () => app.quit(),
    }
    Promise.resolve(actions[action]()).catch((error) => console.error(`navi: ${action}:`, error))
  }
  const tray = createTray({
    onClick: (bounds) => popover.toggle(bounds),
    onMenuAction,
    getMenuState: () => ({
      paused: isPaused(settings.get(), Date.now()),
      refreshing: hub.running() !== null,
    }),
  })
  const updateTray = () =>
    tray.update(
      deriveTrayState({
        projects: engine.getState().projects,
        attentionItems: briefing?.briefing?.output.attention_items ?? [],
        briefingStale: briefing?.is_stale ?? false,
        pmRunning: hub.running() !== null,
      }),
    )

  const shortcut = createShortcutBinding(
    () => popover.toggle(tray.bounds()),
    (accelerator, reason) => {
      console.error(`navi: cannot register the shortcut ${accelerator}: ${reason}`)
      if (Notification.isSupported())
        new Notification({
          title: 'Navi',
          body: `Shortcut ${accelerator} unavailable: ${reason}`,
        }).show()
    },
  )
  let resumeTimer: NodeJS.Timeout | undefined
  const applySettings = (next: Settings) => {
    shortcut.apply(next.global_shortcut)
    applyLaunchAtLogin(next.launch_at_login)
    tray.refreshMenu()
    clearTimeout(resumeTimer)
    const pausedFor = next.paused_until ? Date.parse(next.paused_until) - Date.now() : 0
    // Linux keeps its menu attached: "Resume" must turn back into "Pause" when the pause runs out.
    if (pausedFor > 0) resumeTimer = setTimeout(() => tray.refreshMenu(), pausedFor + 1000)
  }
  const offSettings = settings.onChange(applySettings)
  applySettings(settings.get())

  const offEngine = engine.subscribe((events, state) => {
    notifier.handleEvents(events, state.projects)
    updateTray()
  })
  const offBriefing = pm.onBriefing((state) => {
    briefing = state
    notifier.handleAttention(state.briefing?.output.attention_items ?? [])
    updateTray()
  })
  const offStatus = pm.onStatus(() => {
    updateTray()
    tray.refreshMenu()
  })

  await engine.start()
  briefing = await pm.getBriefing()
  notifier.seedAttention(briefing.briefing?.output.attention_items ?? [])
  updateTray()
  await pm.start()
  if (opts.e2e) {
    // The Playwright `_electron` smoke test reads this from the main process.
    const probe = { trayCount: () => (tray.isAlive() ? 1 : 0) }
    Object.assign(globalThis, { __naviE2E: probe })
    showPopover()
  }

  return {
    showPopover,
    async stop() {
      for (const off of [offSettings, offEngine, offBriefing, offStatus]) off()
      clearTimeout(resumeTimer)
      shortcut.dispose()
      notifier.stop()
      hub.stop()
      await pm.stop()
      await engine.stop()
      settings.dispose()
      tray.destroy()
      popover.destroy()
    },
  }
}
