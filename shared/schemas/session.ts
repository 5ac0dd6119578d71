import * as z from 'zod'
import { lazySchema } from './lazy-schema.ts'

/** What a session is doing, as the user cares about it. Decided in `electron/engine/core/session-status.ts`. */
export const sessionStatusSchema = lazySchema(() =>
  z.enum(['working', 'needs_permission', 'waiting_input', 'idle', 'ended']),
)
export type SessionStatus = z.infer<typeof sessionStatusSchema>

export { SESSION_STATUS_LABEL } from '../labels.ts'

export const agentKindSchema = lazySchema(() => z.enum(['claude', 'codex']))
export type AgentKind = z.infer<typeof agentKindSchema>

export const taskStatusSchema = lazySchema(() => z.enum(['pending', 'in_progress', 'completed']))
export type TaskStatus = z.infer<typeof taskStatusSchema>

export const taskItemSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    title: z.string(),
    status: taskStatusSchema,
  }),
)
export type TaskItem = z.infer<typeof taskItemSchema>

export { MAX_TASK_MOVES } from '../task-limits.ts'

/**
 * One move of a task as the agent made it: a TaskUpdate / TodoWrite call in the transcript or a
 * TaskCompleted hook, with the time it happened. Task events are read from these in order, so a task
 * started and finished (or finished and reopened) between two of Navi's looks is still reported, at the
 * time it happened.
 */
export const taskMoveSchema = lazySchema(() =>
  z.object({
    task_id: z.string(),
    title: z.string(),
    status: z.enum(['in_progress', 'completed']),
    at: z.string(),
  }),
)
export type TaskMove = z.infer<typeof taskMoveSchema>

/** A list of tasks: a Claude task list, a TodoWrite list or a `##` section of a markdown checklist (a PBI). */
export const taskListSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    title: z.string(),
    source: z.enum(['claude_tasks', 'todo_write', 'checklist']),
    session_id: z.string().optional(),
    tasks: z.array(taskItemSchema),
    updated_at: z.string().optional(),
    /**
     * The list's latest moves, oldest first (at most {@link MAX_TASK_MOVES}); absent for a checklist and in
     * snapshots written before moves were kept.
     */
    moves: z.array(taskMoveSchema).optional(),
  }),
)
export type TaskList = z.infer<typeof taskListSchema>

export const taskCountsSchema = lazySchema(() =>
  z.object({
    done: z.number().int(),
    in_progress: z.number().int(),
    todo: z.number().int(),
    total: z.number().int(),
  }),
)
export type TaskCounts = z.infer<typeof taskCountsSchema>

export const tokenUsageSchema = lazySchema(() =>
  z.object({
    input: z.number(),
    output: z.number(),
    cache_read: z.number(),
    cache_creation: z.number(),
    total: z.number(),
  }),
)
export type TokenUsage = z.infer<typeof tokenUsageSchema>

/** A finished turn: the prompt it answered and an excerpt of the agent's final reply (untrusted text). */
export const turnSummarySchema = lazySchema(() =>
  z.object({
    /** Null when a background task's notification started the turn, not the user. */
    prompt: z.string().nullable(),
    started_at: z.string(),
    ended_at: z.string(),
    duration_ms: z.number().nullable(),
    reply: z.string().nullable(),
  }),
)
export type TurnSummary = z.infer<typeof turnSummarySchema>

/** A tool call refused without asking the user (auto mode's classifier, dontAsk), from the hooks. */
export const permissionDenialSchema = lazySchema(() =>
  z.object({
    tool: z.string().nullable(),
    detail: z.string().nullable(),
    reason: z.string().nullable(),
    at: z.string(),
  }),
)
export type PermissionDenialInfo = z.infer<typeof permissionDenialSchema>

/**
 * The agent's last request failed at the API, from the transcript: `retrying` while the CLI still retries
 * (`system/api_error`), else its final synthetic error reply. `kind` is the CLI's own class of the error.
 */
export const apiFailureSchema = lazySchema(() =>
  z.object({
    kind: z.enum(['rate_limit', 'overloaded', 'server_error', 'authentication', 'quota', 'other']),
    message: z.string(),
    status: z.number().int().nullable(),
    retrying: z.boolean(),
    attempt: z.number().int().nullable(),
    /** When the request first failed (its retries and its final error are one failure). */
    at: z.string(),
  }),
)
export type ApiFailure = z.infer<typeof apiFailureSchema>

/** A tool call waiting for the user's permission, as exactly as Navi knows it (hooks, else transcript). */
export const pendingRequestSchema = lazySchema(() =>
  z.object({
    tool: z.string(),
    /** Its command, file or URL in a few words. */
    detail: z.string().nullable(),
    /** The agent's own words about it (Bash's `description`). */
    description: z.string().nullable(),
    /** Since when it waits. */
    since: z.string().nullable(),
    /**
     * The PermissionRequest the hooks told of (its handler's id), which an answer from Navi names; null
     * when only the transcript shows the call (no hooks, or an older Navi's snapshot).
     */
    request_id: z.string().nullable().default(null),
    /** A digest of the call's input (core/answer-rules.ts `inputDigest`); null when it was too large to keep. */
    input_digest: z.string().nullable().default(null),
    /** Until when Navi's hook waits for an answer from Navi; null when it does not wait. */
    answer_until: z.string().nullable().default(null),
  }),
)
export type PendingRequest = z.infer<typeof pendingRequestSchema>

/** The same shell command run again and again with nothing in between, and how many of the runs failed. */
export const commandStreakSchema = lazySchema(() =>
  z.object({
    command: z.string(),
    /** Runs of it in a row. */
    runs: z.number().int(),
    /** Of the latest runs, how many failed in a row (a success ends the count). */
    failures: z.number().int(),
    /** When the first run of the streak started. */
    since: z.string(),
  }),
)
export type CommandStreak = z.infer<typeof commandStreakSchema>

export const troubleKindSchema = lazySchema(() =>
  z.enum(['api_error', 'failing_command', 'repeated_command', 'stalled', 'waiting_long']),
)
export type TroubleKind = z.infer<typeof troubleKindSchema>

/** Why a session needs a look, decided by fixed rules (engine/core/trouble.ts), with the evidence. */
export const sessionTroubleSchema = lazySchema(() =>
  z.object({
    kind: troubleKindSchema,
    reason: z.string(),
    /** When the condition began (its events are named by it). */
    since: z.string().nullable(),
  }),
)
export type SessionTrouble = z.infer<typeof sessionTroubleSchema>

export const sessionSchema = lazySchema(() =>
  z.object({
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
    /** Everything the session spent: its main thread and its sub-agents. */
    tokens: tokenUsageSchema,
    /** The part of `tokens` its sub-agents spent (their own transcript files). */
    subagent_tokens: tokenUsageSchema.default({
      input: 0,
      output: 0,
      cache_read: 0,
      cache_creation: 0,
      total: 0,
    }),
    last_prompt: z.string().nullable(),
    subagents: z.number().int(),
    /** Prompts the user sent. */
    turns: z.number().int(),
    /**
     * Turns that finished, and the last of them. Defaults are for snapshots saved by a Navi that did not
     * record turns: -1 says "unknown", so the first diff against such a snapshot reports no old turn as new.
     */
    turns_completed: z.number().int().default(-1),
    last_turn: turnSummarySchema.nullable().default(null),
    /** When the most recent finished turns ended (up to 20), oldest first. */
    recent_turn_ends: z.array(z.string()).default([]),
    last_denial: permissionDenialSchema.nullable().default(null),
    pid: z.number().int().nullable(),
    /** tmux pane id (`%3`) and the server socket it lives on, for "go to session". */
    tmux_pane: z.string().nullable(),
    tmux_socket: z.string().nullable(),
    transcript_path: z.string().nullable(),
    task_lists: z.array(taskListSchema),
    /** Evidence for the trouble rules; null when there is none (and in snapshots of an older Navi). */
    pending_request: pendingRequestSchema.nullable().default(null),
    api_failure: apiFailureSchema.nullable().default(null),
    command_streak: commandStreakSchema.nullable().default(null),
    trouble: sessionTroubleSchema.nullable().default(null),
  }),
)
export type Session = z.infer<typeof sessionSchema>
