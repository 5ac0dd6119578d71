import { z } from 'zod'

/** What a session is doing, as the user cares about it. Decided in `electron/engine/core/session-status.ts`. */
export const sessionStatusSchema = z.enum([
  'working',
  'needs_permission',
  'waiting_input',
  'idle',
  'ended',
])
export type SessionStatus = z.infer<typeof sessionStatusSchema>

/** The word every face (CLI, popover) shows for a status. */
export const SESSION_STATUS_LABEL: Record<SessionStatus, string> = {
  working: 'working',
  needs_permission: 'permission',
  waiting_input: 'waiting',
  idle: 'idle',
  ended: 'ended',
}

export const agentKindSchema = z.enum(['claude', 'codex'])
export type AgentKind = z.infer<typeof agentKindSchema>

export const taskStatusSchema = z.enum(['pending', 'in_progress', 'completed'])
export type TaskStatus = z.infer<typeof taskStatusSchema>

export const taskItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: taskStatusSchema,
})
export type TaskItem = z.infer<typeof taskItemSchema>

/** A list of tasks: a Claude task list, a TodoWrite list or a `##` section of a markdown checklist (a PBI). */
export const taskListSchema = z.object({
  id: z.string(),
  title: z.string(),
  source: z.enum(['claude_tasks', 'todo_write', 'checklist']),
  session_id: z.string().optional(),
  tasks: z.array(taskItemSchema),
  updated_at: z.string().optional(),
})
export type TaskList = z.infer<typeof taskListSchema>

export const taskCountsSchema = z.object({
  done: z.number().int(),
  in_progress: z.number().int(),
  todo: z.number().int(),
  total: z.number().int(),
})
export type TaskCounts = z.infer<typeof taskCountsSchema>

export const tokenUsageSchema = z.object({
  input: z.number(),
  output: z.number(),
  cache_read: z.number(),
  cache_creation: z.number(),
  total: z.number(),
})
export type TokenUsage = z.infer<typeof tokenUsageSchema>

export const sessionSchema = z.object({
  id: z.string(),
  agent: agentKindSchema,
  /** Human name: the session's title, its `-n` name or a short id. */
  name: z.string(),
  cwd: z.string(),
  /** Root of the project the session belongs to; null while unknown. */
  project_dir: z.string().nullable(),
  branch: z.string().nullable(),
  status: sessionStatusSchema,
  /** Why it has that status, e.g. the permission message. */
  status_reason: z.string().nullable(),
  /** When the current status began (ISO). */
  status_since: z.string().nullable(),
  /** Which source decided the status: hooks, live session file, transcript, rollout. */
  status_source: z.enum(['hooks', 'live', 'transcript', 'rollout', 'none']),
  started_at: z.string().nullable(),
  last_activity: z.string().nullable(),
  tokens: tokenUsageSchema,
  last_prompt: z.string().nullable(),
  subagents: z.number().int(),
  turns: z.number().int(),
  pid: z.number().int().nullable(),
  /** tmux pane id (`%3`) and the server socket it lives on, for "go to session". */
  tmux_pane: z.string().nullable(),
  tmux_socket: z.string().nullable(),
  transcript_path: z.string().nullable(),
  task_lists: z.array(taskListSchema),
})
export type Session = z.infer<typeof sessionSchema>
