/** A task record as Navi writes it, for tests: a queued claude task in apollo unless `over` says otherwise. */
import type { Task } from '../../shared/schemas/task.ts'

export const TASK_T0 = '2026-11-26T10:00:00.000Z'

export function taskRecord(over: Partial<Task> = {}): Task {
  return {
    id: 't0000abcd',
    text: 'add a line to the backlog',
    agent: 'claude',
    model: null,
    cwd: '/code/apollo',
    project: 'apollo',
    resolved_by: 'chosen',
    plan: false,
    plan_approved: false,
    permission_mode: null,
    allowed_tools: [],
    skip_permissions: false,
    status: 'queued',
    status_reason: null,
    created_at: TASK_T0,
    updated_at: TASK_T0,
    started_at: null,
    ended_at: null,
    session_id: null,
    pid: null,
    host_pid: 99,
    run_started_at: null,
    runs: 0,
    turns: 0,
    tokens: { input: 0, output: 0, cache_read: 0, cache_creation: 0, total: 0 },
    cost_usd: 0,
    question: null,
    plan_text: null,
    notes: [],
    result: null,
    heartbeat_at: null,
    ...over,
  }
}
