import * as z from 'zod'
import { sessionSchema, sessionStatusSchema, taskCountsSchema, taskListSchema } from './session.ts'
import { lazySchema } from './lazy-schema.ts'

export const commitSchema = lazySchema(() =>
  z.object({
    sha: z.string(),
    subject: z.string(),
    branch: z.string().nullable(),
    author: z.string().optional(),
    timestamp: z.string().optional(),
  }),
)
export type Commit = z.infer<typeof commitSchema>

export const worktreeSchema = lazySchema(() =>
  z.object({
    path: z.string(),
    branch: z.string().nullable(),
    head_sha: z.string().nullable(),
  }),
)
export type Worktree = z.infer<typeof worktreeSchema>

/** Where a project sits in the attention order: needs input first, idle last. */
export const attentionSchema = lazySchema(() =>
  z.enum(['needs_input', 'pbi_complete', 'active', 'stale', 'idle']),
)
export type Attention = z.infer<typeof attentionSchema>

export const pbiSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    title: z.string(),
    tasks: taskCountsSchema,
  }),
)
export type Pbi = z.infer<typeof pbiSchema>

export { pbiLabel } from '../labels.ts'

/** Git facts of a repository at one moment; null fields are unknown (not a repo, or git failed). */
export const gitStateSchema = lazySchema(() =>
  z.object({
    head_sha: z.string().nullable(),
    branch: z.string().nullable(),
    detached: z.boolean(),
    commits_ahead: z.number().int().nullable(),
    commits_behind: z.number().int().nullable(),
    upstream: z.string().nullable(),
    dirty: z.boolean().nullable(),
    /** Tip of every local branch, so a later diff can tell new branches and new commits. */
    branch_heads: z.record(z.string(), z.string()),
    worktrees: z.array(worktreeSchema),
    recent_commits: z.array(commitSchema),
    pr: z.object({
      state: z.enum(['none', 'open', 'merged', 'closed', 'unknown']),
      number: z.number().int().optional(),
      url: z.string().optional(),
    }),
    error: z.string().nullable(),
  }),
)
export type GitState = z.infer<typeof gitStateSchema>

/**
 * Progress when no task list says it: turns the project's agents finished (current models keep no task
 * list unless the user turns the task tools on).
 */
export const turnActivitySchema = lazySchema(() =>
  z.object({
    turns_last_hour: z.number().int(),
    last_turn: z
      .object({
        session: z.string(),
        session_name: z.string(),
        prompt: z.string().nullable(),
        reply: z.string().nullable(),
        ended_at: z.string(),
      })
      .nullable(),
  }),
)
export type TurnActivity = z.infer<typeof turnActivitySchema>

/** One project's state, the seed's fields plus sessions, worktrees and task lists. */
export const projectSnapshotSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    project_dir: z.string(),
    is_git: z.boolean(),
    registered: z.boolean(),
    session_names: z.array(z.string()),
    head_sha: z.string().nullable(),
    branch: z.string().nullable(),
    commits_ahead: z.number().int().nullable(),
    dirty: z.boolean().nullable(),
    /** null when PR state is unknown (no `gh`, not authenticated, no remote). */
    has_pr: z.boolean().nullable(),
    current_pbi: pbiSchema.nullable(),
    activity: turnActivitySchema.default({ turns_last_hour: 0, last_turn: null }),
    session_status: sessionStatusSchema.nullable(),
    session_status_reason: z.string().nullable(),
    last_activity: z.string().nullable(),
    captured_at: z.string(),
    attention: attentionSchema,
    git: gitStateSchema.nullable(),
    sessions: z.array(sessionSchema),
    task_lists: z.array(taskListSchema),
    errors: z.array(z.string()),
  }),
)
export type ProjectSnapshot = z.infer<typeof projectSnapshotSchema>
