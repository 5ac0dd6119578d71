/** Answering an agent from Navi: what a face sends, and the log line every answer leaves. */
import * as z from 'zod'
import type { PendingRequest } from './session.ts'
import { lazySchema } from './lazy-schema.ts'

/** An answer to one permission request, naming the request exactly as it was shown. */
export const sessionAnswerInputSchema = lazySchema(() =>
  z.object({
    session_id: z.string().min(1).max(200),
    /** The pending request's `request_id`, `tool` and `input_digest`, as shown. */
    request_id: z.string().min(1).max(64),
    tool: z.string().min(1).max(200),
    input_digest: z.string().min(1).max(64),
    decision: z.enum(['allow', 'deny']),
    /** With a deny: what the agent is told (what to do instead). */
    message: z.string().max(2000).optional(),
  }),
)
export type SessionAnswerInput = z.infer<typeof sessionAnswerInputSchema>

/** The face an answer came from. */
export const answerFaceSchema = lazySchema(() => z.enum(['tray', 'browser', 'cli']))
export type AnswerFace = z.infer<typeof answerFaceSchema>

/** One line of `$NAVI_HOME/answers.jsonl`: who answered what, when, how, and what came of it. */
export const answerRecordSchema = lazySchema(() =>
  z.object({
    at: z.string(),
    session_id: z.string(),
    session_name: z.string().nullable(),
    project_dir: z.string().nullable(),
    request_id: z.string(),
    tool: z.string(),
    detail: z.string().nullable(),
    decision: z.enum(['allow', 'deny']),
    message: z.string().nullable(),
    by: answerFaceSchema,
    /**
     * How it reached the agent: Navi's waiting PermissionRequest hook, or the dialog's key typed into the
     * session's tmux pane (after checking the pane shows that very dialog).
     */
    path: z.enum(['hook', 'tmux']),
    /**
     * `delivered`: the hook took it (and `taken` is what it took: a deny that came first wins);
     * `queued`: written, not taken yet when Navi stopped looking; `refused`: nothing was written.
     */
    outcome: z.enum(['delivered', 'queued', 'refused']),
    taken: z.enum(['allow', 'deny']).nullable(),
    reason: z.string().nullable(),
  }),
)
export type AnswerRecord = z.infer<typeof answerRecordSchema>

/** Whether Navi's hook waits for answers from Navi: for every session (away), or for some. */
export const answeringStateSchema = lazySchema(() =>
  z.object({
    /** A Navi runtime listens (the hook waits only then). */
    listening: z.boolean(),
    /** Seconds the hook waits when away; null when not away. */
    away: z.number().int().nullable(),
    /** Sessions opted in one by one, with the seconds. */
    sessions: z.record(z.string(), z.number().int()),
    /** The configured wait (config.yaml `answering.wait`). */
    wait_seconds: z.number().int(),
  }),
)
export type AnsweringState = z.infer<typeof answeringStateSchema>

/** A reply typed to an agent that waits on its user (contract `session:reply`). */
export const sessionReplyInputSchema = lazySchema(() =>
  z.object({
    session_id: z.string().min(1).max(200),
    text: z.string().min(1).max(4000),
  }),
)
export type SessionReplyInput = z.infer<typeof sessionReplyInputSchema>

/** A reply's line in `$NAVI_HOME/answers.jsonl`. */
export const replyRecordSchema = lazySchema(() =>
  z.object({
    at: z.string(),
    kind: z.literal('reply'),
    session_id: z.string(),
    session_name: z.string().nullable(),
    text: z.string(),
    by: answerFaceSchema,
    path: z.literal('tmux'),
    outcome: z.enum(['delivered', 'refused']),
    reason: z.string().nullable(),
  }),
)
export type ReplyRecord = z.infer<typeof replyRecordSchema>

/**
 * The answer to the request `session` waits on, naming it exactly as it is known now (id, tool, input
 * digest); null when Navi's hooks did not name it (nothing Navi could answer).
 */
export function answerToPending(
  session: { id: string; pending_request: PendingRequest | null },
  decision: 'allow' | 'deny',
  message?: string,
): SessionAnswerInput | null {
  const pending = session.pending_request
  if (!pending?.request_id || !pending.input_digest) return null
  return {
    session_id: session.id,
    request_id: pending.request_id,
    tool: pending.tool,
    input_digest: pending.input_digest,
    decision,
    ...(message ? { message } : {}),
  }
}
