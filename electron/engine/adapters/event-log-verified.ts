/**
 * `events.verified`, the marker beside the event log: how many of the log's first bytes are exact event
 * lines Navi wrote (core/event-verified.ts) and their SHA-256. It is only ever written under the log's
 * lock, by whoever appends or prunes, after the log itself; atomically and without fsync, since losing it
 * only costs a validation. A reader believes it for exactly the bytes that still hash as it says.
 *
 * It also names the log as it stood when the marker was written (file identity, size, modification and
 * change times). A reader that finds the log still so needs no hash: every command that lists events
 * would otherwise load `node:crypto` and hash the day's log (~6 ms of `navi events`). Any write to the
 * log moves its change time, which no program can set back; a file system too coarse to tell two writes
 * in the same tick apart could hide an edit that kept the size, which only someone who can write
 * NAVI_HOME could make (the hash is not a boundary against them either).
 *
 * And it says how old the oldest event in those bytes is, so a prune that would drop nothing (the usual
 * one: it is due every 5 minutes, and a day of events takes a day to age) is known to be one without
 * reading, parsing and locking the log: that was a third of the first `navi status` after a pause.
 */
import type { Stats } from 'node:fs'
import { statSync } from 'node:fs'
import { sha256 as newSha256, sha256Hex, type Hash } from '../core/digest.ts'
import { basename, dirname, join } from 'node:path'
import * as z from 'zod'
import { parseJson } from '../core/parse-json.ts'
import { VERIFIED_EVENT_LINES_VERSION } from '../core/event-verified.ts'
import { readRegularRange, readRegularTextSync } from './safe-read.ts'
import { writeFileSafely } from './safe-write.ts'
import { logFileIdentity } from './event-log-types.ts'
import { lazySchema } from '../../../shared/schemas/lazy-schema.ts'

const FORMAT = 'navi-events-verified/1'
const NEWLINE = 0x0a

const markerSchema = lazySchema(() =>
  z.object({
    format: z.literal(FORMAT),
    version: z.number(),
    bytes: z.number().int().nonnegative(),
    sha256: z.string(),
    /** The log when the marker was written, when it was exactly the bytes vouched for. */
    log: z
      .object({ id: z.string(), size: z.number(), mtimeMs: z.number(), ctimeMs: z.number() })
      .optional(),
    /**
     * No event in the vouched bytes is older than this (epoch ms; a lower bound, exact after a prune);
     * absent where it is not known (a marker of an older Navi).
     */
    oldestMs: z.number().optional(),
  }),
)
type Marker = z.infer<typeof markerSchema>

export function verifiedMarkerOf(logFile: string): string {
  return join(dirname(logFile), `${basename(logFile, '.jsonl')}.verified`)
}

/** The marker at `path` when it is one of this version; null otherwise (missing, foreign, older). */
function readMarker(path: string): Marker | null {
  let text: string
  try {
    text = readRegularTextSync(path, { maxBytes: 4096 })
  } catch {
    // No marker yet (a log written before it existed), or not one Navi wrote: nothing is vouched for.
    return null
  }
  const parsed = markerSchema.safeParse(parseJson(text))
  return parsed.success && parsed.data.version === VERIFIED_EVENT_LINES_VERSION ? parsed.data : null
}

type LogStamp = NonNullable<Marker['log']>

function stampOf(st: Stats): LogStamp {
  return {
    id: logFileIdentity(st),
    size: st.size,
    mtimeMs: st.mtimeMs,
    ctimeMs: st.ctimeMs,
  }
}

const sameStamp = (a: LogStamp, b: LogStamp): boolean =>
  a.id === b.id && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs

/**
 * How many leading bytes of `log` (the whole file as read) the marker vouches for; 0 when none. With the
 * file's `stats` from before the read, a log the marker names as it still stands is believed unhashed.
 */
export function verifiedBytesOf(marker: string, log: Uint8Array, stats?: Stats): number {
  const found = readMarker(marker)
  if (found === null || found.bytes === 0 || found.bytes > log.length) return 0
  if (log[found.bytes - 1] !== NEWLINE) return 0
  if (
    stats !== undefined &&
    found.log !== undefined &&
    found.bytes === log.length &&
    sameStamp(found.log, stampOf(stats))
  )
    return found.bytes
  return sha256Hex(log.subarray(0, found.bytes)) === found.sha256 ? found.bytes : 0
}

/**
 * True when a prune of `logFile` at `cutoffMs` would change nothing: the marker names the log as it still
 * stands, vouches for all of it (exact lines Navi wrote, each id once, no partial tail) and says no
 * event in it is older than the cutoff. False whenever that is not certain: the prune then reads it.
 * Takes no lock: a log appended to meanwhile no longer matches the marker's stamp.
 */
export function pruneWouldDropNothing(marker: string, logFile: string, cutoffMs: number): boolean {
  const found = readMarker(marker)
  if (found?.log === undefined || found.oldestMs === undefined) return false
  if (found.oldestMs < cutoffMs || found.bytes !== found.log.size) return false
  try {
    return sameStamp(found.log, stampOf(statSync(logFile)))
  } catch {
    return false
  }
}

/** Whether the marker says how old its events are (one of an older Navi does not). */
export function markerKnowsOldest(marker: string): boolean {
  return readMarker(marker)?.oldestMs !== undefined
}

/** Keeps the marker of one log up to date as this process appends to it or prunes it. */
export interface VerifiedMarkerWriter {
  /**
   * `written` was appended at byte `at` (under the log's lock); `exact`: every line of it is exact;
   * `oldestMs`: its oldest event's time. The marker grows over it when it vouched for everything before
   * `at`; otherwise it stays as it is.
   */
  appended(
    logFile: string,
    at: number,
    written: Buffer,
    exact: boolean,
    oldestMs: number,
  ): Promise<void>
  /**
   * A prune rewrote `logFile` as `content`, whose first `exactBytes` are exact lines, none older than
   * `oldestMs`.
   */
  rewritten(logFile: string, content: Buffer, exactBytes: number, oldestMs: number): Promise<void>
}

export function createVerifiedMarkerWriter(marker: string): VerifiedMarkerWriter {
  /** The hash of the prefix the marker on disk vouches for, as this process last wrote or checked it. */
  let running: { bytes: number; digest: string; hash: Hash } | null = null

  const save = async (
    logFile: string,
    bytes: number,
    hash: Hash,
    oldestMs: number | undefined,
  ): Promise<void> => {
    const digest = hash.copy().digest('hex')
    running = { bytes, digest, hash }
    // The log as it stands now (it was written before, under the same lock), when it is exactly the
    // bytes vouched for; a log that cannot be looked at is named by its hash alone.
    let log: LogStamp | undefined
    try {
      const stamp = stampOf(statSync(logFile))
      if (stamp.size === bytes) log = stamp
    } catch {
      log = undefined
    }
    const body: Marker = {
      format: FORMAT,
      version: VERIFIED_EVENT_LINES_VERSION,
      bytes,
      sha256: digest,
      ...(log ? { log } : {}),
      // JSON has no infinity: a marker over no events says nothing of their age.
      ...(oldestMs !== undefined && Number.isFinite(oldestMs) ? { oldestMs } : {}),
    }
    await writeFileSafely(marker, `${JSON.stringify(body)}\n`, { fsync: false })
  }

  /**
   * A hash of the log's first `at` bytes when the marker vouches for exactly those, with the age of
   * their oldest event as far as it says (Infinity for none); else null.
   */
  const prefixOf = async (
    logFile: string,
    at: number,
  ): Promise<{ hash: Hash; oldestMs: number | undefined } | null> => {
    if (at === 0) return { hash: newSha256(), oldestMs: Infinity }
    const found = readMarker(marker)
    if (found === null || found.bytes !== at) return null
    const { oldestMs } = found
    if (running?.bytes === at && running.digest === found.sha256)
      return { hash: running.hash, oldestMs }
    // Another process appended meanwhile (or this one just started): hash what the marker covers.
    const hash = newSha256().update(await readRegularRange(logFile, 0, at))
    return hash.copy().digest('hex') === found.sha256 ? { hash, oldestMs } : null
  }

  return {
    async appended(logFile, at, written, exact, oldestMs) {
      const prefix = exact ? await prefixOf(logFile, at) : null
      if (prefix === null) {
        running = null
        return
      }
      const oldest = prefix.oldestMs === undefined ? undefined : Math.min(prefix.oldestMs, oldestMs)
      await save(logFile, at + written.length, prefix.hash.update(written), oldest)
    },
    async rewritten(logFile, content, exactBytes, oldestMs) {
      await save(logFile, exactBytes, newSha256().update(content.subarray(0, exactBytes)), oldestMs)
    },
  }
}
