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
 *    the live file then shows. Both are worded alike, so one status has one reason whichever source told it:
 *    a permission reads `Permission needed: <tool> (<command, file or URL>)` (`permissionMessage`).
 *    - hooks: PermissionRequest / Notification(permission_prompt) → needs_permission with the message;
 *      Notification(idle_prompt) → waiting_input; Notification(agent_needs_input) — 2.1.330's auto mode
 *      opening its own dialog — → needs_permission for the tool call in flight, else waiting_input;
 *      Stop → idle (turn finished); SessionStart → idle; prompt and tool events → working; PermissionDenied
 *      (auto mode's classifier or dontAsk refused a call; the agent goes on) → working.
 *    - live file: busy → working; waiting → by `waitingFor`, classed as the CLI classes it (2.1.330):
 *      `permission prompt`, `sandbox request`, `worker request`, `goal proposal` → needs_permission;
 *      `input needed` → waiting_input; `dialog open` (any other dialog, including auto mode's "can't check
 *      actions", 2.1.330) → needs_permission while a tool call waits in the transcript, else waiting_input;
 *      idle → idle. A print-mode run that writes no status (`entrypoint: sdk-cli`, up to 2.1.197; 2.1.330
 *      writes `busy`) is working until its process exits.
 *    - transcript tail: a prompt or tool result in flight → working; a tool_use without result → working (a
 *      running tool and a permission prompt look the same there), except AskUserQuestion → waiting_input; a
 *      final reply with no stop reason (1.0.x to 2.1.42) → working until {@link REPLY_QUIET_MS} of quiet,
 *      then idle; an API error being retried (`system/api_error`, 2.1.x) → working, with the error and the
 *      attempt as reason; turn end, interruption or API error → idle.
 * 3. Codex rollouts have no live file or hooks: mid-turn → working (ended when the turn has been silent for
 *    longer than CODEX_STALE_TURN_MS, i.e. the process died); after a turn, `exec` runs have ended; interactive
 *    sessions are idle until CODEX_IDLE_END_MS of silence.
 */
import type { SessionStatus } from '../../../shared/schemas/session.ts'
import { permissionMessage } from './hook-fold.ts'
import type {
  CodexRolloutSummary,
  HookSessionState,
  LiveSessionRecord,
  TranscriptSummary,
} from './source-records.ts'
import { isoMs } from './iso-ms.ts'

export interface StatusDecision {
  status: SessionStatus
  reason: string | null
  since: string | null
  source: 'hooks' | 'live' | 'transcript' | 'rollout' | 'none'
}

/** How long after its last transcript write a session without a live file still counts as running. */
export const NO_LIVE_FILE_GRACE_MS = 2 * 60_000
/**
 * How long a final reply without a stop reason must stay the last line before the turn counts as finished.
 * The next block of the same response (a tool call) follows within seconds of its text block.
 */
export const REPLY_QUIET_MS = 30_000
/** `waitingFor` values the CLI itself classes as a permission (2.1.330's own table). */
const PERMISSION_WAITS = new Set([
  'permission prompt',
  'sandbox request',
  'worker request',
  'goal proposal',
])
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
const ms = (value: string | null | undefined): number => (value ? isoMs(value) || 0 : 0)

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
    ? statusFromLive(live, transcript)
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
    ? statusFromTranscript(transcript, now)
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
      if (hook.notificationType === 'agent_needs_input' && !hook.toolName) {
        return make('waiting_input', hook.message ?? 'Claude is waiting for your input')
      }
      return make('needs_permission', hook.message ?? 'Claude needs your permission')
    case 'Stop':
      return make('idle', 'turn finished')
    case 'StopFailure':
      return make('idle', hook.message ?? 'turn failed')
    case 'SessionStart':
      return make('idle', 'session started')
    default:
      return make('working', hook.toolName ? `running ${hook.toolName}` : null)
  }
}

function statusFromLive(live: LiveSessionRecord, t: TranscriptSummary | null): StatusDecision {
  const since = iso(live.statusUpdatedAt)
  if (live.status === 'busy') return { status: 'working', reason: null, since, source: 'live' }
  if (live.status === 'waiting') {
    const waitingFor = live.waitingFor ?? 'input'
    const pending = t?.tail.kind === 'tool_pending' ? t.tail : null
    const pendingCall = pending && pending.toolName !== 'AskUserQuestion' ? pending : null
    const isPermission =
      PERMISSION_WAITS.has(waitingFor) || (waitingFor === 'dialog open' && pendingCall !== null)
    if (!isPermission) {
      return { status: 'waiting_input', reason: `waiting for ${waitingFor}`, since, source: 'live' }
    }
    const reason = pendingCall
      ? permissionMessage(pendingCall.toolName, pendingCall.detail)
      : `waiting for ${waitingFor}`
    return { status: 'needs_permission', reason, since, source: 'live' }
  }
  return idle(null, since, 'live')
}

function statusFromTranscript(t: TranscriptSummary, now: number): StatusDecision {
  const tail = t.tail
  switch (tail.kind) {
    case 'prompt':
    case 'tool_result':
      return { status: 'working', reason: null, since: tail.at, source: 'transcript' }
    case 'reply':
      if (now - ms(tail.at) >= REPLY_QUIET_MS) return idle('turn finished', tail.at, 'transcript')
      return { status: 'working', reason: null, since: tail.at, source: 'transcript' }
    case 'api_retry': {
      const attempt =
        tail.maxRetries > 0
          ? ` (attempt ${String(tail.attempt)} of ${String(tail.maxRetries)})`
          : ''
      const what = tail.message ? `: ${tail.message}` : ''
      return {
        status: 'working',
        reason: `retrying after an API error${attempt}${what}`,
        since: tail.at,
        source: 'transcript',
      }
    }
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
