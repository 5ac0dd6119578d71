/**
 * The on-disk index of a JsonlFileSet: per file, its identity, the offset folded up to and the
 * encoded summary, so that a restarted Navi resumes each file instead of re-reading it. It is an
 * optimization only: a missing, corrupt or foreign index reads as empty (start cold).
 */
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import { isMissingFileError, readErrorText, readRegularText } from './safe-read.ts'
import { writeFileSafely } from './safe-write.ts'

/** An index larger than this is not read (cold start instead). @default 512 MiB */
const INDEX_MAX_BYTES = 512 * 1024 * 1024

/** The layout of the index file itself; the summaries inside carry their own version. */
const INDEX_FORMAT = 'navi-jsonl-index/1'

/** One file as it was when the index was written. */
export interface IndexedFile {
  path: string
  dev: number
  ino: number
  /** Size and mtime of the last stat: when both (and dev/ino) still match, the file is not opened. */
  size: number
  mtimeMs: number
  /** End of the last complete line folded into `summary`. */
  offset: number
  /** The folder's encoding of the summary; decoded only when the file is listed again. */
  summary: unknown
}

const indexedFileSchema = z.object({
  path: z.string(),
  dev: z.number(),
  ino: z.number(),
  size: z.number(),
  mtimeMs: z.number(),
  offset: z.number().int().nonnegative(),
  summary: z.unknown(),
})

const indexSchema = z.object({
  format: z.literal(INDEX_FORMAT),
  summaryVersion: z.number(),
  files: z.array(z.unknown()),
})

/**
 * The files of the index at `file`, by path, when it was written with `summaryVersion`. Anything
 * else (missing, unreadable, not JSON, other version) is an empty index; a bad entry is skipped.
 */
export async function loadJsonlIndex(
  file: string,
  summaryVersion: number,
  onProblem: (message: string) => void = () => undefined,
): Promise<Map<string, IndexedFile>> {
  const files = new Map<string, IndexedFile>()
  let raw: unknown
  try {
    raw = JSON.parse(await readRegularText(file, { maxBytes: INDEX_MAX_BYTES }))
  } catch (error) {
    // Missing is the normal first start; anything else is worth a line: the next start is cold.
    if (!isMissingFileError(error))
      onProblem(`${file}: ${readErrorText(error)}; indexing from scratch`)
    return files
  }
  const index = indexSchema.safeParse(raw)
  if (!index.success || index.data.summaryVersion !== summaryVersion) return files
  for (const entry of index.data.files) {
    const parsed = indexedFileSchema.safeParse(entry)
    if (parsed.success)
      files.set(parsed.data.path, { ...parsed.data, summary: parsed.data.summary })
  }
  return files
}

/** Replaces the index at `file` atomically (a crash leaves the old index or the new one). */
export async function saveJsonlIndex(
  file: string,
  summaryVersion: number,
  files: readonly IndexedFile[],
): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFileSafely(file, JSON.stringify({ format: INDEX_FORMAT, summaryVersion, files }))
}
