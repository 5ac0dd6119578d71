/**
 * Tasks whose Navi stopped without ending them (a crash, a killed terminal): what to record, from whether
 * its host and its agent still live. A restart neither loses them nor runs one twice. Pure.
 */
import { ACTIVE_TASK_STATUSES, type Task } from '../../../shared/schemas/task.ts'

export type Orphan =
  /** Its agent ended unseen: failed, with what is known. */
  | { kind: 'ended'; task: Task }
  /** Its agent still runs, outside any Navi: followed until it ends (and cancellable). */
  | { kind: 'outlived'; task: Task }
  /** Queued by a Navi that is gone: a running Navi takes it over. */
  | { kind: 'queued' }

export function orphanOf(
  task: Task,
  alive: { host: boolean; agent: boolean },
  now: string,
): Orphan | null {
  if (alive.host) return null
  if (task.status === 'queued') return { kind: 'queued' }
  if (!ACTIVE_TASK_STATUSES.has(task.status)) return null
  const session = task.session_id ? `; its session ${task.session_id} has what it did` : ''
  if (alive.agent && task.pid !== null) {
    const reason = `its Navi stopped; the agent (pid ${String(task.pid)}) still runs on its own${session}`
    return task.status_reason === reason
      ? { kind: 'outlived', task }
      : { kind: 'outlived', task: { ...task, status_reason: reason, updated_at: now } }
  }
  return {
    kind: 'ended',
    task: {
      ...task,
      status: 'failed',
      status_reason: `its agent ended while no Navi watched it${session}`,
      ended_at: now,
      updated_at: now,
      pid: null,
    },
  }
}
