/**
 * THE place where a session's status is decided. Every rule lives here, in order:
 *
 * 1. Liveness first: a dead session is `ended`, never shown as waiting.
 *    - A live-session file (`sessions/<pid>.json`) whose pid is gone or reused (procStart differs) is stale: ended.
 *    - A `SessionEnd` hook: ended.
 *    - No live file and no hook sign of life: the process is not running. Claude Code writes the file before the
 *      session's first transcript line and keeps it for as long as it runs, TUI and `-p` alike. Only where no
 *      live file was ever written (no `sessions/` folder: an older CLI) does a transcript written within a short
 *      grace period still count as running.
 * 2. A live session: when hooks and the live file agree on the status, hooks win (their reason names the tool);
 *    when they disagree, the fresher one wins: hooks miss some changes (an Esc interrupt fires no Stop), which
 *    the live file then shows.
 *    - hooks: PermissionRequest / Notification(permission_prompt) → needs_permission with the message;
 *      Notification(idle_prompt) → waiting_input; Stop → idle (turn finished); SessionStart → idle;
 *      prompt and tool events → working.
 *    - live file: busy → working; waiting for a permission prompt → needs_permission; waiting for anything else →
 *      waiting_input; idle → idle. A print-mode run (`entrypoint: sdk-cli`) writes no status: it is working
 *      until its process exits.
 *    - transcript tail: a prompt or tool result in flight → working; a tool_use without result → working (a
 *      running tool and a permission prompt look the same there), except AskUserQuestion → waiting_input; turn end,
 *      interruption or API error → idle.
 * 3. Codex rollouts have no live file or hooks: mid-turn → working (ended when the turn has been silent for
 *    longer than CODEX_STALE_TURN_MS, i.e. the process died); after a turn, `exec` runs have ended; interactive
 *    sessions are idle until CODEX_IDLE_END_MS of silence.
 */
import type { SessionStatus } from '../../../shared/schemas/session.ts'
import type {
  CodexRolloutSummary,
  HookSessionState,
  LiveSessionRecord,
  TranscriptSummary,
} from './records.ts'

export interface StatusDecision {
  status: SessionStatus
  reason: string | null
  since: string | null
  source: 'hooks' | 'live' | 'transcript' | 'rollout' | 'none'
}

/** How long after its last transcript write a session without a live file still counts as running. */
export const NO_LIVE_FILE_GRACE_MS = 2 * 60_000
export const CODEX_STALE_TURN_MS = 15 * 60_000
export const CODEX_IDLE_END_MS = 2 * 60 * 60_000

export interface ClaudeStatusInput {
  transcript: TranscriptSummary | null
  live: LiveSessionRecord | null
  hook: HookSessionState | null
  /** Whether the hook's claude process is alive, when the hook recorded a pid; null when unknown. */
  hookPidAlive: boolean | null
  /** The CLI writes live-session files here (`sessions/` exists). */
  liveFilesSupported: boolean
  now: number
}

const iso = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined || !Number.isFinite(ms) ? null : new Date(ms).toISOString()
const ms = (value: string | null | undefined): number => (value ? Date.parse(value) || 0 : 0)

export function decideClaudeStatus(input: ClaudeStatusInput): StatusDecision {
  const { transcript, live, hook, hookPidAlive, liveFilesSupported, now } = input
  const lastWrite = ms(transcript?.lastActivity)

  if (hook?.ended) {
    return {
      status: 'ended',
      reason: endReason(hook.endReason),
      since: hook.lastEventAt,
      source: 'hooks',
    }
  }
  if (live && !live.alive) {
    return {
      status: 'ended',
      reason: `process ${live.pid} is gone (stale session file)`,
      since: transcript?.lastActivity ?? iso(live.statusUpdatedAt),
      source: 'live',
    }
  }
  if (!live) {
    const hookSaysAlive = hook !== null && hookPidAlive === true
    const recentlyWritten = lastWrite > 0 && now - lastWrite < NO_LIVE_FILE_GRACE_MS
    const graceApplies = !liveFilesSupported && recentlyWritten && hookPidAlive !== false
    if (!hookSaysAlive && !graceApplies) {
      return {
        status: 'ended',
        reason: 'process exited',
        since: transcript?.lastActivity ?? null,
        source: 'none',
      }
    }
  }

  const fromHook = hook ? statusFromHook(hook) : null
  const fromLive = live?.status
    ? statusFromLive(live)
    : live?.entrypoint === 'sdk-cli'
      ? ({
          status: 'working',
          reason: 'print-mode run',
          since: iso(live.startedAt),
          source: 'live',
        } as const)
      : null
  if (fromHook && fromLive) {
    if (fromHook.status === fromLive.status) return fromHook
    return ms(fromHook.since) >= ms(fromLive.since) ? fromHook : fromLive
  }
  if (fromHook) return fromHook
  if (fromLive) return fromLive
  return transcript
    ? statusFromTranscript(transcript)
    : idle('started', iso(live?.startedAt), 'live')
}

function statusFromHook(hook: HookSessionState): StatusDecision {
  const at = hook.lastEventAt
  const make = (status: SessionStatus, reason: string | null): StatusDecision => ({
    status,
    reason,
    since: at,
    source: 'hooks',
  })
  switch (hook.lastEvent) {
    case 'PermissionRequest':
      return make('needs_permission', hook.message ?? 'Claude needs your permission')
    case 'Notification':
      if (hook.notificationType === 'idle_prompt') {
        return make('waiting_input', hook.message ?? 'Claude is waiting for your input')
      }
      return make('needs_permission', hook.message ?? 'Claude needs your permission')
    case 'Stop':
      return make('idle', 'turn finished')
    case 'SessionStart':
      return make('idle', 'session started')
    default:
      return make('working', hook.toolName ? `running ${hook.toolName}` : null)
  }
}

function statusFromLive(live: LiveSessionRecord): StatusDecision {
  const since = iso(live.statusUpdatedAt)
  if (live.status === 'busy') return { status: 'working', reason: null, since, source: 'live' }
  if (live.status === 'waiting') {
    const waitingFor = live.waitingFor ?? 'input'
    const status = /permission/i.test(waitingFor) ? 'needs_permission' : 'waiting_input'
    return { status, reason: `waiting for ${waitingFor}`, since, source: 'live' }
  }
  return idle(null, since, 'live')
}

function statusFromTranscript(t: TranscriptSummary): StatusDecision {
  const tail = t.tail
  switch (tail.kind) {
    case 'prompt':
    case 'tool_result':
      return { status: 'working', reason: null, since: tail.at, source: 'transcript' }
    case 'tool_pending':
      if (tail.toolName === 'AskUserQuestion') {
        return {
          status: 'waiting_input',
          reason: 'Claude asked a question',
          since: tail.at,
          source: 'transcript',
        }
      }
      return {
        status: 'working',
        reason: `running ${tail.toolName}`,
        since: tail.at,
        source: 'transcript',
      }
    case 'turn_end':
      return idle('turn finished', tail.at, 'transcript')
    case 'interrupted':
      return idle('interrupted', tail.at, 'transcript')
    case 'api_error':
      return idle(`API error: ${tail.message}`, tail.at, 'transcript')
    case 'none':
      return idle(null, t.lastActivity, 'transcript')
  }
}

export function decideCodexStatus(rollout: CodexRolloutSummary, now: number): StatusDecision {
  const last = ms(rollout.lastActivity)
  const silentFor = last > 0 ? now - last : Number.POSITIVE_INFINITY
  const since = rollout.lastActivity
  if (rollout.inTurn) {
    if (silentFor > CODEX_STALE_TURN_MS) {
      return { status: 'ended', reason: 'turn never completed', since, source: 'rollout' }
    }
    return { status: 'working', reason: null, since, source: 'rollout' }
  }
  if (rollout.source === 'exec')
    return { status: 'ended', reason: 'exec run finished', since, source: 'rollout' }
  if (silentFor > CODEX_IDLE_END_MS)
    return { status: 'ended', reason: 'inactive', since, source: 'rollout' }
  return idle('turn finished', since, 'rollout')
}

function idle(
  reason: string | null,
  since: string | null,
  source: StatusDecision['source'],
): StatusDecision {
  return { status: 'idle', reason, since, source }
}

function endReason(reason: string | null): string {
  if (!reason || reason === 'other') return 'session ended'
  if (reason === 'prompt_input_exit') return 'user exited'
  return `session ended (${reason})`
}

/** Most urgent first; a project shows the most urgent status of its sessions. */
export const STATUS_URGENCY: readonly SessionStatus[] = [
  'needs_permission',
  'waiting_input',
  'working',
  'idle',
  'ended',
]
