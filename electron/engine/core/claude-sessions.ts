/** Joins what Claude Code's sources know about each session into one `Session` (its project comes later). */
import type { Session } from '../../../shared/schemas/session.ts'
import type {
  ClaudeTaskListRecord,
  HookSessionState,
  LiveSessionRecord,
  TranscriptSummary,
} from './source-records.ts'
import { decideClaudeStatus } from './session-status.ts'
import { summarizeTokens } from './usage-tally.ts'
import { claudeTaskLists } from './claude-task-lists.ts'
import {
  mainTranscriptsById,
  sideSpendByParent,
  type SideSpend,
  type SideTranscript,
} from './side-transcripts.ts'
import { apiFailureOf, commandStreakOf, pendingRequestOf } from './session-evidence.ts'
import { addTokens, isoOrNull, latest, turnFields, ZERO_TOKENS } from './sessions.ts'

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

/**
 * What one Claude session is assembled from. Every part but the transcript (folded in place as its file
 * grows) and the side spend (summed anew) is a new object whenever it changes, so a cycle that finds the
 * same parts, and knows which transcripts it read, may keep the session it assembled before
 * (claude-session-memo.ts).
 */
export interface ClaudeSessionInputs {
  transcript: TranscriptSummary | null
  live: LiveSessionRecord | null
  hook: HookSessionState | null
  side: SideSpend | null
  list: ClaudeTaskListRecord | undefined
  /** Liveness of the pid the hooks recorded; null when they recorded none. */
  hookPidAlive: boolean | null
  /** The tmux pane of the session's pid, found by walking the process tree. */
  paneFromTree: { pane: string; socket: string } | null
}

/** The inputs of every Claude session the sources know of, by session id. */
export function claudeSessionInputs(src: ClaudeSources): Map<string, ClaudeSessionInputs> {
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
  const inputs = new Map<string, ClaudeSessionInputs>()
  for (const id of ids) {
    const live = liveById.get(id) ?? null
    const found = src.hooks.get(id)
    const hook = found?.agent === 'claude' ? found : null
    const hookPid = hook?.agentPid ?? null
    const pid = live?.pid ?? hookPid
    inputs.set(id, {
      transcript: transcriptById.get(id) ?? null,
      live,
      hook,
      side: sideSpend.get(id) ?? null,
      list: listsById.get(id),
      hookPidAlive: hookPid === null ? null : (src.pidAlive.get(hookPid) ?? null),
      paneFromTree: pid === null ? null : (src.paneOfPid.get(pid) ?? null),
    })
  }
  return inputs
}

export function assembleClaudeSessions(src: ClaudeSources): Session[] {
  const sessions: Session[] = []
  for (const [id, inputs] of claudeSessionInputs(src)) {
    const session = assembleClaudeSession(id, inputs, src)
    if (session) sessions.push(session)
  }
  return sessions
}

/** One Claude session from its inputs; null when nothing tells where it ran. */
export function assembleClaudeSession(
  id: string,
  inputs: ClaudeSessionInputs,
  src: Pick<ClaudeSources, 'liveFilesSupported' | 'now'>,
): Session | null {
  const { transcript, live, hook, side } = inputs
  // A session whose main file is empty or gone still spent what its sub-agents spent.
  const cwd = transcript?.cwd ?? live?.cwd ?? hook?.cwd ?? side?.cwd
  if (!cwd) return null
  const hookPid = hook?.agentPid ?? null
  const decision = decideClaudeStatus({
    transcript,
    live,
    hook,
    hookPidAlive: inputs.hookPidAlive,
    liveFilesSupported: src.liveFilesSupported,
    now: src.now,
  })
  const name = transcript?.customTitle ?? transcript?.title ?? live?.name ?? id.slice(0, 8)
  const pid = live?.pid ?? hookPid
  const alive = decision.status !== 'ended'
  // The process tree finds the pane and its tmux server; 2.1.330's live file names the pane itself
  // (not the server), which is used when the tree walk found nothing (e.g. another user's process).
  const fromTree = alive ? inputs.paneFromTree : null
  const fromLive = alive && live?.tmuxPane ? { pane: live.tmuxPane, socket: null } : null
  const pane = fromTree ?? fromLive
  return {
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
      record: inputs.list,
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
  }
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
