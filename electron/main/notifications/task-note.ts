/**
 * A note a delegated task relays (`[NOTIFY]`, its question, its plan, done, failed, "still working") as a
 * desktop notification. One per task on screen (tag `task:<id>`): the next note replaces it. Shown even
 * while the popover is open (the user asked for this task's news), not while notifications are paused or
 * their `delegated_tasks` toggle is off. A task that waits (its question, its plan) gets a reply field where
 * the OS has one (macOS): "approve", "reject", an answer or a question. Pure.
 */
import type { Settings } from '../../../shared/schemas/settings.ts'
import type { Task } from '../../../shared/schemas/task.ts'
import { isPaused, type NotificationSpec } from './decide.ts'
import { BODY_MAX, TITLE_MAX } from './event-notification.ts'
import { plainText } from './plain-text.ts'

export function taskNoteNotification(
  task: Task,
  note: { title: string; body: string },
  settings: Settings,
  now: number,
): NotificationSpec | null {
  if (!settings.notifications.delegated_tasks || isPaused(settings, now)) return null
  const project = task.project ?? task.cwd.split('/').filter(Boolean).pop() ?? task.cwd
  return {
    kind: 'task_note',
    project,
    title: plainText(note.title, TITLE_MAX),
    body: plainText(note.body, BODY_MAX),
    key: `task:${task.id}:${String(task.notes.length)}:${task.status}`,
    tag: `task:${task.id}`,
    // Its question or its plan can be answered right there, where the OS has a reply field.
    ...(task.status === 'awaiting_clarification' || task.status === 'awaiting_approval'
      ? { taskReply: { task_id: task.id } }
      : {}),
  }
}
