/**
 * Joins what Codex's sources know about a thread into one `Session`, and the pieces Claude's sessions
 * (claude-sessions.ts) share with it.
 */
import type { Session, TokenUsage } from '../../../shared/schemas/session.ts'
import type { CodexRolloutSummary, HookSessionState, TranscriptSummary } from './source-records.ts'
import { decideCodexStatus, REPLY_QUIET_MS, type StatusDecision } from './session-status.ts'
import { finishedTurns } from './transcript-turns.ts'
import { isoMs } from './iso-ms.ts'
import { codexFailureOf, commandStreakOf, pendingRequestOf } from './session-evidence.ts'

export const ZERO_TOKENS: TokenUsage = {
  input: 0,
  output: 0,
  cache_read: 0,
  cache_creation: 0,
  total: 0,
}

export function assembleCodexSession(
  rollout: CodexRolloutSummary,
  now: number,
  /** The name the user gave the thread (`session_index.jsonl`), if any. */
  threadName?: string,
  /** What Navi's hook saw of the thread, when Codex runs it (hooks.json). */
  hook?: HookSessionState,
  /** The codex process running the thread (its hooks name it) while it lives, and its tmux pane. */
  running?: { pid: number; pane: { pane: string; socket: string } | null },
): Session | null {
  if (!rollout.cwd) return null
  const asking = codexAsking(rollout, hook)
  const decision: StatusDecision = asking
    ? {
        status: 'needs_permission',
        reason: asking.message,
        since: asking.lastEventAt,
        source: 'hooks',
      }
    : decideCodexStatus(rollout, now)
  return {
    id: rollout.threadId,
    agent: 'codex',
    name: threadName ?? truncate(rollout.firstUserMessage, 40) ?? rollout.threadId.slice(0, 8),
    cwd: rollout.cwd,
    project_dir: null,
    branch: rollout.branch,
    status: decision.status,
    status_reason: decision.reason,
    status_since: decision.since,
    status_source: decision.source,
    started_at: rollout.startedAt,
    last_activity: rollout.lastActivity,
    tokens: rollout.tokens,
    subagent_tokens: ZERO_TOKENS,
    last_prompt: rollout.lastUserMessage ?? rollout.firstUserMessage,
    subagents: 0,
    turns: rollout.turns,
    turns_completed: 0,
    last_turn: null,
    recent_turn_ends: [],
    last_denial: null,
    pid: running?.pid ?? null,
    tmux_pane: running?.pane?.pane ?? null,
    tmux_socket: running?.pane?.socket ?? null,
    transcript_path: rollout.path,
    task_lists: [],
    pending_request: asking ? pendingRequestOf(asking, null, asking.lastEventAt) : null,
    api_failure: codexFailureOf(rollout),
    command_streak: commandStreakOf(rollout),
    trouble: null,
  }
}

export function turnFields(
  transcript: TranscriptSummary | null,
  now: number,
): Pick<Session, 'turns_completed' | 'last_turn' | 'recent_turn_ends'> {
  if (!transcript) return { turns_completed: 0, last_turn: null, recent_turn_ends: [] }
  const { last, count, recentEnds } = finishedTurns(transcript, now, REPLY_QUIET_MS)
  return {
    turns_completed: count,
    recent_turn_ends: recentEnds,
    last_turn: last
      ? {
          prompt: last.prompt,
          started_at: last.startedAt,
          ended_at: last.endedAt,
          duration_ms: last.durationMs,
          reply: last.reply,
        }
      : null,
  }
}

export function addTokens(a: TokenUsage, b: TokenUsage | undefined): TokenUsage {
  if (!b) return a
  const sum = {
    input: a.input + b.input,
    output: a.output + b.output,
    cache_read: a.cache_read + b.cache_read,
    cache_creation: a.cache_creation + b.cache_creation,
  }
  return { ...sum, total: sum.input + sum.output + sum.cache_read + sum.cache_creation }
}

/** Epoch ms as ISO; null for a value no Date can hold (the adapters already drop implausible ones). */
export function isoOrNull(value: number | null | undefined): string | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

/** The latest of several times, compared as times (not as strings); unparseable ones are skipped. */
export function latest(values: (string | null | undefined)[]): string | null {
  let best: string | null = null
  let bestMs = Number.NEGATIVE_INFINITY
  for (const value of values) {
    const ms = value ? isoMs(value) : Number.NaN
    if (value && Number.isFinite(ms) && ms > bestMs) {
      best = value
      bestMs = ms
    }
  }
  return best
}

function truncate(text: string | null, max: number): string | null {
  if (!text) return null
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/**
 * The thread waits on a permission its PermissionRequest hook told of: the hook's event is the latest
 * news of the thread (the rollout has nothing newer: the call's output comes once it is answered).
 */
function codexAsking(
  rollout: CodexRolloutSummary,
  hook: HookSessionState | undefined,
): HookSessionState | null {
  if (hook?.agent !== 'codex' || hook.lastEvent !== 'PermissionRequest' || !rollout.inTurn)
    return null
  const rolloutAt = rollout.lastActivity ? Date.parse(rollout.lastActivity) : 0
  return Date.parse(hook.lastEventAt) >= rolloutAt ? hook : null
}
