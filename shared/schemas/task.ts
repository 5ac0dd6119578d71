/**
 * Delegated tasks (`navi run`, the popover's "New task"): a headless agent run in a project directory,
 * followed to done. One record per task in `$NAVI_HOME/tasks/<id>.json`; its log beside it.
 * Lifecycle (seed 004, plus `queued`): queued → running → (awaiting_clarification → running)* →
 * completed | failed | cancelled; with a plan: running → awaiting_approval → implementing → completed.
 */
import * as z from 'zod'
import { tokenUsageSchema } from './session.ts'
import { lazySchema } from './lazy-schema.ts'

export const taskStatusSchema = lazySchema(() =>
  z.enum([
    /** Waiting for its project's directory (one task at a time there) or a free slot. */
    'queued',
    /** The agent works (with a plan: it plans, and changes nothing). */
    'running',
    /** The agent asked a question (`[CLARIFY]`); a reply resumes the same session. */
    'awaiting_clarification',
    /** The agent presented its plan; approve resumes it to implement, reject ends the task. */
    'awaiting_approval',
    /** The approved plan is being implemented. */
    'implementing',
    'completed',
    'failed',
    'cancelled',
  ]),
)
export type TaskStatus = z.infer<typeof taskStatusSchema>

/** Statuses a task never leaves. */
export const FINISHED_TASK_STATUSES: ReadonlySet<TaskStatus> = new Set([
  'completed',
  'failed',
  'cancelled',
])

/** Statuses with an agent process at work. */
export const ACTIVE_TASK_STATUSES: ReadonlySet<TaskStatus> = new Set(['running', 'implementing'])

export const taskAgentSchema = lazySchema(() => z.enum(['claude', 'codex']))
export type TaskAgent = z.infer<typeof taskAgentSchema>

/** One `[NOTIFY]` line the agent wrote (or a summary Navi relayed for it). */
export const taskNoteSchema = lazySchema(() => z.object({ at: z.string(), text: z.string() }))
export type TaskNote = z.infer<typeof taskNoteSchema>

export const taskSchema = lazySchema(() =>
  z.object({
    /** `t` and 8 characters of [0-9a-z]; the CLI and the popover accept a unique prefix. */
    id: z.string().regex(/^t[0-9a-z]{8}$/),
    /** The task as the user wrote it: untrusted text, only ever passed to the agent as its prompt. */
    text: z.string().min(1).max(20_000),
    agent: taskAgentSchema,
    /** `--model`; null: the agent's own default. */
    model: z.string().nullable(),
    /** Where the agent runs (absolute). */
    cwd: z.string().min(1),
    /** The project's name when the directory is one of Navi's projects. */
    project: z.string().nullable(),
    /** How the directory was chosen, in words (`--project apollo`, `"apollo" in the task`, …). */
    resolved_by: z.string(),
    /** Plan first (the toggle, `--plan`, or a plan keyword in the task). */
    plan: z.boolean(),
    /** The plan was approved: later runs implement (no longer plan). */
    plan_approved: z.boolean(),
    /** `--permission-mode` for the agent; null: the user's own default for that agent. */
    permission_mode: z.string().nullable(),
    /** Tools allowed without asking (`--allowedTools`), from the settings. */
    allowed_tools: z.array(z.string()),
    /** The user chose to skip every permission check for this task (`--dangerously-skip-permissions`). */
    skip_permissions: z.boolean(),
    status: taskStatusSchema,
    /** Why it is in this status, in words (the failure, the queue it waits in, …). */
    status_reason: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    started_at: z.string().nullable(),
    ended_at: z.string().nullable(),
    /** The agent's session (Claude Code's session id, Codex's thread id), chosen or learnt at the first run. */
    session_id: z.string().nullable(),
    /** The running agent process (it leads its own process group), while one runs. */
    pid: z.number().int().positive().nullable(),
    /** The Navi process (CLI, tray, `navi serve`) that runs the task, while one does. */
    host_pid: z.number().int().positive().nullable(),
    /** When the current (or last) agent run started. */
    run_started_at: z.string().nullable(),
    /** Agent runs so far (the first, then one per reply or approval). */
    runs: z.number().int().nonnegative(),
    turns: z.number().int().nonnegative(),
    tokens: tokenUsageSchema,
    cost_usd: z.number().nonnegative(),
    /** The open `[CLARIFY]` question, while awaiting clarification. */
    question: z.string().nullable(),
    /** The plan presented, while (and after) awaiting approval. */
    plan_text: z.string().nullable(),
    /** What was relayed to the user, oldest first (the last 50). */
    notes: z.array(taskNoteSchema),
    /** The agent's final words (its result), once finished. */
    result: z.string().nullable(),
    /** When the last heartbeat was relayed ("still working, 15m"). */
    heartbeat_at: z.string().nullable(),
  }),
)
export type Task = z.infer<typeof taskSchema>

/** What a face sends to start a task. */
export const taskStartInputSchema = lazySchema(() =>
  z.object({
    text: z.string().trim().min(1).max(20_000),
    /** A project's name or alias, or… */
    project: z.string().min(1).max(500).optional(),
    /** …an absolute directory; with neither, the resolver reads the task text. */
    cwd: z.string().min(1).max(4096).optional(),
    /** true / false: the user's choice; absent: the plan keywords decide. */
    plan: z.boolean().optional(),
    agent: taskAgentSchema.default('claude'),
    /** A model alias or id: letters, digits and `.:_/@[]-`, never a leading `-` (it is an argument's value). */
    model: z
      .string()
      .max(200)
      .regex(/^[A-Za-z0-9._:/@[\]][A-Za-z0-9._:/@[\]-]*$/, 'a model alias or id')
      .optional(),
    /** A more permissive (or stricter) mode for this task only; the faces say plainly what it allows. */
    permission_mode: z
      .enum(['default', 'acceptEdits', 'plan', 'dontAsk', 'auto', 'bypassPermissions'])
      .optional(),
    skip_permissions: z.boolean().default(false),
  }),
)
export type TaskStartInput = z.input<typeof taskStartInputSchema>

/** A reply to a task that waits: the answer to its question, or to its plan (approve / reject / a question). */
export const taskReplyInputSchema = lazySchema(() =>
  z.object({
    id: z.string().min(1).max(40),
    text: z.string().trim().min(1).max(20_000),
  }),
)
export type TaskReplyInput = z.infer<typeof taskReplyInputSchema>

/** Where a task could run, when the resolver could not choose alone (the face asks the user). */
export const taskCandidateSchema = lazySchema(() =>
  z.object({
    dir: z.string(),
    project: z.string().nullable(),
    why: z.string(),
  }),
)

/** What starting, replying to or cancelling a task answers: done (with the task), or why not. */
export const taskActResultSchema = lazySchema(() =>
  z.object({
    done: z.boolean(),
    message: z.string(),
    task: taskSchema.nullable(),
    /** With "which project?": where it could run. */
    candidates: z.array(taskCandidateSchema).default([]),
  }),
)
export type TaskActResult = z.infer<typeof taskActResultSchema>

/** Where a task's text would run and whether it would plan first: the "New task" box's preview. */
export const taskPreviewSchema = lazySchema(() =>
  z.object({
    /** The directory the resolver picks, or null (then `candidates`, or nothing matched). */
    dir: z.string().nullable(),
    project: z.string().nullable(),
    why: z.string().nullable(),
    candidates: z.array(taskCandidateSchema),
    /** The plan keyword found in the text (the task would plan first), or null. */
    plan_keyword: z.string().nullable(),
  }),
)
export type TaskPreview = z.infer<typeof taskPreviewSchema>
