/**
 * A new task from what a face sent: where it runs (core/resolve-directory.ts), whether it plans first,
 * with which model and permissions (the settings, unless the user chose for this task), as a queued
 * record; or why it cannot start ("which project?"). And the same resolution as the New task box's
 * preview. Pure: the id, the session id and the time are given.
 */
import type { TaskSettings } from '../../../shared/schemas/config.ts'
import type { Task, TaskPreview } from '../../../shared/schemas/task.ts'
import type { taskStartInputSchema } from '../../../shared/schemas/task.ts'
import type { z } from 'zod'
import { DEFAULT_PLAN_KEYWORDS, planKeywordIn } from './relay.ts'
import { resolveTaskDirectory, type Candidate, type KnownProject } from './resolve-directory.ts'

type StartInput = z.infer<typeof taskStartInputSchema>

export type NewTask =
  { ok: true; task: Task } | { ok: false; error: string; candidates?: Candidate[] }

export function newTask(opts: {
  input: StartInput
  settings: TaskSettings
  projects: readonly KnownProject[]
  id: string
  /** Claude Code's session, chosen now (`--session-id`); null for Codex (it names its thread). */
  sessionId: string | null
  hostPid: number | null
  now: string
}): NewTask {
  const { input, settings, now } = opts
  if (input.cwd !== undefined && !input.cwd.startsWith('/')) {
    return { ok: false, error: `--cwd ${input.cwd}: give an absolute directory` }
  }
  const resolution = resolveTaskDirectory({
    text: input.text,
    project: input.project,
    cwd: input.cwd,
    projects: opts.projects,
    rules: settings.rules,
    fallback: settings.defaultDir,
  })
  if (resolution.kind === 'none') return { ok: false, error: `which project? ${resolution.reason}` }
  if (resolution.kind === 'ambiguous') {
    const names = resolution.candidates.map((c) => c.project ?? c.dir).join(', ')
    return {
      ok: false,
      error: `which project? the task could run in ${names}`,
      candidates: resolution.candidates,
    }
  }
  const keywords = settings.planKeywords ?? DEFAULT_PLAN_KEYWORDS
  // The project's own permissions (tasks.projects) over the general ones; the user's choice over both.
  const own = resolution.project === null ? undefined : settings.perProject[resolution.project]
  return {
    ok: true,
    task: {
      id: opts.id,
      text: input.text,
      agent: input.agent,
      model: input.model ?? settings.model,
      cwd: resolution.dir,
      project: resolution.project,
      resolved_by: resolution.why,
      plan: input.plan ?? planKeywordIn(input.text, keywords) !== null,
      plan_approved: false,
      permission_mode: input.permission_mode ?? own?.permissionMode ?? settings.permissionMode,
      allowed_tools: own?.allowedTools ?? settings.allowedTools,
      skip_permissions: input.skip_permissions,
      status: 'queued',
      status_reason: null,
      created_at: now,
      updated_at: now,
      started_at: null,
      ended_at: null,
      session_id: opts.sessionId,
      pid: null,
      host_pid: opts.hostPid,
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
    },
  }
}

export function previewTask(
  text: string,
  settings: TaskSettings,
  projects: readonly KnownProject[],
): TaskPreview {
  const resolution = resolveTaskDirectory({
    text,
    projects,
    rules: settings.rules,
    fallback: settings.defaultDir,
  })
  return {
    dir: resolution.kind === 'resolved' ? resolution.dir : null,
    project: resolution.kind === 'resolved' ? resolution.project : null,
    why: resolution.kind === 'resolved' ? resolution.why : null,
    candidates: resolution.kind === 'ambiguous' ? resolution.candidates : [],
    plan_keyword: planKeywordIn(text, settings.planKeywords ?? DEFAULT_PLAN_KEYWORDS),
  }
}
