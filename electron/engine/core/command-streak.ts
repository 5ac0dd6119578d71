/**
 * The shell command an agent runs again and again, as a Claude transcript's or a Codex rollout's summary
 * keeps it: the evidence for the "same command failing" and "same command repeated" rules
 * (core/trouble.ts). Only back-to-back runs count: any other tool call, or a new prompt from the user,
 * ends the streak. Pure, in place.
 */
import { sha1Hex } from './digest.ts'
import { asCappedString, asString, isObject } from './json-narrow.ts'

/** A summary that keeps a streak (TranscriptSummary, CodexRolloutSummary). */
export interface StreakHolder {
  commandStreak: CommandStreakRecord | null
}

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

/** A Claude `tool_use` block: a shell command extends or starts the streak, any other tool ends it. */
export function noteToolUse(
  holder: StreakHolder,
  name: string,
  id: string,
  input: unknown,
  at: string,
): void {
  const command = SHELL_TOOLS.has(name) && isObject(input) ? asString(input.command) : null
  noteCall(holder, command, id, at)
}

/** A Claude `tool_result` block: the streak's latest run failed or not. */
export function noteToolResult(
  holder: StreakHolder,
  toolUseId: string | null,
  isError: boolean,
): void {
  if (toolUseId !== null) noteResult(holder, toolUseId, isError)
}

/**
 * A tool call `id`: `command` (a shell command, whole) extends the streak when it is the same, starts one
 * when it is another; null (any other tool) ends it.
 */
export function noteCall(
  holder: StreakHolder,
  command: string | null,
  id: string,
  at: string,
): void {
  if (command === null) {
    holder.commandStreak = null
    return
  }
  const digest = sha1Hex(command)
  const streak = holder.commandStreak
  if (streak && streak.digest === digest) {
    streak.runs++
    streak.pendingId = id
    return
  }
  holder.commandStreak = {
    command: asCappedString(command, COMMAND_SHOWN_MAX) ?? '',
    digest,
    runs: 1,
    failures: 0,
    since: at,
    pendingId: id,
  }
}

/**
 * The result of call `id`: when it is the streak's latest run, whether it failed (null: the result does
 * not say, and the count of failures stays as it was).
 */
export function noteResult(holder: StreakHolder, id: string, failed: boolean | null): void {
  const streak = holder.commandStreak
  if (!streak || streak.pendingId !== id) return
  if (failed !== null) streak.failures = failed ? streak.failures + 1 : 0
  streak.pendingId = null
}
