/** The TodoWrite list of a Claude transcript (tool_use input and the tool result's `newTodos`). Pure. */
import type { TaskItem, TaskStatus } from '../../../shared/schemas/session.ts'
import type { TranscriptSummary } from './records.ts'
import { asCappedString, isObject } from './json-narrow.ts'

const TITLE_MAX = 200

const isTaskStatus = (value: unknown): value is TaskStatus =>
  value === 'pending' || value === 'in_progress' || value === 'completed'

/** More to-dos than any agent keeps: the rest of a list this long is not read. */
const MAX_TODOS = 1000

/** TodoWrite items `{content, status, activeForm}` → TaskItem with ids `1..n`. */
export function foldTodos(summary: TranscriptSummary, todos: unknown): void {
  if (!Array.isArray(todos)) return
  const items: TaskItem[] = []
  for (const todo of todos.slice(0, MAX_TODOS)) {
    if (!isObject(todo)) continue
    const title = asCappedString(todo.content, TITLE_MAX)
    const status = todo.status
    if (title === null || !isTaskStatus(status)) continue
    items.push({ id: String(items.length + 1), title, status })
  }
  summary.todos = items
}
