/**
 * What Codex keeps beside its live rollouts:
 * - older rollouts compressed in place (`rollout-….jsonl.zst`, Codex's rollout compression): decompressed
 *   with fzstd and folded whole, again only when their size or mtime changes (a compressed rollout is
 *   finished: Codex writes to the plain `.jsonl`, and while both exist the plain one is read);
 * - `session_index.jsonl`, one line per thread name given (`{"id","thread_name","updated_at"}`, appended on
 *   each rename, so the last line of a thread wins).
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import {
  emptyCodexRolloutSummary,
  foldCodexLine,
  threadIdFromRolloutPath,
} from '../core/codex-fold.ts'
import { asCappedString, isObject, latestPlausibleMs } from '../core/json-narrow.ts'
import { parseJson } from '../core/parse-json.ts'
import type { CodexRolloutSummary } from '../core/source-records.ts'
import { isMissingFileError, readErrorText, readRegularFile, readRegularText } from './safe-read.ts'

/** A compressed rollout larger than this is not read (Codex's own are a few MB). */
const MAX_COMPRESSED_BYTES = 64 * 1024 * 1024
/** Nor one that inflates past this (a compression bomb): decompression stops there. */
const MAX_DECOMPRESSED_BYTES = 512 * 1024 * 1024
const MAX_INDEX_BYTES = 16 * 1024 * 1024
const NAME_MAX = 200

export const COMPRESSED_SUFFIX = '.jsonl.zst'

interface Known {
  size: number
  mtimeMs: number
  summary: CodexRolloutSummary
}

export interface CompressedRollouts {
  /** Summaries of `paths` (each `….jsonl.zst`), reading only those that changed. */
  read(paths: readonly string[], errors: string[]): Promise<CodexRolloutSummary[]>
}

export function createCompressedRollouts(): CompressedRollouts {
  const known = new Map<string, Known>()
  return {
    async read(paths, errors) {
      const listed = new Set(paths)
      for (const path of known.keys()) if (!listed.has(path)) known.delete(path)
      const out: CodexRolloutSummary[] = []
      for (const path of paths) {
        try {
          const info = await stat(path)
          let entry = known.get(path)
          if (!entry || entry.size !== info.size || entry.mtimeMs !== info.mtimeMs) {
            entry = { size: info.size, mtimeMs: info.mtimeMs, summary: await foldCompressed(path) }
            known.set(path, entry)
          }
          out.push(entry.summary)
        } catch (error) {
          if (!isMissingFileError(error)) errors.push(`${path}: ${readErrorText(error)}`)
        }
      }
      return out
    },
  }
}

async function foldCompressed(path: string): Promise<CodexRolloutSummary> {
  const compressed = await readRegularFile(path, { maxBytes: MAX_COMPRESSED_BYTES })
  const chunks: Uint8Array[] = []
  let total = 0
  // Imported with the first compressed rollout: most machines have none.
  const { Decompress } = await import('fzstd')
  const stream = new Decompress((chunk) => {
    total += chunk.length
    if (total > MAX_DECOMPRESSED_BYTES) {
      throw new Error(`decompresses to more than ${String(MAX_DECOMPRESSED_BYTES)} bytes`)
    }
    chunks.push(chunk)
  })
  stream.push(compressed, true)
  const text = Buffer.concat(chunks).toString('utf8')
  const threadId = threadIdFromRolloutPath(path.slice(0, -'.zst'.length))
  const summary = emptyCodexRolloutSummary(threadId, path)
  const latest = latestPlausibleMs(Date.now())
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    const value = parseJson(line)
    if (value === undefined) summary.corruptLines++
    else foldCodexLine(summary, value, latest)
  }
  return summary
}

/** Thread names from `$CODEX_HOME/session_index.jsonl`; empty when there is none. */
export async function readCodexThreadNames(
  codexHome: string,
  errors: string[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>()
  const path = join(codexHome, 'session_index.jsonl')
  let text: string
  try {
    text = await readRegularText(path, { maxBytes: MAX_INDEX_BYTES })
  } catch (error) {
    if (!isMissingFileError(error)) errors.push(`${path}: ${readErrorText(error)}`)
    return names
  }
  for (const line of text.split('\n')) {
    const value = parseJson(line)
    if (!isObject(value) || typeof value.id !== 'string') continue
    const name = asCappedString(value.thread_name, NAME_MAX)
    if (name) names.set(value.id, name)
  }
  return names
}
