/**
 * Quitting the tray cancels the delegated tasks it runs (their agents are its children): it asks first
 * when some are at work, naming them. Pure; the dialog is app.ts's.
 */
import { clipText } from '../../shared/text.ts'
import { ACTIVE_TASK_STATUSES, type Task } from '../../shared/schemas/task.ts'

export interface QuitQuestion {
  message: string
  detail: string
  buttons: [quit: string, stay: string]
}

/** Null when nothing runs (quit at once); else what to ask. `hostPid`: this Navi's process. */
export function quitQuestion(tasks: readonly Task[], hostPid: number): QuitQuestion | null {
  const running = tasks.filter((t) => ACTIVE_TASK_STATUSES.has(t.status) && t.host_pid === hostPid)
  if (running.length === 0) return null
  const names = running.slice(0, 5).map((t) => `• ${clipText(t.text, 70)}`)
  if (running.length > 5) names.push(`• and ${String(running.length - 5)} more`)
  return {
    message:
      running.length === 1
        ? 'A delegated task is still running. Quitting Navi cancels it.'
        : `${String(running.length)} delegated tasks are still running. Quitting Navi cancels them.`,
    detail: names.join('\n'),
    buttons: ['Quit and cancel', 'Keep Navi running'],
  }
}
