/**
 * The tray face: the runtime (engine, PM, settings, contract, pushes) plus what only the tray has: the
 * contract over IPC, notifications, the tray and its popover, the shortcut and the login item. Every
 * decision lives in the modules it calls; this file only connects them.
 */
import { join } from 'node:path'
import { Notification, app, dialog, powerMonitor, session } from 'electron'
import { initialLockAway, onLockChange } from './away-on-lock.ts'
import type { CommandResult } from '../../shared/ipc-contract.ts'
import type { BriefingState } from '../../shared/schemas/briefing.ts'
import type { Settings } from '../../shared/schemas/settings.ts'
import type { Task } from '../../shared/schemas/task.ts'
import { quitQuestion } from './quit-tasks.ts'
import { installHooksCommand } from '../runtime/hooks.ts'
import { createNaviRuntime, resolvePaths } from '../runtime/index.ts'
import { forwardPushes, registerIpcHandlers } from './ipc/register-handlers.ts'
import { isPaused, pauseUntil } from './notifications/decide.ts'
import { createNotifier } from './notifications/notifier.ts'
import { createPopover, rendererUrl } from './popover/popover-window.ts'
import { RENDERER_URL } from './popover/renderer-asset.ts'
import { serveRenderer } from './popover/renderer-protocol.ts'
import { hardenSession, hardenWebContents } from './security/harden.ts'
import { applyLaunchAtLogin, createShortcutBinding } from './system-integration.ts'
import type { MenuAction } from './tray/menu-model.ts'
import { createTray } from './tray/tray.ts'
import { deriveTrayState } from './tray/tray-state.ts'

export interface NaviApp {
  showPopover(): void
  /**
   * Whether quitting may go on: when this Navi runs delegated tasks, the user is asked first (quitting
   * cancels them). Resolves true when nothing runs.
   */
  confirmQuit(): Promise<boolean>
  /** Stops the PM and the engine (waiting for them) and releases the tray and the shortcut. */
  stop(): Promise<void>
}

/** The hooks run Navi's shell handler (no Node needed at hook time); the app ships it as a resource. */
async function installHooksForApp(): Promise<CommandResult> {
  const paths = resolvePaths()
  const handlerSource = app.isPackaged
    ? join(process.resourcesPath, 'hooks', 'navi-hook.sh')
    : join(app.getAppPath(), 'resources', 'hooks', 'navi-hook.sh')
  return installHooksCommand(paths, { handlerSource })
}

export async function startNavi(opts: { e2e: boolean }): Promise<NaviApp> {
  const paths = resolvePaths()
  const appUrl = rendererUrl(app.isPackaged)
  const devServer = appUrl !== RENDERER_URL
  // The Vite dev server injects an inline preamble that a strict CSP would block.
  hardenSession(session.defaultSession, devServer ? { csp: null } : {})
  if (!devServer) serveRenderer()

  const popover = createPopover({ appUrl, hideOnBlur: !opts.e2e })
  // Told once the notifier exists; a task relays nothing before the runtime runs.
  let onTaskNote: (task: Task, title: string, body: string) => void = () => undefined
  const runtime = await createNaviRuntime({
    paths,
    mode: 'live',
    pm: true,
    tasks: true,
    onTaskNote: (task, title, body) => onTaskNote(task, title, body),
    face: 'tray',
    installHooks: installHooksForApp,
    hidePopover: (): CommandResult => {
      popover.hide()
      return { done: true, message: 'hidden' }
    },
  })
  const { engine, settings, hub, handlers } = runtime
  const pm = runtime.pm
  if (!pm) throw new Error('the tray runtime has no PM')
  let briefing: BriefingState | null = null

  hardenWebContents(popover.webContents, { appUrl })
  const showPopover = () => popover.show(tray.bounds())
  const navigate = (view: 'settings' | 'project' | 'tasks', project?: string) => {
    showPopover()
    hub.publish('popover:navigate', project ? { view, project } : { view })
  }

  registerIpcHandlers(handlers, () => ({ appUrl, popoverId: popover.webContents.id }))
  forwardPushes(hub, popover.webContents)

  const notifier = createNotifier({
    getSettings: () => settings.get(),
    isPopoverVisible: () => popover.isVisible(),
    onOpenProject: (project) => navigate('project', project),
    onOpenTasks: () => navigate('tasks'),
    onGoToSession: (id) => void handlers['session:focus']({ session_id: id }),
    // The answer names the request the notification showed: a stale one is refused (and says so).
    onAnswer: (answer, decision) => {
      handlers['session:answer']({ ...answer, decision }).then(
        (result) => {
          if (!result.done) navigate('project', sessionProject(answer.session_id))
        },
        (error: unknown) => console.error('navi: answer failed:', error),
      )
    },
    onReply: (sessionId, text) => {
      handlers['session:reply']({ session_id: sessionId, text }).then(
        (result) => {
          if (!result.done) navigate('project', sessionProject(sessionId))
        },
        (error: unknown) => console.error('navi: reply failed:', error),
      )
    },
    onTaskReply: (taskId, text) => {
      handlers['task:reply']({ id: taskId, text }).then(
        (result) => {
          if (!result.done) navigate('tasks')
        },
        (error: unknown) => console.error('navi: task reply failed:', error),
      )
    },
    onError: (error) => console.error('navi: notification failed:', error),
  })
  onTaskNote = (task, title, body) => notifier.showTaskNote(task, { title, body })

  // Away while the screen is locked (macOS and Windows send these events): nobody is at the terminal.
  let lockAway = initialLockAway
  const lockChanged = (locked: boolean) => {
    handlers['answering:get']()
      .then(async (answering) => {
        const next = onLockChange(lockAway, locked, answering.away !== null)
        lockAway = next.state
        if (next.setAway !== null) await handlers['answering:set']({ on: next.setAway })
      })
      .catch((error: unknown) => console.error('navi: away on lock:', error))
  }
  powerMonitor.on('lock-screen', () => lockChanged(true))
  powerMonitor.on('unlock-screen', () => lockChanged(false))

  /** The project a session belongs to now, for showing it in the popover. */
  const sessionProject = (sessionId: string): string | undefined =>
    engine.getState().projects.find((p) => p.sessions.some((s) => s.id === sessionId))?.name

  const onMenuAction = (action: MenuAction) => {
    const actions: Record<MenuAction, () => unknown> = {
      open: showPopover,
      refresh: () => handlers['briefing:refresh'](),
      pause: () => settings.set({ paused_until: pauseUntil(Date.now(), 1) }),
      resume: () => settings.set({ paused_until: null }),
      settings: () => navigate('settings'),
      // index.ts asks before-quit (confirmQuit) whatever starts the quit: this menu, Cmd+Q, the system.
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

  // The briefing is read before the PM starts, so a run that finishes at once cannot be overwritten by it.
  briefing = await pm.getBriefing()
  notifier.seedAttention(briefing.briefing?.output.attention_items ?? [])
  await runtime.start()
  updateTray()
  if (opts.e2e) {
    // The Playwright `_electron` smoke test reads this from the main process.
    const probe = { trayCount: () => (tray.isAlive() ? 1 : 0) }
    Object.assign(globalThis, { __naviE2E: probe })
    showPopover()
  }

  return {
    showPopover,
    async confirmQuit() {
      const question = quitQuestion(await handlers['tasks:list'](), process.pid)
      if (!question) return true
      const { response } = await dialog.showMessageBox({
        type: 'warning',
        message: question.message,
        detail: question.detail,
        buttons: question.buttons,
        defaultId: 1,
        cancelId: 1,
      })
      return response === 0
    },
    async stop() {
      for (const off of [offSettings, offEngine, offBriefing, offStatus]) off()
      clearTimeout(resumeTimer)
      shortcut.dispose()
      notifier.stop()
      await runtime.stop()
      tray.destroy()
      popover.destroy()
    },
  }
}
