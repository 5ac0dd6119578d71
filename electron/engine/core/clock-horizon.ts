/**
 * Until when the clock alone cannot change what a cycle derived at `now`: the instant the first window
 * of the engine's rules could close, or `now` itself when some session may change at any moment. A
 * one-shot command that finds every file it read unchanged may show the answer it computed before only
 * until then (runtime/answer-cache/).
 *
 * The windows, and what they look at:
 * - a session's status: a running one moves with quiet (a reply going quiet, a stall, a long wait, an
 *   answer window), so any session that is not ended or idle, or that waits on its user, may change any
 *   moment; an ended or idle one is settled once its last sign of life is older than every such window
 *   (claude-session-memo.ts's rule); a Codex session that is idle ends after CODEX_IDLE_END_MS of quiet;
 * - a project's snapshot (snapshot.ts): ended sessions shown for a day, projects kept for a week, active
 *   for an hour after their last activity, stale after a day, turns counted for an hour — each the
 *   session's or project's time plus the window;
 * - the event log keeps a day of events: the listed events change when the oldest turns a day old;
 * - a snoozed item shows again when its snooze ends.
 * Pure.
 */
import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'
import type { Session } from '../../../shared/schemas/session.ts'
import { SETTLED_AFTER_MS } from './claude-session-memo.ts'
import { EVENT_MAX_AGE_MS } from './event-line.ts'
import { isoMs } from './iso-ms.ts'
import { CODEX_IDLE_END_MS } from './session-status.ts'
import {
  ACTIVE_WINDOW_MS,
  PROJECT_RETENTION_MS,
  SESSION_RETENTION_MS,
  STALE_AFTER_MS,
} from './snapshot.ts'

/** The snapshot windows, each measured from a session's or a project's time. */
const SNAPSHOT_WINDOWS = [
  SESSION_RETENTION_MS,
  PROJECT_RETENTION_MS,
  ACTIVE_WINDOW_MS,
  STALE_AFTER_MS,
] as const

export interface HorizonInput {
  /** When the cycle derived it all (epoch ms). */
  now: number
  /** Every session of the cycle, ended ones included. */
  sessions: readonly Session[]
  projects: readonly ProjectSnapshot[]
  /** Events an answer lists. */
  events?: readonly { timestamp: string }[]
  /** The `until` of every dismissal an answer was filtered by (null: for good). */
  dismissedUntil?: readonly (string | null)[]
}

/**
 * The first instant (epoch ms) at which the clock alone may change what was derived at `input.now`: the
 * same derivation at any time before it gives the same answer. `input.now` when it may change at once.
 */
export function clockHorizon(input: HorizonInput): number {
  const { now } = input
  let horizon = Number.POSITIVE_INFINITY
  /** A window that closes at `at`: the answer holds up to it. */
  const closesAt = (at: number): void => {
    if (at >= now && at < horizon) horizon = at
  }
  for (const session of input.sessions) {
    const settledAt = sessionSettledAt(session)
    if (settledAt > now) return now
    const last = timeOf(session.last_activity)
    if (session.agent === 'codex' && session.status === 'idle') closesAt(last + CODEX_IDLE_END_MS)
    for (const window of SNAPSHOT_WINDOWS) closesAt(last + window)
    // Turns ended in the last hour are counted, unless the session was quiet all hour (snapshot.ts's
    // turnActivity looks at no end then, and parsing 20 ends of 500 sessions was most of this).
    const quietAllHour =
      session.last_activity !== null && isoMs(session.last_activity) < now - ACTIVE_WINDOW_MS
    if (!quietAllHour)
      for (const end of session.recent_turn_ends) closesAt(timeOf(end) + ACTIVE_WINDOW_MS)
  }
  for (const project of input.projects) {
    const times = [project.last_activity, project.git?.recent_commits[0]?.timestamp ?? null]
    for (const time of times)
      if (time !== null) for (const window of SNAPSHOT_WINDOWS) closesAt(timeOf(time) + window)
  }
  for (const event of input.events ?? []) {
    const droppedAt = timeOf(event.timestamp) + EVENT_MAX_AGE_MS
    // Older than the log keeps: the next prune, whenever it is due, drops it.
    if (droppedAt < now) return now
    closesAt(droppedAt)
  }
  for (const until of input.dismissedUntil ?? []) if (until !== null) closesAt(timeOf(until))
  return horizon
}

/**
 * From when on the clock alone cannot change the session's status (Infinity: it may change any moment):
 * ended or idle, waiting on nobody, and its last sign of life (its activity, its task lists) older than
 * every window of quiet.
 */
export function sessionSettledAt(session: Session): number {
  if (session.status !== 'ended' && session.status !== 'idle') return Number.POSITIVE_INFINITY
  if (session.pending_request !== null) return Number.POSITIVE_INFINITY
  let lastSign = timeOf(session.last_activity)
  for (const list of session.task_lists)
    if (list.updated_at) lastSign = Math.max(lastSign, timeOf(list.updated_at))
  return lastSign + SETTLED_AFTER_MS
}

/** A time's epoch ms; an unreadable or missing one counts as the epoch (its windows closed long ago). */
const timeOf = (value: string | null): number => {
  const ms = value === null ? Number.NaN : isoMs(value)
  return Number.isNaN(ms) ? 0 : ms
}
