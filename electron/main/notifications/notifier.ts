/**
 * The Electron side of notifications: the loop of `notification-loop.ts` showing what it decides as
 * native notifications, with a click opening the project and "Go to session" focusing its tmux pane.
 */
import { Notification } from 'electron'
import type { Settings } from '../../../shared/schemas/settings.ts'
import type { NotificationSpec } from './decide.ts'
import { createNotificationLoop, type NotificationLoop } from './notification-loop.ts'
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
  /** Failures while deciding or showing a notification; they never reach the engine's listener. */
  onError?: (error: unknown) => void
}

export type Notifier = NotificationLoop

export function createNotifier(deps: NotifierDeps): Notifier {
  // Electron drops the click handlers of a Notification that is garbage collected while still on screen.
  const onScreen = new Set<Notification>()

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

  const loop = createNotificationLoop({ ...deps, show })
  return {
    ...loop,
    stop() {
      loop.stop()
      onScreen.clear()
    },
  }
}
