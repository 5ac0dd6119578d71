/** Joins what the sources know about each session into one `Session` (project assignment comes later). */
import type { Session, TokenUsage } from '../../../shared/schemas/session.ts'
import type {
  ClaudeTaskListRecord,
  CodexRolloutSummary,
  HookSessionState,
  LiveSessionRecord,
  TranscriptSummary,
} from './source-records.ts'
import {
  decideClaudeStatus,
  decideCodexStatus,
  REPLY_QUIET_MS,
  type StatusDecision,
} from './session-status.ts'
import { summarizeTokens } from './usage-tally.ts'
import { claudeTaskLists } from './claude-task-lists.ts'
import { finishedTurns } from './transcript-turns.ts'
import { mainTranscriptsById, sideSpendByParent, type SideTranscript } from './side-transcripts.ts'
import { isoMs } from './iso-ms.ts'
import {
  apiFailureOf,
  codexFailureOf,
  commandStreakOf,
  pendingRequestOf,
} from './session-evidence.ts'

export interface ClaudeSources {
  /** Main transcripts, `projects/<enc>/<session>.jsonl`. */
  transcripts: TranscriptSummary[]
  /** Sub-agent and compaction transcripts, each with the session it belongs to. */
  sideTranscripts?: SideTranscript[]
  live: LiveSessionRecord[]
  hooks: ReadonlyMap<string, HookSessionState>
  taskLists: ClaudeTaskListRecord[]
  /** The CLI writes live-session files on this machine (`sessions/` exists). */
  liveFilesSupported: boolean
  /** Liveness of pids recorded by hooks (pid → alive). */
  pidAlive: ReadonlyMap<number, boolean>
  /** tmux pane of a pid, found by walking the process tree. */
  paneOfPid: ReadonlyMap<number, { pane: string; socket: string }>
  now: number
}

const ZERO_TOKENS: TokenUsage = { input: 0, output: 0, cache_read: 0, cache_creation: 0, total: 0 }

export function assembleClaudeSessions(src: ClaudeSources): Session[] {
  const transcriptById = mainTranscriptsById(src.transcripts)
  const sideSpend = sideSpendByParent(src.sideTranscripts ?? [])
  const liveById = pickLivePerSession(src.live)
  const listsById = new Map(src.taskLists.map((l) => [l.listId, l]))
  const claudeHooks = [...src.hooks.values()].filter((h) => h.agent === 'claude')
  const ids = new Set([
    ...transcriptById.keys(),
    ...liveById.keys(),
    ...claudeHooks.map((h) => h.sessionId),
    ...sideSpend.keys(),
  ])

  const sessions: Session[] = []
  for (const id of ids) {
    const transcript = transcriptById.get(id) ?? null
    const live = liveById.get(id) ?? null
    const found = src.hooks.get(id)
    const hook = found?.agent === 'claude' ? found : null
    const side = sideSpend.get(id) ?? null
    // A session whose main file is empty or gone still spent what its sub-agents spent.
    const cwd = transcript?.cwd ?? live?.cwd ?? hook?.cwd ?? side?.cwd
    if (!cwd) continue
    const hookPid = hook?.agentPid ?? null
    const decision = decideClaudeStatus({
      transcript,
      live,
      hook,
      hookPidAlive: hookPid === null ? null : (src.pidAlive.get(hookPid) ?? null),
      liveFilesSupported: src.liveFilesSupported,
      now: src.now,
    })
    const name = transcript?.customTitle ?? transcript?.title ?? live?.name ?? id.slice(0, 8)
    const pid = live?.pid ?? hookPid
    const alive = decision.status !== 'ended'
    // The process tree finds the pane and its tmux server; 2.1.330's live file names the pane itself
    // (not the server), which is used when the tree walk found nothing (e.g. another user's process).
    const fromTree = alive && pid !== null ? (src.paneOfPid.get(pid) ?? null) : null
    const fromLive = alive && live?.tmuxPane ? { pane: live.tmuxPane, socket: null } : null
    const pane = fromTree ?? fromLive
    sessions.push({
      id,
      agent: 'claude',
      name,
      cwd,
      project_dir: null,
      branch: transcript?.branch ?? null,
      status: decision.status,
      status_reason: decision.reason,
      status_since: decision.since,
      status_source: decision.source,
      started_at:
        transcript?.firstActivity ??
        isoOrNull(live?.startedAt) ??
        hook?.startedAt ??
        side?.firstActivity ??
        null,
      last_activity: latest([
        transcript?.lastActivity,
        hook?.lastEventAt,
        isoOrNull(live?.statusUpdatedAt),
        side?.lastActivity,
      ]),
      tokens: addTokens(transcript ? summarizeTokens(transcript) : ZERO_TOKENS, side?.total),
      subagent_tokens: side?.subagents ?? ZERO_TOKENS,
      last_prompt: transcript?.lastPrompt ?? null,
      subagents: Math.max(transcript?.subagentIds.size ?? 0, side?.subagentFiles ?? 0),
      turns: transcript?.turns ?? 0,
      ...turnFields(transcript, src.now),
      last_denial: hook?.lastDenial
        ? {
            tool: hook.lastDenial.toolName,
            detail: hook.lastDenial.detail,
            reason: hook.lastDenial.reason,
            at: hook.lastDenial.at,
          }
        : null,
      pid: alive ? pid : null,
      tmux_pane: pane?.pane ?? null,
      tmux_socket: pane?.socket ?? null,
      transcript_path: transcript?.path ?? hook?.transcriptPath ?? null,
      task_lists: claudeTaskLists({
        sessionId: id,
        sessionName: name,
        record: listsById.get(id),
        transcript,
        hook,
        now: src.now,
      }),
      pending_request:
        decision.status === 'needs_permission'
          ? pendingRequestOf(hook, transcript, decision.since)
          : null,
      api_failure: apiFailureOf(transcript, hook),
      command_streak: commandStreakOf(transcript),
      // Decided by the cycle, with the configured thresholds (core/trouble.ts).
      trouble: null,
    })
  }
  return sessions
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

function turnFields(
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

function addTokens(a: TokenUsage, b: TokenUsage | undefined): TokenUsage {
  if (!b) return a
  const sum = {
    input: a.input + b.input,
    output: a.output + b.output,
    cache_read: a.cache_read + b.cache_read,
    cache_creation: a.cache_creation + b.cache_creation,
  }
  return { ...sum, total: sum.input + sum.output + sum.cache_read + sum.cache_creation }
}

/** A resumed session can leave several pid files; the live one wins, else the newest. */
function pickLivePerSession(records: LiveSessionRecord[]): Map<string, LiveSessionRecord> {
  const byId = new Map<string, LiveSessionRecord>()
  for (const record of records) {
    const current = byId.get(record.sessionId)
    const better =
      !current ||
      (record.alive && !current.alive) ||
      (record.alive === current.alive && (record.startedAt ?? 0) > (current.startedAt ?? 0))
    if (better) byId.set(record.sessionId, record)
  }
  return byId
}

/** Epoch ms as ISO; null for a value no Date can hold (the adapters already drop implausible ones). */
function isoOrNull(value: number | null | undefined): string | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

/** The latest of several times, compared as times (not as strings); unparseable ones are skipped. */
function latest(values: (string | null | undefined)[]): string | null {
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
