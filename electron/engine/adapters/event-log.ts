/**
 * `$NAVI_HOME/pm/events.jsonl`: append-only, one event a line, rolling 24 h.
 *
 * Several engines (the tray app, `navi watch`) may share the file, so every write happens under a
 * cross-process lock (file-lock.ts: proper-lockfile, a `<file>.lock` directory). Under that lock an appender first
 * reads what others appended since its last known byte offset, so its id set is current, then appends
 * only ids never logged: a restart or a second process never duplicates an event. Pruning rewrites the
 * file atomically under the same lock, so an append waiting for the lock lands in the new file and
 * nothing is lost. Corrupt lines are moved to `events.corrupt.jsonl` by the prune, never dropped. What
 * is written under the lock is also vouched for in `events.verified` (event-log-verified.ts), so a reader
 * takes those lines as they are.
 */
import pLimit from 'p-limit'
import { statSync, type Stats } from 'node:fs'
import { stat } from 'node:fs/promises'
import { dirname, join, basename } from 'node:path'
import type { EngineEvent } from '../../../shared/schemas/event.ts'
import {
  EVENT_MAX_AGE_MS,
  eventTime,
  parseEventLine,
  type EventLogContents,
  serializeEvent,
  splitLogLines,
} from '../core/event-line.ts'
import { withFileLock } from './file-lock.ts'
import {
  lastPruneOnDisk,
  logFileIdentity,
  namingFile,
  nothingToPrune,
  type EventLog,
  type EventLogClock,
  type EventLogOptions,
  type PruneResult,
} from './event-log-types.ts'
import {
  isMissingFileError,
  readRegularRange,
  readRegularFileSync,
  UnreadableFileError,
} from './safe-read.ts'
import { appendDurably, writeFileSafely } from './safe-write.ts'
import { pruneUnderLock } from './event-log-prune.ts'
import { earliest, exactEventOf, parseVerifiedLog } from '../core/event-verified.ts'
import {
  createVerifiedMarkerWriter,
  pruneWouldDropNothing,
  verifiedBytesOf,
  verifiedMarkerOf,
} from './event-log-verified.ts'

/**
 * A day of events is a few MB (1,000 events an hour is about 7 MB); a log larger than this is not read
 * (it would cost its size in memory) and nothing is appended to it: the engine reports it and keeps the
 * events until it is moved aside. @default 64 MiB
 */
const LOG_MAX_BYTES = 64 * 1024 * 1024

export type { EventLog, EventLogClock, EventLogContents, EventLogOptions, PruneResult }

/** Open (lazily: nothing is read or created before the first call) the event log in `file`. */
export function createEventLog(file: string, options: EventLogOptions = {}): EventLog {
  const clock = options.clock ?? Date.now
  const maxAgeMs = options.maxAgeMs ?? EVENT_MAX_AGE_MS
  const pruneEveryMs = options.pruneEveryMs ?? 5 * 60_000
  const stale = options.lockStaleMs ?? 10_000
  const corruptFile = join(dirname(file), `${basename(file, '.jsonl')}.corrupt.jsonl`)
  /** When the log was last pruned, by any process: a prune reads and may rewrite the whole log. */
  const prunedMarker = join(dirname(file), `${basename(file, '.jsonl')}.pruned`)
  const recordPrune = async (at: number): Promise<void> => {
    try {
      await writeFileSafely(prunedMarker, `${String(at)}\n`)
    } catch {
      // Without the marker the next process prunes again: slower, never wrong.
    }
  }
  const nowMs = (now?: Date | number): number => toMs(now ?? clock())
  const verifiedMarker = verifiedMarkerOf(file)
  const verified = createVerifiedMarkerWriter(verifiedMarker)
  /** Updates the marker; one that cannot be written only leaves the next reader validating more. */
  const vouch = async (update: () => Promise<void>): Promise<void> => {
    try {
      await update()
    } catch {
      // Like the prune marker: without it a reader is slower, never wrong.
    }
  }

  /** Ids in the file (as of `offset`), with their event time, so appends can skip known ones. */
  let known = new Map<string, number>()
  /** Bytes of the file already folded into `known`; always at a line boundary. */
  let offset = 0
  /** Which file `offset` refers to: a prune by anyone replaces the file with a new inode. */
  let identity: string | null = null
  /**
   * Ids of events whose append failed (disk full, I/O error) after it may have written some of them: one
   * found in the file later was written by this instance and is still news for its caller.
   */
  const unsettled = new Set<string>()
  let lastPruneAt = -Infinity
  /**
   * The last `readAll`, for as long as the file is the same one at the same size and time: a day of
   * events paged by the CLI (1,000 at a time) or the popover (200) is parsed once, not once a page.
   */
  let lastRead: { key: string; contents: EventLogContents } | null = null
  let closed = false
  /** One operation at a time within this instance; the file lock orders us against other instances. */
  const queue = pLimit(1)
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new Error(`event log ${file} is closed`))
    return queue(task).catch((error: unknown) => {
      throw namingFile(file, error)
    })
  }

  const withLock = <T>(task: () => Promise<T>): Promise<T> => withFileLock(file, stale, task)

  /** Fold in the lines appended (by anyone) since `offset`. Call under the lock. */
  const refresh = async (): Promise<{ size: number; partialTail: boolean }> => {
    const st = await stat(file)
    if (st.size > LOG_MAX_BYTES) {
      throw new UnreadableFileError(
        file,
        'EFBIG',
        `is ${st.size} bytes, more than a day of events ever takes (${LOG_MAX_BYTES}); move it aside ` +
          'and Navi starts a new one',
      )
    }
    if (logFileIdentity(st) !== identity || st.size < offset) {
      identity = logFileIdentity(st)
      offset = 0
    }
    // Read from one byte before the offset: it must be the newline ending the last line we folded in,
    // otherwise the file is not the one we knew (e.g. replaced twice, reusing an inode) and we start over.
    const from = Math.max(0, offset - 1)
    let bytes = await readRegularRange(file, from, st.size)
    if (offset > 0 && bytes[0] !== 0x0a) {
      offset = 0
      bytes = await readRegularRange(file, 0, st.size)
    } else if (offset > 0) {
      bytes = bytes.subarray(1)
    }
    const end = bytes.lastIndexOf(0x0a) + 1
    // The whole log (a process's first append): what the marker vouches for needs no validation.
    const whole = bytes.subarray(0, end)
    const { events } =
      offset === 0
        ? parseVerifiedLog(whole, verifiedBytesOf(verifiedMarker, whole, st))
        : { events: splitLogLines(whole.toString('utf8')).lines.map(parseEventLine) }
    for (const event of events) if (event) known.set(event.id, eventTime(event))
    offset += end
    return { size: st.size, partialTail: st.size > offset }
  }

  const append = (events: readonly EngineEvent[]): Promise<EngineEvent[]> =>
    // Nothing to write touches nothing: no lock, no read (most cycles, every read-only command).
    events.length === 0 && unsettled.size === 0
      ? Promise.resolve([])
      : serial(() =>
          withLock(async () => {
            const { size, partialTail } = await refresh()
            const fresh: EngineEvent[] = []
            const landed: EngineEvent[] = []
            const lines: string[] = []
            const batch = new Set<string>()
            let exact = true
            for (const event of events) {
              if (batch.has(event.id)) continue
              if (known.has(event.id)) {
                // Written by a failed append of ours: on disk, but its caller never heard of it.
                if (unsettled.delete(event.id)) landed.push(event)
                continue
              }
              const line = serializeEvent(event)
              // Only write what reads back as an event; anything else would be a corrupt line. An exact line
              // (the usual one) is one already: it is validated once.
              const isExact = exactEventOf(line) !== null
              if (!isExact && !parseEventLine(line)) continue
              exact &&= isExact
              batch.add(event.id)
              fresh.push(event)
              lines.push(line)
            }
            if (fresh.length === 0) return landed
            // Under the lock nobody is mid-write, so an unterminated tail is a crash leftover: end it, so our
            // first line does not get glued to it (the prune then moves it to the corrupt file).
            const text = `${partialTail ? '\n' : ''}${lines.join('\n')}\n`
            const data = Buffer.from(text, 'utf8')
            try {
              const written = await appendDurably(file, data)
              offset = size + written
            } catch (error) {
              // The ones found on disk above are still unheard of by the caller: report them next time.
              for (const event of [...landed, ...fresh]) unsettled.add(event.id)
              throw error
            }
            for (const event of fresh) {
              known.set(event.id, eventTime(event))
              unsettled.delete(event.id)
            }
            const oldest = earliest(fresh.map(eventTime))
            await vouch(() => verified.appended(file, size, data, exact && !partialTail, oldest))
            const order = new Map(events.map((event, index) => [event.id, index]))
            return [...landed, ...fresh].sort(
              (a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0),
            )
          }),
        )

  const prune = (now?: Date | number): Promise<PruneResult> =>
    serial(() =>
      withLock(async () => {
        const at = nowMs(now)
        const target = { file, corruptFile, verifiedMarker, verified, vouch, maxAgeMs }
        const sorted = async () => {
          lastPruneAt = at
          await recordPrune(at)
        }
        const { result, rewrote } = await pruneUnderLock(
          { ...target, maxBytes: LOG_MAX_BYTES, sorted },
          at,
        )
        if (rewrote) {
          identity = logFileIdentity(rewrote.stats)
          offset = rewrote.stats.size
          known = rewrote.keptIds
        }
        return result
      }),
    )

  return {
    corruptFile,
    append,
    prune,
    pruneIfDue: async (now) => {
      // A new process (every CLI command) knows when any process last pruned from the marker file.
      if (lastPruneAt === -Infinity) lastPruneAt = lastPruneOnDisk(prunedMarker, nowMs(now))
      if (nowMs(now) - lastPruneAt < pruneEveryMs) return null
      // An empty log, or one whose marker says nothing in it is old enough to go: nothing to drop, so
      // no lock, no read and no marker. Not remembered on disk: the next process looks (a stat) again.
      if (
        nothingToPrune(file) ||
        pruneWouldDropNothing(verifiedMarker, file, nowMs(now) - maxAgeMs)
      ) {
        lastPruneAt = nowMs(now)
        return null
      }
      return prune(now)
    },
    readAll: async () => {
      let bytes: Buffer
      let key: string
      let st: Stats
      // Synchronous: parsing the bytes blocks longer than reading them, and the five trips through the
      // thread pool a read takes were ~4 ms of waiting in every `navi events`.
      try {
        st = statSync(file)
        key = `${logFileIdentity(st)}:${st.size}:${st.mtimeMs}`
        if (lastRead?.key === key) return lastRead.contents
        bytes = readRegularFileSync(file, { maxBytes: LOG_MAX_BYTES })
      } catch (err) {
        if (isMissingFileError(err)) return { events: [], corrupt: 0 }
        throw err
      }
      // Written after the stat, the bytes may be newer than `key`: the next read then parses again.
      const vouched = verifiedBytesOf(verifiedMarker, bytes, st)
      lastRead = { key, contents: parseVerifiedLog(bytes, vouched) }
      return lastRead.contents
    },
    close: async () => {
      closed = true
      // Behind everything queued before.
      await queue(async () => {})
    },
  }
}

function toMs(time: Date | number): number {
  return typeof time === 'number' ? time : time.getTime()
}
