/**
 * The hook inbox's index: the folded state of every session and where in the inbox the fold stopped, so
 * that a new process (every CLI command) resumes the inbox instead of folding up to 40 MB of hook lines
 * again. Laid out like the transcript index (jsonl-index-cache.ts): a header line with the SHA-256 of the
 * body line and the file's stamp (core/file-stamp.ts); an index that carries its stamp, or whose hash
 * matches, is what a Navi wrote and is used as it is, anything else is
 * ignored (the inbox is then folded from the start, as without an index).
 */
import { sha256Hex } from '../core/digest.ts'
import { carriesStamp, newFileStamp } from '../core/file-stamp.ts'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { HookSessionState } from '../core/source-records.ts'
import { isMissingFileError, readErrorText, readRegularText } from './safe-read.ts'
import { writeFileSafely } from './safe-write.ts'

const FORMAT = 'navi-hook-index/2'
const MAX_BYTES = 64 * 1024 * 1024

export interface HookIndex {
  /** The inbox file the fold followed (it may have been rotated to `.1` since). */
  dev: number
  ino: number
  /** End of the last complete line folded. */
  offset: number
  corrupt: number
  states: HookSessionState[]
}

/** An index as read: `stamped` when it still carried its stamp (else worth writing again, stamped). */
export interface LoadedHookIndex {
  index: HookIndex
  stamped: boolean
}

/** The index at `file`; null when there is none or it is not one this Navi wrote (said through onProblem). */
export async function loadHookIndex(
  file: string,
  onProblem: (message: string) => void,
): Promise<LoadedHookIndex | null> {
  let text: string
  let mtimeMs = Number.NaN
  try {
    text = await readRegularText(file, {
      maxBytes: MAX_BYTES,
      stats: (stats) => (mtimeMs = stats.mtimeMs),
    })
  } catch (error) {
    if (!isMissingFileError(error))
      onProblem(`${file}: ${readErrorText(error)}; folding the inbox again`)
    return null
  }
  const split = text.indexOf('\n')
  try {
    const header = JSON.parse(text.slice(0, split)) as {
      format?: unknown
      sha256?: unknown
      stamp?: unknown
    }
    const body = text.slice(split + 1)
    if (split === -1 || header.format !== FORMAT) return null
    const stamped = carriesStamp(mtimeMs, header.stamp)
    if (!stamped && header.sha256 !== sha256Hex(body)) return null
    return { index: JSON.parse(body) as HookIndex, stamped }
  } catch {
    // Not an index Navi wrote (a crash cannot leave one half-written: it is replaced atomically).
    return null
  }
}

export async function saveHookIndex(file: string, index: HookIndex): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const body = JSON.stringify(index)
  const stamp = newFileStamp()
  const header = JSON.stringify({ format: FORMAT, sha256: sha256Hex(body), stamp })
  // A cache: not synced to the disk (a power cut costs folding the inbox again, not a fact).
  await writeFileSafely(file, `${header}\n${body}`, { fsync: false, stampMs: stamp })
}
