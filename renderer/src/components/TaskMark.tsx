import type { TaskStatus } from '../../../shared/schemas/session.ts'

const MARK: Record<TaskStatus, string> = { completed: '✓', in_progress: '◐', pending: '○' }

/** A task's state as a small colored glyph. */
export function TaskMark({ status }: { status: TaskStatus }) {
  return (
    <span className={`task-mark task-mark--${status}`} title={status.replace('_', ' ')}>
      {MARK[status]}
    </span>
  )
}
