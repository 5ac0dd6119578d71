/**
 * The shell command an agent runs again and again, as a transcript's summary keeps it: the evidence for the
 * "same command failing" and "same command repeated" rules (core/trouble.ts). Only back-to-back runs count:
 * any other tool call, or a new prompt from the user, ends the streak. Pure, in place.
 */
import { createHash } from 'node:crypto'
import type { TranscriptSummary } from './source-records.ts'
import { asCappedString, asString, isObject } from './json-narrow.ts'

/** Tools whose input is a shell command (Claude Code's). */
const SHELL_TOOLS = new Set(['Bash'])
/** What a streak shows of its command; runs are compared by a digest of all of it. */
const COMMAND_SHOWN_MAX = 300

export interface CommandStreakRecord {
  /** The command, cut to COMMAND_SHOWN_MAX characters. */
  command: string
  /** sha1 of the whole command. */
  digest: string
  runs: number
  /** The latest runs that failed in a row (a success ends the count). */
  failures: number
  /** When the first run of the streak started. */
  since: string
  /** The run whose result is still to come. */
  pendingId: string | null
}

/** A `tool_use` block: the same command as the streak's extends it, anything else ends or starts one. */
export function noteToolUse(
  summary: TranscriptSummary,
  name: string,
  id: string,
  input: unknown,
  at: string,
): void {
  const whole = SHELL_TOOLS.has(name) && isObject(input) ? asString(input.command) : null
  if (whole === null) {
    summary.commandStreak = null
    return
  }
  const digest = createHash('sha1').update(whole).digest('hex')
  const streak = summary.commandStreak
  if (streak && streak.digest === digest) {
    streak.runs++
    streak.pendingId = id
    return
  }
  summary.commandStreak = {
    command: asCappedString(whole, COMMAND_SHOWN_MAX) ?? '',
    digest,
    runs: 1,
    failures: 0,
    since: at,
    pendingId: id,
  }
}

/** A `tool_result` block: the streak's latest run failed or not. */
export function noteToolResult(
  summary: TranscriptSummary,
  toolUseId: string | null,
  isError: boolean,
): void {
  const streak = summary.commandStreak
  if (!streak || toolUseId === null || streak.pendingId !== toolUseId) return
  streak.failures = isError ? streak.failures + 1 : 0
  streak.pendingId = null
}
