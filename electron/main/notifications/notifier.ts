/**
 * The Electron side of notifications: the loop of `notification-loop.ts` showing what it decides as
 * native notifications, with a click opening the project and "Go to session" focusing its tmux pane.
 */
import { Notification } from 'electron'
import type { Settings } from '../../../shared/schemas/settings.ts'
import type { NotificationSpec } from './decide.ts'
import { createNotificationLoop, type NotificationLoop } from './notification-loop.ts'
import { notificationBody } from './plain-text.ts'
import { notificationActions } from './notifier-actions.ts'
import type { Task } from '../../../shared/schemas/task.ts'
import { taskNoteNotification } from './task-note.ts'

export interface NotifierDeps {
  getSettings(): Settings
  isPopoverVisible(): boolean
  /** A click on the notification: show that project in the popover. */
  onOpenProject(project: string): void
  /** A click on a delegated task's notification: show the popover's Tasks. */
  onOpenTasks(): void
  /** The "Go to session" action (macOS only; offered only for sessions in tmux). */
  onGoToSession(sessionId: string): void
  /** Allow / Deny (macOS only; offered while Navi's hook holds the request open, or in tmux). */
  onAnswer(answer: NonNullable<NotificationSpec['answer']>, decision: 'allow' | 'deny'): void
  /** The notification's reply field (macOS only; a session waiting for input, in tmux). */
  onReply(sessionId: string, text: string): void
  /** The reply field of a delegated task's question or plan (macOS only). */
  onTaskReply(taskId: string, text: string): void
  /** Milliseconds since the epoch; `Date.now` unless a test says otherwise. */
  clock?: () => number
  /** Failures while deciding or showing a notification; they never reach the engine's listener. */
  onError?: (error: unknown) => void
}

export type Notifier = NotificationLoop & {
  /** A note a delegated task relays (task-note.ts decides whether it shows). */
  showTaskNote(task: Task, note: { title: string; body: string }): void
}

export function createNotifier(deps: NotifierDeps): Notifier {
  // Electron drops the click handlers of a Notification that is garbage collected while still on screen.
  const onScreen = new Set<Notification>()
  /** The one notification per tag (a session's "needs you"): replaced or withdrawn by tag. */
  const byTag = new Map<string, Notification>()

  const withdraw = (tag: string) => {
    const notification = byTag.get(tag)
    byTag.delete(tag)
    if (!notification) return
    onScreen.delete(notification)
    notification.close()
  }

  const show = (spec: NotificationSpec) => {
    if (!Notification.isSupported()) return
    if (spec.tag) withdraw(spec.tag)
    const actions = notificationActions(spec)
    const notification = new Notification({
      title: spec.title,
      body: notificationBody(spec.body, process.platform),
      actions: actions.map(({ text }) => ({ type: 'button' as const, text })),
      ...(spec.reply ? { hasReply: true, replyPlaceholder: 'Reply to the session' } : {}),
      ...(spec.taskReply
        ? { hasReply: true, replyPlaceholder: 'Answer, or approve / reject the plan' }
        : {}),
    })
    const forget = () => {
      onScreen.delete(notification)
      if (spec.tag && byTag.get(spec.tag) === notification) byTag.delete(spec.tag)
    }
    notification.on('click', () => {
      forget()
      if (spec.kind === 'task_note') deps.onOpenTasks()
      else deps.onOpenProject(spec.project)
    })
    notification.on('action', (_event, index) => {
      forget()
      const action = actions[index]
      if (action?.id === 'session' && spec.session) deps.onGoToSession(spec.session.id)
      if (spec.answer && (action?.id === 'allow' || action?.id === 'deny')) {
        deps.onAnswer(spec.answer, action.id)
      }
    })
    notification.on('reply', (_event, text) => {
      forget()
      if (spec.reply && text.trim() !== '') deps.onReply(spec.reply.session_id, text)
      if (spec.taskReply && text.trim() !== '') deps.onTaskReply(spec.taskReply.task_id, text)
    })
    notification.on('close', forget)
    notification.on('failed', forget)
    onScreen.add(notification)
    if (spec.tag) byTag.set(spec.tag, notification)
    notification.show()
  }

  const loop = createNotificationLoop({ ...deps, show, withdraw })
  return {
    ...loop,
    showTaskNote(task, note) {
      try {
        const spec = taskNoteNotification(
          task,
          note,
          deps.getSettings(),
          (deps.clock ?? Date.now)(),
        )
        if (spec) show(spec)
      } catch (error) {
        deps.onError?.(error)
      }
    },
    stop() {
      loop.stop()
      onScreen.clear()
      byTag.clear()
    },
  }
}
