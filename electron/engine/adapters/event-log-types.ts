/**
 * The event log's shape (event-log.ts implements it), what says whether a prune is due (the marker of
 * the last one, and a log with nothing in it), which file a log is, and its errors named by it.
 */
import type { EngineEvent } from '../../../shared/schemas/event.ts'
import type { EventLogContents } from '../core/event-line.ts'
import { statSync, type Stats } from 'node:fs'
import { isMissingFileError, readRegularTextSync } from './safe-read.ts'

/** Where the log takes "now" from (epoch ms); tests pass a fixed or stepping clock. */
export type EventLogClock = () => number | Date

export interface EventLogOptions {
  /** @default the system clock */
  clock?: EventLogClock
  /** Events older than this are pruned. @default 24 h */
  maxAgeMs?: number
  /** `pruneIfDue` prunes at most this often. @default 5 min */
  pruneEveryMs?: number
  /** A lock not refreshed for this long belongs to a dead process and is taken over. @default 10 s */
  lockStaleMs?: number
}

export interface PruneResult {
  kept: number
  /** Events older than the maximum age (and repeated ids), removed. */
  dropped: number
  /** Corrupt lines moved to the `.corrupt.jsonl` file. */
  corrupt: number
}

export interface EventLog {
  /** Append the events whose id was never logged; resolves with the ones actually written. */
  append(events: readonly EngineEvent[]): Promise<EngineEvent[]>
  /** Every event in the file, in file order; a half-written last line is ignored. Takes no lock. */
  readAll(): Promise<EventLogContents>
  /** Drop events older than the maximum age, move corrupt lines aside. */
  prune(now?: Date | number): Promise<PruneResult>
  /** `prune` when the last prune by this instance is older than `pruneEveryMs`; else null. */
  pruneIfDue(now?: Date | number): Promise<PruneResult | null>
  /** Wait for pending writes; later calls to append or prune reject. */
  close(): Promise<void>
  /** Path of the file corrupt lines are moved to. */
  readonly corruptFile: string
}

/**
 * When a marker says the log was last pruned; -Infinity (prune now) when there is none, it cannot be read,
 * or it names a time after `now` (a clock that jumped back must not put pruning off).
 */
export function lastPruneOnDisk(marker: string, now: number): number {
  let at: number
  try {
    at = Number(readRegularTextSync(marker, { maxBytes: 64 }).trim())
  } catch {
    // No marker yet (a first run), or not one Navi wrote: prune, which writes it.
    return -Infinity
  }
  return Number.isFinite(at) && at <= now ? at : -Infinity
}

/**
 * True for an empty (or missing) log: nothing to prune, so no lock and no marker (a first start, a new
 * home, paid ~10 ms of its end for them). Anything else (not a regular file: a FIFO, /dev/zero; a failure
 * to look) is left to the prune, which reports it.
 */
export function nothingToPrune(file: string): boolean {
  try {
    const st = statSync(file)
    return st.isFile() && st.size === 0
  } catch (error) {
    return isMissingFileError(error)
  }
}

/**
 * Which file the log is, whatever its content: a log replaced (a prune's rename, someone's copy) is
 * another file even at the same path. Its reader and its verified marker both go by it.
 */
export function logFileIdentity(st: Stats): string {
  return `${st.dev}:${st.ino}:${st.birthtimeMs}`
}

/** `error` with the log's path in its message when it does not name it yet (a full disk, a FIFO…). */
export function namingFile(file: string, error: unknown): unknown {
  if (!(error instanceof Error) || error.message.includes(file)) return error
  error.message = `${file}: ${error.message}`
  return error
}
