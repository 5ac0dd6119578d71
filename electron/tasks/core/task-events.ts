/**
 * A task's changes as events of Navi's log (so the popover's events, `navi events` and the PM's inbox know
 * them): started, each relayed note, finished. Pure; ids are derived from the task and what happened, so a
 * repeated call never writes one twice.
 */
import { clipText } from '../../../shared/text.ts'
import type { EngineEvent } from '../../../shared/schemas/event.ts'
import type { Task } from '../../../shared/schemas/task.ts'
import { eventId } from '../../engine/core/event-line.ts'

const TEXT_MAX = 200

export function taskEvents(
  before: Task,
  after: Task,
  notes: readonly string[],
  now: string,
): EngineEvent[] {
  const base = {
    timestamp: now,
    project: after.project ?? after.cwd,
    ...(after.session_id ? { session: after.session_id } : {}),
  }
  const text = clipText(after.text, TEXT_MAX)
  const events: EngineEvent[] = []
  if (before.started_at === null && after.started_at !== null) {
    events.push({
      ...base,
      id: eventId(['task', after.id, 'started']),
      type: 'task_started_by_navi',
      details: { task_id: after.id, text, agent: after.agent, plan: after.plan },
    })
  }
  notes.forEach((note, i) => {
    events.push({
      ...base,
      id: eventId(['task', after.id, 'note', String(after.notes.length - notes.length + i), note]),
      type: 'task_notify',
      details: {
        task_id: after.id,
        text: clipText(after.text, 60),
        note: clipText(note, TEXT_MAX),
      },
    })
  })
  const status = after.status
  const finished = status === 'completed' || status === 'failed' || status === 'cancelled'
  if (finished && before.status !== status) {
    events.push({
      ...base,
      id: eventId(['task', after.id, 'finished']),
      type: 'task_finished',
      details: {
        task_id: after.id,
        text,
        status,
        reason: after.status_reason,
        cost_usd: after.cost_usd,
      },
    })
  }
  return events
}
