/**
 * Turn bookkeeping for the transcript fold: a turn opens at a prompt (or a background task's
 * notification), collects the agent's latest text, and closes at a marker. Which lines are markers, by CLI
 * version (corpus of real files and runs of 2.1.197 / 2.1.330):
 * - an assistant line with a stop reason other than `tool_use` (`end_turn`): 1.0.43, 2.0.37/2.0.42,
 *   2.1.114 main files, 2.1.197, 2.1.330;
 * - `system/turn_duration` (2.1.39 for most turns, 2.1.114+);
 * - `system/stop_hook_summary` (2.0.76+, only where Stop hooks are configured);
 * - a subtype-less `system` line reporting a Stop hook (1.0.43 to 1.0.56);
 * - the next prompt, when the turn's last line was a reply (every version);
 * - and, decided with the clock in `session-status.ts`, a final reply followed by quiet (1.0.x to 2.1.42
 *   write the final reply with `stop_reason: null` and nothing after it). Pure; mutates the summary.
 */
import type { CompletedTurn, TranscriptSummary, TurnRecord } from './source-records.ts'

/** What a turn keeps of the agent's reply: enough for an excerpt, never a whole document. */
export const REPLY_MAX = 500
/** Finished turns whose end time is kept: enough to count an hour of a busy session. */
export const RECENT_TURN_ENDS = 20

export function openTurn(summary: TranscriptSummary, prompt: string | null, at: string): void {
  closeTurnIfReplied(summary)
  summary.openTurn = { prompt, startedAt: at, reply: null, replyAt: null }
}

export function recordReply(summary: TranscriptSummary, text: string, at: string): void {
  const turn = summary.openTurn
  if (!turn) return
  const trimmed = text.trim()
  if (trimmed === '') return
  turn.reply = trimmed.length > REPLY_MAX ? `${trimmed.slice(0, REPLY_MAX - 1)}…` : trimmed
  turn.replyAt = at
}

/** Closes the open turn at `at` (a turn-end marker); `durationMs` when the CLI measured it. */
export function closeTurn(summary: TranscriptSummary, at: string, durationMs?: number): void {
  const turn = summary.openTurn
  if (!turn) {
    // A second marker for a turn already closed (stop_hook_summary, then turn_duration) may carry the
    // CLI's own measure of it.
    if (durationMs !== undefined && summary.lastTurn) summary.lastTurn.durationMs = durationMs
    return
  }
  summary.lastTurn = completed(turn, at, durationMs)
  summary.turnsCompleted++
  summary.recentTurnEnds = [...summary.recentTurnEnds, at].slice(-RECENT_TURN_ENDS)
  summary.openTurn = null
}

/** A new prompt after a reply with no marker: the previous turn ended with that reply. */
function closeTurnIfReplied(summary: TranscriptSummary): void {
  if (summary.tail.kind === 'reply' && summary.openTurn) closeTurn(summary, summary.tail.at)
  else summary.openTurn = null
}

/** Drops the open turn without completing it (an interrupt, an API error that ended it). */
export function abandonTurn(summary: TranscriptSummary): void {
  summary.openTurn = null
}

function completed(turn: TurnRecord, endedAt: string, durationMs?: number): CompletedTurn {
  const measured = Date.parse(endedAt) - Date.parse(turn.startedAt)
  return {
    ...turn,
    endedAt,
    durationMs: durationMs ?? (Number.isFinite(measured) && measured >= 0 ? measured : null),
  }
}

/**
 * The last finished turn, counting a final reply that has been followed by `quietMs` of silence (the
 * rule for the CLI versions that mark no turn end), and how many turns finished.
 */
export function finishedTurns(
  summary: TranscriptSummary,
  now: number,
  quietMs: number,
): { last: CompletedTurn | null; count: number; recentEnds: string[] } {
  const tail = summary.tail
  const turn = summary.openTurn
  if (tail.kind === 'reply' && turn && now - Date.parse(tail.at) >= quietMs) {
    return {
      last: completed(turn, tail.at),
      count: summary.turnsCompleted + 1,
      recentEnds: [...summary.recentTurnEnds, tail.at].slice(-RECENT_TURN_ENDS),
    }
  }
  return {
    last: summary.lastTurn,
    count: summary.turnsCompleted,
    recentEnds: summary.recentTurnEnds,
  }
}
