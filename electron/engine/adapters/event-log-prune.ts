/**
 * One prune of the event log, run by event-log.ts under the log's lock: events older than the maximum age
 * and second lines of an id are dropped, corrupt lines moved to the corrupt file (before the rewrite, so
 * a crash in between loses nothing), the rest written back atomically and vouched for in the marker
 * (event-log-verified.ts). The lines the marker vouches for are exact: read without the schema, and
 * known to stay exact in the rewrite.
 */
import type { Stats } from 'node:fs'
import { stat } from 'node:fs/promises'
import { pruneEventLines, splitLogLines } from '../core/event-line.ts'
import { earliest, exactPrefixBytes, linesIn } from '../core/event-verified.ts'
import type { PruneResult } from './event-log-types.ts'
import {
  markerKnowsOldest,
  verifiedBytesOf,
  type VerifiedMarkerWriter,
} from './event-log-verified.ts'
import { openRegularForAppend, readRegularFile } from './safe-read.ts'
import { writeFileSafely } from './safe-write.ts'

export interface PruneTarget {
  file: string
  corruptFile: string
  /** The log's `events.verified`, and the writer keeping it. */
  verifiedMarker: string
  verified: VerifiedMarkerWriter
  /** Updates the marker; one that cannot be written only leaves the next reader validating more. */
  vouch: (update: () => Promise<void>) => Promise<void>
  maxAgeMs: number
  maxBytes: number
  /** Told once the lines are sorted out, before anything is written (the log's prune marker). */
  sorted: () => Promise<void>
}

/** What a prune did; when it rewrote the log, the new file and the ids it kept, with their times. */
export interface PruneOutcome {
  result: PruneResult
  rewrote: { stats: Stats; keptIds: Map<string, number> } | null
}

/** Prunes `target.file` as of `at` (epoch ms). Call under the log's lock. */
export async function pruneUnderLock(target: PruneTarget, at: number): Promise<PruneOutcome> {
  const { file, verified, verifiedMarker, vouch } = target
  const content = await readRegularFile(file, { maxBytes: target.maxBytes })
  const text = content.toString('utf8')
  // Under the lock nobody appends: the file as stated is the file as read.
  const read = await stat(file)
  const { lines, partial } = splitLogLines(text)
  // Under the lock an unterminated tail is complete (missing its newline) or a crash leftover.
  if (partial.trim() !== '') lines.push(partial)
  const vouched = verifiedBytesOf(verifiedMarker, content, read)
  const exactLines = linesIn(content, vouched)
  const pruned = pruneEventLines(lines, at, target.maxAgeMs, exactLines)
  const { kept, keptIds, corrupt, dropped } = pruned
  const oldestKept = earliest(keptIds.values())
  const result = { kept: kept.length, dropped, corrupt: corrupt.length }
  await target.sorted()
  if (dropped === 0 && corrupt.length === 0 && partial === '') {
    // Nothing to rewrite; a log no marker vouches for yet (written by an older Navi, or by hand) gets one
    // for the exact lines it starts with, when it is exactly its lines, and a marker that does not say
    // how old they are learns it (so the next due prune need not read them).
    if (lines.map((line) => `${line}\n`).join('') !== text) return { result, rewrote: null }
    if (vouched < content.length)
      await vouch(() =>
        verified.rewritten(file, content, exactPrefixBytes(lines, exactLines), oldestKept),
      )
    else if (!markerKnowsOldest(verifiedMarker))
      await vouch(() => verified.rewritten(file, content, content.length, oldestKept))
    return { result, rewrote: null }
  }
  if (corrupt.length > 0) {
    const handle = await openRegularForAppend(target.corruptFile)
    try {
      await handle.appendFile(`${corrupt.join('\n')}\n`, 'utf8')
    } finally {
      await handle.close()
    }
  }
  const rewritten = Buffer.from(kept.map((line) => `${line}\n`).join(''), 'utf8')
  await writeFileSafely(file, rewritten, { fsync: true })
  const exactKept = exactPrefixBytes(kept, pruned.keptExact)
  await vouch(() => verified.rewritten(file, rewritten, exactKept, oldestKept))
  return { result, rewrote: { stats: await stat(file), keptIds } }
}
