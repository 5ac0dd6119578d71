/**
 * How a Claude transcript is folded, as one value that the engine's thread and the fold workers
 * (fold-worker.ts) both use: the summary it starts from, the line fold, and the projection that decodes
 * only the fields the fold reads. Free of zod and of everything else a worker need not load.
 */
import { basename } from 'node:path'
import { latestPlausibleMs } from '../core/json-narrow.ts'
import { projectJson } from '../core/json-projection.ts'
import type { TranscriptSummary } from '../core/source-records.ts'
import { TRANSCRIPT_PROJECTION } from '../core/transcript-fields.ts'
import { emptyTranscriptSummary, foldTranscriptLine } from '../core/transcript-fold.ts'
import type { JsonlFolder } from './jsonl-fold-contract.ts'

/** The bulky line types (2.1.330: most of a transcript's bytes, nothing Navi reads), by their head. */
const API_REQUEST_LINE = /^\{"type":"api-request-(?:shape|blob)"/
const SNAPSHOT_HEAD = /"attachment":\{"type":"prompt_snapshot"/
/** How far into a line the snapshot's marker is looked for. */
const HEAD_CHARS = 200
/**
 * A prompt snapshot (the whole system prompt) is tens of KB; below this size one costs less to fold
 * than looking for its marker costs on every line. A smaller one is folded like any other attachment
 * line (its time, directory and branch count; nothing else of it is read).
 */
export const SNAPSHOT_MIN_BYTES = 4096

/** True for a line the fold would ignore anyway and that is too big to parse for nothing. */
export function isBulkyTranscriptLine(text: string): boolean {
  if (API_REQUEST_LINE.test(text)) return true
  return Buffer.byteLength(text) >= SNAPSHOT_MIN_BYTES && snapshotInHead(text)
}

function snapshotInHead(text: string): boolean {
  return SNAPSHOT_HEAD.test(text.length > HEAD_CHARS ? text.slice(0, HEAD_CHARS) : text)
}

const API_REQUEST_HEAD = Buffer.from('{"type":"api-request-')
const API_REQUEST_KINDS = [Buffer.from('shape"'), Buffer.from('blob"')]
const SNAPSHOT_ATTACHMENT = Buffer.from('"attachment":{"type":"prompt_snapshot"')

/**
 * `isBulkyTranscriptLine` on a line's bytes, without decoding it. The 200 characters of the text rule
 * span 200 to 600 bytes: a marker found within the first 200 bytes is within them, one not found in the
 * first 800 is not; only in between is the head decoded to be exact. Only a long line's head is searched
 * (SNAPSHOT_MIN_BYTES): searching every line was a tenth of a cold index.
 */
export function isBulkyTranscriptBytes(buf: Buffer, start: number, end: number): boolean {
  if (startsWith(buf, start, end, API_REQUEST_HEAD)) {
    const after = start + API_REQUEST_HEAD.length
    if (API_REQUEST_KINDS.some((kind) => startsWith(buf, after, end, kind))) return true
  }
  if (end - start < SNAPSHOT_MIN_BYTES) return false
  const headEnd = Math.min(end, start + 4 * HEAD_CHARS)
  const found = buf.subarray(start, headEnd).indexOf(SNAPSHOT_ATTACHMENT)
  if (found === -1) return false
  if (found + SNAPSHOT_ATTACHMENT.length <= HEAD_CHARS) return true
  return snapshotInHead(buf.toString('utf8', start, headEnd))
}

function startsWith(buf: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start < prefix.length) return false
  for (let i = 0; i < prefix.length; i++) if (buf[start + i] !== prefix[i]) return false
  return true
}

export const claudeTranscriptFolder: JsonlFolder<TranscriptSummary> = {
  create: (path) => emptyTranscriptSummary(basename(path, '.jsonl'), path),
  // Times ahead of the clock by more than the allowed skew are bad values (json-narrow.ts).
  fold: (summary, line) => foldTranscriptLine(summary, line, latestPlausibleMs(Date.now())),
  // Only the fields the fold reads are decoded (core/transcript-fields.ts).
  parseLine: (buf, start, end) => projectJson(buf, start, end, TRANSCRIPT_PROJECTION),
  skipLine: isBulkyTranscriptBytes,
}
