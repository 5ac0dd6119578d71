/**
 * Trouble: why a session needs a look, decided at once by fixed rules from what Navi already knows (no
 * LLM), with the evidence in its reason. Checked every cycle; a condition that ends clears itself. Pure.
 *
 * In order (the first that holds is the session's trouble):
 * 1. `api_error`: the agent's last request failed at the API (its final error reply), or the CLI has
 *    retried it `repeats` times already — rate limit, overload, server error, authentication, quota.
 * 2. `failing_command`: the same shell command failed `repeats` times in a row.
 * 3. `repeated_command`: the same shell command ran `repeats` times back to back (no other tool call, no
 *    prompt in between).
 * 4. `stalled`: `working`, and no transcript progress for `stalledAfterMs`.
 * 5. `waiting_long`: waiting on its user (a permission or a question) for `waitingAfterMs`.
 * An ended session has no trouble: whatever it was, it is over.
 */
import type { ApiFailure, Session, SessionTrouble } from '../../../shared/schemas/session.ts'
import { isoMs } from './iso-ms.ts'

/** From `config.yaml`'s `trouble:` (defaults in shared/schemas/config.ts: 10 min, 15 min, 3). */
export interface TroubleThresholds {
  stalledAfterMs: number
  waitingAfterMs: number
  /** Runs of one command (failing or not), and API retries, that make trouble. */
  repeats: number
}

/** The session's trouble under `thresholds` at `now`, or null. */
export function detectTrouble(
  session: Session,
  now: number,
  thresholds: TroubleThresholds,
): SessionTrouble | null {
  if (session.status === 'ended') return null
  const failure = session.api_failure
  if (failure && (!failure.retrying || (failure.attempt ?? 0) >= thresholds.repeats)) {
    return { kind: 'api_error', reason: apiFailureReason(failure), since: failure.at }
  }
  const streak = session.command_streak
  if (streak && streak.failures >= thresholds.repeats) {
    return {
      kind: 'failing_command',
      reason: `the same command failed ${String(streak.failures)} times in a row: ${streak.command}`,
      since: streak.since,
    }
  }
  if (streak && streak.runs >= thresholds.repeats) {
    return {
      kind: 'repeated_command',
      reason: `the same command ran ${String(streak.runs)} times in a row: ${streak.command}`,
      since: streak.since,
    }
  }
  if (session.status === 'working') {
    const quiet = quietFor(session.last_activity, now)
    if (quiet !== null && quiet >= thresholds.stalledAfterMs) {
      const doing = session.status_reason ? ` (last: ${session.status_reason})` : ''
      return {
        kind: 'stalled',
        reason: `no progress for ${spell(quiet)}${doing}`,
        since: session.last_activity,
      }
    }
  }
  if (session.status === 'needs_permission' || session.status === 'waiting_input') {
    const waited = quietFor(session.status_since, now)
    if (waited !== null && waited >= thresholds.waitingAfterMs) {
      const what = session.status === 'needs_permission' ? 'a permission' : 'an answer'
      const asked = session.status_reason ? `: ${session.status_reason}` : ''
      return {
        kind: 'waiting_long',
        reason: `waiting ${spell(waited)} for ${what}${asked}`,
        since: session.status_since,
      }
    }
  }
  return null
}

/** What kind of API failure the CLI's class of it, its HTTP status and its message say it is. */
export function classifyApiFailure(
  errorClass: string | null,
  status: number | null,
  message: string,
): ApiFailure['kind'] {
  const text = message.toLowerCase()
  if (/usage limit|quota|credit balance|billing|insufficient.?funds/.test(text)) return 'quota'
  if (errorClass === 'rate_limit' || status === 429 || /rate.?limit/.test(text)) return 'rate_limit'
  if (errorClass === 'authentication_failed' || status === 401 || status === 403) {
    return 'authentication'
  }
  if (status === 529 || /overloaded/.test(text)) return 'overloaded'
  if (errorClass === 'server_error' || (status !== null && status >= 500)) return 'server_error'
  return 'other'
}

const FAILURE_WORDS: Record<ApiFailure['kind'], string> = {
  rate_limit: 'rate limited',
  overloaded: 'API overloaded',
  server_error: 'API server error',
  authentication: 'authentication failed',
  quota: 'usage limit or quota reached',
  other: 'API error',
}

function apiFailureReason(failure: ApiFailure): string {
  const status = failure.status === null ? '' : ` (${String(failure.status)})`
  const retry = failure.retrying ? `, retry ${String(failure.attempt ?? 0)}` : ''
  const message = failure.message ? `: ${failure.message}` : ''
  return `${FAILURE_WORDS[failure.kind]}${status}${retry}${message}`
}

/** Milliseconds since `iso`, or null when it is not a time (or in the future). */
function quietFor(iso: string | null, now: number): number | null {
  if (!iso) return null
  const at = isoMs(iso)
  return Number.isFinite(at) && at <= now ? now - at : null
}

/** `45 s`, `12 min`, `2 h 5 min`: how long, to the unit that matters. */
function spell(ms: number): string {
  const seconds = Math.floor(ms / 1000)
  if (seconds < 60) return `${String(seconds)} s`
  const total = Math.floor(seconds / 60)
  if (total < 60) return `${String(total)} min`
  const rest = total % 60
  return `${String(Math.floor(total / 60))} h${rest ? ` ${String(rest)} min` : ''}`
}

/** `session` with its trouble decided (the same object when it has none). */
export function withTrouble(session: Session, now: number, thresholds: TroubleThresholds): Session {
  const trouble = detectTrouble(session, now, thresholds)
  return trouble === null && session.trouble === null ? session : { ...session, trouble }
}
