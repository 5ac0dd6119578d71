/** The heartbeat of a running task: when "still working, 15m" is due, and the note itself. Pure. */
import type { Task } from '../../../shared/schemas/task.ts'
import { freshRun, relay, taskLabel, type Step } from './task-step.ts'

/** A heartbeat is due: the task has worked `everyMs` since its run started or the last heartbeat. */
export function heartbeatDue(task: Task, nowMs: number, everyMs: number): boolean {
  if (task.status !== 'running' && task.status !== 'implementing') return false
  const since = Math.max(
    Date.parse(task.run_started_at ?? task.started_at ?? task.created_at),
    task.heartbeat_at ? Date.parse(task.heartbeat_at) : 0,
  )
  return nowMs - since >= everyMs
}

/** The heartbeat's note ("still working, 15m") and the task with it recorded. */
export function heartbeat(task: Task, nowMs: number): Step {
  const now = new Date(nowMs).toISOString()
  const minutes = Math.round((nowMs - Date.parse(task.started_at ?? task.created_at)) / 60_000)
  const marked = { ...task, heartbeat_at: now }
  return relay(
    { task: marked, run: freshRun(), effects: [] },
    `Still working: ${taskLabel(task)}`,
    `still working, ${String(minutes)}m`,
    now,
  )
}
