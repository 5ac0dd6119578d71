/** The TodoWrite list of a Claude transcript (tool_use input and the tool result's `newTodos`). Pure. */
import type { TaskItem, TaskStatus } from '../../../shared/schemas/session.ts'
import type { TranscriptSummary } from './source-records.ts'
import { asCappedString, isObject } from './json-narrow.ts'
import { appendMoves, movesBetween } from './task-moves.ts'

const TITLE_MAX = 200

const isTaskStatus = (value: unknown): value is TaskStatus =>
  value === 'pending' || value === 'in_progress' || value === 'completed'

/** More to-dos than any agent keeps: the rest of a list this long is not read. */
const MAX_TODOS = 1000

/**
 * TodoWrite items `{content, status, activeForm}` → TaskItem with ids `1..n`, and the moves since the
 * list before (`at`: the line's time). The call's input and its result's `newTodos` are the same list:
 * the second adds no move.
 */
export function foldTodos(summary: TranscriptSummary, todos: unknown, at: string): void {
  if (!Array.isArray(todos)) return
  const items: TaskItem[] = []
  for (const todo of todos.slice(0, MAX_TODOS)) {
    if (!isObject(todo)) continue
    const title = asCappedString(todo.content, TITLE_MAX)
    const status = todo.status
    if (title === null || !isTaskStatus(status)) continue
    items.push({ id: String(items.length + 1), title, status })
  }
  summary.todoMoves = appendMoves(summary.todoMoves, movesBetween(summary.todos ?? [], items, at))
  summary.todos = items
}

/**
 * A TaskCreate or TaskUpdate call waiting for its result. The task list is rebuilt from these when the
 * CLI's `tasks/` folder is not there (another machine's config dir, a cleaned-up session): TaskCreate's
 * result names the new task's id (`toolUseResult.task.id`), and TaskUpdate applies once it succeeded.
 */
export type TaskToolCall =
  | { kind: 'create'; subject: string }
  | {
      kind: 'update'
      taskId: string
      status: TaskStatus | 'deleted' | null
      subject: string | null
    }

/** The call worth remembering for the task list, or null for any other tool. */
export function taskToolCall(name: string, input: unknown): TaskToolCall | null {
  if (!isObject(input)) return null
  if (name === 'TaskCreate') {
    const subject = asCappedString(input.subject, TITLE_MAX)
    return subject === null ? null : { kind: 'create', subject }
  }
  if (name === 'TaskUpdate') {
    const taskId = asCappedString(input.taskId, TITLE_MAX)
    if (taskId === null) return null
    const status = isTaskStatus(input.status) || input.status === 'deleted' ? input.status : null
    return { kind: 'update', taskId, status, subject: asCappedString(input.subject, TITLE_MAX) }
  }
  return null
}

/**
 * Applies a task call whose result came back (`result`: the line's `toolUseResult`, `at`: its time); a
 * status it changed to in_progress or completed is a move.
 */
export function applyTaskToolResult(
  summary: TranscriptSummary,
  call: TaskToolCall,
  result: unknown,
  isError: boolean,
  at: string,
): void {
  if (isError || !isObject(result)) return
  const tasks = summary.transcriptTasks ?? []
  if (call.kind === 'create') {
    const id = isObject(result.task) ? asCappedString(result.task.id, TITLE_MAX) : null
    if (id === null || tasks.length >= MAX_TODOS || tasks.some((t) => t.id === id)) return
    summary.transcriptTasks = [...tasks, { id, title: call.subject, status: 'pending' }]
    return
  }
  if (result.success === false) return
  const { status, taskId, subject } = call
  if (status === 'deleted') {
    summary.transcriptTasks = tasks.filter((t) => t.id !== taskId)
    return
  }
  const before = tasks.find((t) => t.id === taskId)
  if (before) {
    const after = { ...before, status: status ?? before.status, title: subject ?? before.title }
    summary.transcriptTasks = tasks.map((t) => (t.id === taskId ? after : t))
  }
  // A task this transcript did not create (a shared team list, a resumed session's earlier file) still
  // moved; the task list names it when the diff reports the move.
  if (status === null || status === 'pending' || status === before?.status) return
  const title = subject ?? before?.title ?? taskId
  summary.taskMoves = appendMoves(summary.taskMoves, [{ task_id: taskId, title, status, at }])
}
