/**
 * Task events of one project: `task_started`, `task_completed` and `pbi_completed`. Pure.
 *
 * Where a list carries moves (core/task-moves.ts), the moves it did not have in the previous snapshot are
 * reported in the order the agent made them, each at the time it happened; a task finished without a
 * recorded start (TaskUpdate straight to completed, or a start older than the moves kept) is reported
 * started at the same moment. The difference between the two snapshots' statuses then fills in what no
 * move told (lists from older snapshots, checklists, a move not yet read). Ids are content-derived, so a
 * step both sources tell is one event.
 */
import type { EngineEvent, EventDetails } from '../../../shared/schemas/event.ts'
import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'
import type { TaskList, TaskMove, TaskStatus } from '../../../shared/schemas/session.ts'
import type { DiffContext, MakeEvent } from './diff.ts'
import { moveKey } from './task-moves.ts'

export function diffTasks(
  prev: ProjectSnapshot | null,
  next: ProjectSnapshot,
  ctx: DiffContext,
  make: MakeEvent,
): EngineEvent[] {
  const events: EngineEvent[] = []
  const seen = new Set<string>()
  const push = (event: EngineEvent) => {
    if (seen.has(event.id)) return
    seen.add(event.id)
    events.push(event)
  }
  const before = new Map((prev?.task_lists ?? []).map((l) => [l.id, l]))
  for (const list of next.task_lists) {
    const old = before.get(list.id)
    if (!old && !isNews(list, ctx)) continue
    for (const event of eventsFromMoves(old, list, ctx, make)) push(event)
    for (const event of eventsFromStatuses(old, list, make)) push(event)
    if (allDone(list) && !(old && allDone(old))) {
      const lastMove = list.moves?.at(-1)
      push(
        make(
          'pbi_completed',
          [list.id, String(list.tasks.length)],
          { pbi: list.id, title: list.title, source: list.source, tasks: list.tasks.length },
          list.session_id,
          lastMove?.status === 'completed' ? lastMove.at : undefined,
        ),
      )
    }
  }
  return events
}

/** The moves `list` has that `old` had not: all of them newer than `since` when `old` kept none. */
export function newMoves(old: TaskList | undefined, list: TaskList, ctx: DiffContext): TaskMove[] {
  const moves = list.moves ?? []
  if (old?.moves) {
    const known = new Set(old.moves.map(moveKey))
    return moves.filter((move) => !known.has(moveKey(move)))
  }
  return moves.filter((move) => Date.parse(move.at) > ctx.since)
}

function eventsFromMoves(
  old: TaskList | undefined,
  list: TaskList,
  ctx: DiffContext,
  make: MakeEvent,
): EngineEvent[] {
  const fresh = newMoves(old, list, ctx)
  if (fresh.length === 0) return []
  const titles = new Map(list.tasks.map((t) => [t.id, t.title]))
  const oldStatus = new Map((old?.tasks ?? []).map((t) => [t.id, t.status]))
  // Tasks whose start is already told: by the previous snapshot's statuses or moves.
  const started = new Set(
    [...oldStatus].filter(([, status]) => status !== 'pending').map(([id]) => id),
  )
  if (old?.moves) for (const move of old.moves) started.add(move.task_id)
  const events: EngineEvent[] = []
  for (const move of fresh) {
    // A move names its task as it was then; one for a task the transcript never created names only its id.
    const title =
      move.title === move.task_id ? (titles.get(move.task_id) ?? move.title) : move.title
    const details = taskDetails(list, move.task_id, title)
    const key = [list.id, move.task_id]
    if (!started.has(move.task_id)) {
      started.add(move.task_id)
      events.push(make('task_started', key, details, list.session_id, move.at))
    }
    if (move.status === 'completed') {
      events.push(make('task_completed', key, details, list.session_id, move.at))
    }
  }
  return events
}

function eventsFromStatuses(old: TaskList | undefined, list: TaskList, make: MakeEvent) {
  const events: EngineEvent[] = []
  const oldStatus = new Map<string, TaskStatus>((old?.tasks ?? []).map((t) => [t.id, t.status]))
  for (const task of list.tasks) {
    const was = oldStatus.get(task.id)
    const details = taskDetails(list, task.id, task.title)
    // A task started and finished between two snapshots still started: its start is reported with
    // the same content-derived id it would have had, just before its completion.
    const started = task.status === 'in_progress' || task.status === 'completed'
    if (started && was !== 'in_progress' && was !== 'completed') {
      events.push(make('task_started', [list.id, task.id], details, list.session_id))
    }
    if (task.status === 'completed' && was !== 'completed') {
      events.push(make('task_completed', [list.id, task.id], details, list.session_id))
    }
  }
  return events
}

/** A task list the previous snapshot did not have is news only if it changed after `since`. */
function isNews(list: TaskList, ctx: DiffContext): boolean {
  const updated = list.updated_at ? Date.parse(list.updated_at) : Number.NaN
  return updated > ctx.since
}

const allDone = (list: TaskList): boolean =>
  list.tasks.length > 0 && list.tasks.every((t) => t.status === 'completed')

function taskDetails(list: TaskList, taskId: string, title: string): EventDetails<'task_started'> {
  return {
    pbi: list.id,
    pbi_title: list.title,
    task_id: taskId,
    task_title: title,
    source: list.source,
  }
}
