/**
 * Folded summaries ↔ plain JSON, for the index that lets a restarted Navi resume each transcript
 * from its last offset instead of re-reading it. Pure. Decoding validates with zod and returns null
 * for anything that does not fit: the caller then folds that file again from byte 0.
 */
import * as z from 'zod'
import {
  taskItemSchema,
  taskMoveSchema,
  tokenUsageSchema,
} from '../../../shared/schemas/session.ts'
import type { CodexRolloutSummary, TranscriptSummary, TranscriptTail } from './source-records.ts'
import { lazySchema } from '../../../shared/schemas/lazy-schema.ts'
import { reviveTranscriptSummary } from './transcript-encoding.ts'

/**
 * Bump when `foldTranscriptLine`, `TranscriptSummary` or this encoding changes meaning, so that an
 * index written by an older Navi is ignored instead of mixing two versions of the fold.
 */
export const TRANSCRIPT_SUMMARY_VERSION = 7
/** Same for `foldCodexLine` and `CodexRolloutSummary`. */
export const CODEX_SUMMARY_VERSION = 5

// Made by the (lazy) schemas that use it, not when the module loads: every command loads the engine.
const nullableString = () => z.string().nullable()

const transcriptTailSchema: z.ZodType<TranscriptTail> = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('none') }),
    z.object({ kind: z.literal('prompt'), at: z.string() }),
    z.object({ kind: z.literal('tool_result'), at: z.string() }),
    z.object({
      kind: z.literal('tool_pending'),
      at: z.string(),
      toolName: z.string(),
      toolUseId: z.string(),
      detail: nullableString(),
      description: nullableString(),
    }),
    z.object({ kind: z.literal('reply'), at: z.string() }),
    z.object({ kind: z.literal('turn_end'), at: z.string() }),
    z.object({ kind: z.literal('interrupted'), at: z.string() }),
    z.object({
      kind: z.literal('api_error'),
      at: z.string(),
      message: z.string(),
      errorClass: nullableString(),
      status: z.number().nullable(),
      since: z.string(),
    }),
    z.object({
      kind: z.literal('api_retry'),
      at: z.string(),
      message: z.string(),
      attempt: z.number(),
      maxRetries: z.number(),
      status: z.number().nullable(),
      since: z.string(),
    }),
  ]),
)

const commandStreakRecordSchema = lazySchema(() =>
  z.object({
    command: z.string(),
    digest: z.string(),
    runs: z.number(),
    failures: z.number(),
    since: z.string(),
    pendingId: nullableString(),
  }),
)

const turnSchema = lazySchema(() =>
  z.object({
    prompt: nullableString(),
    startedAt: z.string(),
    reply: nullableString(),
    replyAt: nullableString(),
  }),
)
const completedTurnSchema = lazySchema(() =>
  turnSchema.extend({
    endedAt: z.string(),
    durationMs: z.number().nullable(),
  }),
)

const encodedTranscriptSchema = lazySchema(() =>
  z.object({
    sessionId: z.string(),
    path: z.string(),
    cwd: nullableString(),
    branch: nullableString(),
    version: nullableString(),
    entrypoint: nullableString(),
    firstActivity: nullableString(),
    lastActivity: nullableString(),
    usage: z.object({
      totals: tokenUsageSchema,
      messages: z.number(),
      /** `[id, input, output, cache_read, cache_creation]` of the last responses (see PERSISTED_USAGE_IDS). */
      recent: z.array(z.tuple([z.string(), z.number(), z.number(), z.number(), z.number()])),
    }),
    lastPrompt: nullableString(),
    title: nullableString(),
    customTitle: nullableString(),
    subagentIds: z.array(z.string()),
    turns: z.number(),
    todos: z.array(taskItemSchema).nullable(),
    transcriptTasks: z.array(taskItemSchema).nullable(),
    taskCalls: z.array(
      z.tuple([
        z.string(),
        z.union([
          z.object({ kind: z.literal('create'), subject: z.string() }),
          z.object({
            kind: z.literal('update'),
            taskId: z.string(),
            status: z.enum(['pending', 'in_progress', 'completed', 'deleted']).nullable(),
            subject: nullableString(),
          }),
        ]),
      ]),
    ),
    taskMoves: z.array(taskMoveSchema),
    todoMoves: z.array(taskMoveSchema),
    tail: transcriptTailSchema,
    pendingToolUses: z.array(
      z.tuple([
        z.string(),
        z.object({ name: z.string(), detail: nullableString(), description: nullableString() }),
      ]),
    ),
    pendingCommand: nullableString(),
    openTurn: turnSchema.nullable(),
    lastTurn: completedTurnSchema.nullable(),
    turnsCompleted: z.number(),
    recentTurnEnds: z.array(z.string()),
    ownerSessionId: nullableString(),
    sidechainCwd: nullableString(),
    commandStreak: commandStreakRecordSchema.nullable(),
    corruptLines: z.number(),
  }),
)
export type EncodedTranscript = z.infer<typeof encodedTranscriptSchema>

export {
  encodeTranscriptSummary,
  PERSISTED_USAGE_IDS,
  reviveTranscriptSummary,
} from './transcript-encoding.ts'

/** The summary `encodeTranscriptSummary` was given, or null when `data` is not one for `path`. */
export function decodeTranscriptSummary(data: unknown, path: string): TranscriptSummary | null {
  const parsed = encodedTranscriptSchema.safeParse(data)
  if (!parsed.success) return null
  return reviveTranscriptSummary(parsed.data, path)
}

const codexSummarySchema = lazySchema(() =>
  z.object({
    threadId: z.string(),
    path: z.string(),
    cwd: nullableString(),
    source: nullableString(),
    cliVersion: nullableString(),
    startedAt: nullableString(),
    lastActivity: nullableString(),
    turns: z.number(),
    inTurn: z.boolean(),
    lastAgentMessage: nullableString(),
    firstUserMessage: nullableString(),
    lastUserMessage: nullableString(),
    tokens: tokenUsageSchema,
    branch: nullableString(),
    commandStreak: commandStreakRecordSchema.nullable(),
    turnError: z.object({ message: z.string(), at: nullableString() }).nullable(),
    corruptLines: z.number(),
  }),
)

/** A Codex summary is plain data already. */
export function encodeCodexSummary(summary: CodexRolloutSummary): CodexRolloutSummary {
  return summary
}

export function decodeCodexSummary(data: unknown, path: string): CodexRolloutSummary | null {
  const parsed = codexSummarySchema.safeParse(data)
  return parsed.success && parsed.data.path === path ? parsed.data : null
}

/** `decodeCodexSummary` without the validation, for what a Navi encoded itself. */
export function reviveCodexSummary(data: unknown, path: string): CodexRolloutSummary | null {
  const summary = data as CodexRolloutSummary
  return summary.path === path ? summary : null
}
