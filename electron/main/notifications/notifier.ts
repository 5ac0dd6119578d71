/**
 * The Electron side of notifications: feeds engine events and briefings to the pure `decideNotifications`,
 * keeps its state and wake-up timer, and shows what it decides as native notifications.
 */
import { Notification } from 'electron'
import type { EngineEvent } from '../../../shared/schemas/event.ts'
import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'
import type { Settings } from '../../../shared/schemas/settings.ts'
import {
  decideNotifications,
  initialNotifierState,
  withSeenAttention,
  type AttentionItemInput,
  type NotificationSpec,
} from './decide.ts'
import { notificationBody } from './plain-text.ts'

export interface NotifierDeps {
  getSettings(): Settings
  isPopoverVisible(): boolean
  /** A click on the notification: show that project in the popover. */
  onOpenProject(project: string): void
  /** The "Go to session" action (macOS only; offered only for sessions in tmux). */
  onGoToSession(sessionId: string): void
  /** Milliseconds since the epoch; `Date.now` unless a test says otherwise. */
  clock?: () => number
  /** Failures while showing a notification; they never reach the engine's listener. */
  onError?: (error: unknown) => void
}

export interface Notifier {
  /** New engine events and the projects' current state (for session reasons and tmux panes). */
  handleEvents(events: EngineEvent[], projects: ProjectSnapshot[]): void
  /** The attention list of a briefing that just arrived. */
  handleAttention(items: AttentionItemInput[]): void
  /** The attention list the user has already had (the cached briefing): remembered, not shown. */
  seedAttention(items: AttentionItemInput[]): void
  stop(): void
}

export function createNotifier(deps: NotifierDeps): Notifier {
  const now = deps.clock ?? Date.now
  let state = initialNotifierState()
  let projects: ProjectSnapshot[] = []
  let timer: ReturnType<typeof setTimeout> | null = null
  let stopped = false
  // Electron drops the click handlers of a Notification that is garbage collected while still on screen.
  const onScreen = new Set<Notification>()

  const step = (events: EngineEvent[], attentionItems?: AttentionItemInput[]) => {
    if (stopped) return
    try {
      const decision = decideNotifications(state, {
        now: now(),
        events,
        projects,
        ...(attentionItems ? { attentionItems } : {}),
        settings: deps.getSettings(),
        popover: { visible: deps.isPopoverVisible() },
      })
      state = decision.state
      schedule(decision.nextWakeAt)
      for (const spec of decision.notifications) show(spec)
    } catch (error) {
      deps.onError?.(error)
    }
  }

  const schedule = (wakeAt: number | null) => {
    if (timer) clearTimeout(timer)
    timer = null
    if (wakeAt === null) return
    timer = setTimeout(() => step([]), Math.max(0, wakeAt - now()))
  }

  const show = (spec: NotificationSpec) => {
    if (!Notification.isSupported()) return
    const notification = new Notification({
      title: spec.title,
      body: notificationBody(spec.body, process.platform),
      actions: spec.session ? [{ type: 'button', text: 'Go to session' }] : [],
    })
    const forget = () => onScreen.delete(notification)
    notification.on('click', () => {
      forget()
      deps.onOpenProject(spec.project)
    })
    notification.on('action', () => {
      forget()
      if (spec.session) deps.onGoToSession(spec.session.id)
    })
    notification.on('close', forget)
    notification.on('failed', forget)
    onScreen.add(notification)
    notification.show()
  }

  return {
    handleEvents(events, current) {
      projects = current
      step(events)
    },
    handleAttention(items) {
      step([], items)
    },
    seedAttention(items) {
      state = withSeenAttention(state, items)
    },
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
      onScreen.clear()
    },
  }
}
