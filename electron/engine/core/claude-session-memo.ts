/**
 * Claude's sessions assembled again only where something changed. A cycle the watchers started knows what
 * it read (the transcripts named, the hook inbox when it changed, the task lists named): a session none
 * of whose parts changed keeps the object the cycle before assembled. One agent writing then costs its
 * own session, not all 500 of them.
 *
 * Only a settled session is kept: one the clock alone can no longer change. A running session's status
 * moves with quiet (a reply going quiet, a stall, a long wait), so it is decided again every cycle; an
 * ended or idle one whose last sign of life is older than every such window is what it was. Pure.
 */
import type { Session } from '../../../shared/schemas/session.ts'
import { TRANSCRIPT_CATCH_UP_MS } from './claude-task-lists.ts'
import { isoMs } from './iso-ms.ts'
import { NO_LIVE_FILE_GRACE_MS, REPLY_QUIET_MS } from './session-status.ts'
import {
  assembleClaudeSession,
  claudeSessionInputs,
  type ClaudeSessionInputs,
  type ClaudeSources,
} from './claude-sessions.ts'

/**
 * Longer than every window in which the clock alone changes an ended or idle session: a last reply going
 * quiet, task files the transcript has not caught up with, the grace of a session without live files.
 */
export const SETTLED_AFTER_MS = Math.max(
  REPLY_QUIET_MS,
  TRANSCRIPT_CATCH_UP_MS,
  NO_LIVE_FILE_GRACE_MS,
)

/** A session as a cycle assembled it (null: its inputs told no folder), and from what. */
export interface AssembledSession {
  inputs: ClaudeSessionInputs
  session: Session | null
  /** From when on the clock can no longer change it (epoch ms; Infinity: not by the clock alone). */
  settledAt: number
}

/** Each session of a cycle with the inputs it was assembled from. */
export interface ClaudeAssembly {
  liveFilesSupported: boolean
  byId: ReadonlyMap<string, AssembledSession>
}

export interface ClaudeReuse {
  /** The assembly of the cycle before. */
  previous: ClaudeAssembly
  /** Transcripts this cycle read: their summaries changed in place. */
  readPaths: ReadonlySet<string>
  /** Sessions whose side transcripts or sub-agent folders this cycle read. */
  readSessions: ReadonlySet<string>
}

/**
 * The sessions of `src`; with `reuse`, a settled session whose inputs are the very ones of the cycle
 * before and whose transcripts were not read is the session assembled then (ids as claudeSessionInputs
 * gives them: a second transcript of one session id is keyed by its folder too). Also returns the
 * assembly, for the next cycle.
 */
export function assembleClaudeSessionsReusing(
  src: ClaudeSources,
  reuse: ClaudeReuse | null,
): { sessions: Session[]; assembly: ClaudeAssembly } {
  const previous =
    reuse && reuse.previous.liveFilesSupported === src.liveFilesSupported ? reuse.previous : null
  const byId = new Map<string, AssembledSession>()
  const sessions: Session[] = []
  for (const [id, inputs] of claudeSessionInputs(src)) {
    const before = previous?.byId.get(id)
    const read =
      reuse !== null &&
      (reuse.readSessions.has(id) ||
        (inputs.transcript !== null && reuse.readPaths.has(inputs.transcript.path)))
    let kept: AssembledSession
    if (
      before !== undefined &&
      !read &&
      src.now >= before.settledAt &&
      sameInputs(before.inputs, inputs)
    ) {
      kept = before
    } else {
      const session = assembleClaudeSession(id, inputs, src)
      kept = { inputs, session, settledAt: settledAt(session, inputs) }
    }
    byId.set(id, kept)
    if (kept.session) sessions.push(kept.session)
  }
  return { sessions, assembly: { liveFilesSupported: src.liveFilesSupported, byId } }
}

/**
 * From when on the clock can no longer change `session` (see SETTLED_AFTER_MS): worked out once when it is
 * assembled, so that a cycle asks a number of each of 2,000 kept sessions, not two parsed times. One with
 * no folder never shows: settled at once.
 */
function settledAt(session: Session | null, inputs: ClaudeSessionInputs): number {
  if (session === null) return -Infinity
  if (session.status !== 'ended' && session.status !== 'idle') return Infinity
  if (session.pending_request !== null) return Infinity
  const lastSign = Math.max(
    session.last_activity ? isoMs(session.last_activity) || 0 : 0,
    inputs.list?.updatedAt ? isoMs(inputs.list.updatedAt) || 0 : 0,
  )
  return lastSign + SETTLED_AFTER_MS
}

/**
 * The same parts: the same objects, since each source makes a new one when it changes. The transcript is
 * folded in place, so the same object may hold more (the caller's `read` covers that); the side spend is
 * summed anew each cycle from side transcripts that are in `read` when they grew.
 */
function sameInputs(a: ClaudeSessionInputs, b: ClaudeSessionInputs): boolean {
  return (
    a.transcript === b.transcript &&
    a.live === b.live &&
    a.hook === b.hook &&
    a.list === b.list &&
    a.hookPidAlive === b.hookPidAlive &&
    a.paneFromTree === b.paneFromTree &&
    (a.side === null) === (b.side === null)
  )
}
