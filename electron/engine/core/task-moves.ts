/**
 * Task moves: each time an agent starts or finishes a task, in the order it did so. Pure.
 *
 * Task files and lists are snapshots; two snapshots cannot tell a task that was started, finished and
 * reopened between them, nor when each step happened. The transcript can: every TaskUpdate and TodoWrite
 * call is a line with a time, and the TaskCompleted hook fires as the task closes. The moves read from
 * them drive the task events (core/diff-tasks.ts); snapshot differences only fill in where no move is
 * known (a list from before moves were kept, a checklist).
 */
import type { TaskItem, TaskMove } from '../../../shared/schemas/session.ts'
import { MAX_TASK_MOVES } from '../../../shared/task-limits.ts'

/** `moves` followed by `added`, keeping only the newest {@link MAX_TASK_MOVES}. */
export function appendMoves(moves: readonly TaskMove[], added: readonly TaskMove[]): TaskMove[] {
  if (added.length === 0) return moves as TaskMove[]
  const all = [...moves, ...added]
  return all.length > MAX_TASK_MOVES ? all.slice(all.length - MAX_TASK_MOVES) : all
}

/**
 * The moves from one version of a to-do list to the next (TodoWrite rewrites the whole list each time).
 * An item is the same to-do as an earlier one with the same title: TodoWrite has no ids, and positions
 * shift when the agent inserts a step.
 */
export function movesBetween(
  before: readonly TaskItem[],
  after: readonly TaskItem[],
  at: string,
): TaskMove[] {
  const previous = new Map<string, TaskItem['status']>()
  for (const item of before) if (!previous.has(item.title)) previous.set(item.title, item.status)
  const moves: TaskMove[] = []
  for (const item of after) {
    if (item.status === 'pending' || previous.get(item.title) === item.status) continue
    moves.push({ task_id: item.id, title: item.title, status: item.status, at })
  }
  return moves
}

/**
 * The moves of one list told by two sources (the transcript and the hooks), oldest first. A move that
 * repeats the task's previous status is the same move seen twice (the TaskUpdate line and the
 * TaskCompleted hook of one completion) and is dropped.
 */
export function mergeMoves(a: readonly TaskMove[], b: readonly TaskMove[]): TaskMove[] {
  if (b.length === 0) return a as TaskMove[]
  if (a.length === 0) return b as TaskMove[]
  const sorted = [...a, ...b].sort((x, y) => Date.parse(x.at) - Date.parse(y.at))
  const last = new Map<string, TaskMove['status']>()
  const merged: TaskMove[] = []
  for (const move of sorted) {
    if (last.get(move.task_id) === move.status) continue
    last.set(move.task_id, move.status)
    merged.push(move)
  }
  return appendMoves([], merged)
}

/** A move's identity across snapshots. */
export const moveKey = (move: TaskMove): string =>
  `${move.at}\u0000${move.task_id}\u0000${move.status}`
