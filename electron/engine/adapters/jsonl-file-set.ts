import { statSync } from 'node:fs'
import type { FoldPool } from './fold-pool.ts'
import type { FolderName } from './jsonl-folders.ts'
import {
  loadJsonlIndex,
  saveJsonlIndex,
  type IndexedFile,
  type IndexedFileText,
} from './jsonl-index-cache.ts'
import { asciiJsonText } from '../core/ascii-json.ts'
import { decodeIndexed, type JsonlFolder, type JsonlSummaryCodec } from './jsonl-fold-contract.ts'
import { describeError, readPlanned, type FileEntry, type PlannedRead } from './jsonl-file-reads.ts'
import { createJsonlTail } from './jsonl-tail.ts'
import pLimit from 'p-limit'
import { isMissingFileError } from './safe-read.ts'

export interface JsonlFileSetOptions<S> {
  /** Index file written by `flush()` and read by the first `update()`; absent: nothing persisted. */
  cache?: { file: string; codec: JsonlSummaryCodec<S> } | null
  /**
   * New files are folded on worker threads when there are at least `minBytes` of them to read (a cold
   * index); `folder` names this set's folder among the ones a worker knows (jsonl-folders.ts).
   */
  parallel?: {
    folder: FolderName
    minBytes: number
    /** @default fold-pool.ts's `openFoldPool` (tests hand in a pool whose workers fail) */
    openPool?: () => FoldPool | null
    /** Workers in processes of their own, not threads (an engine that runs on: fold-pool.ts). */
    processes?: boolean
  } | null
}

export interface JsonlFileSetUpdate {
  /** `<path>: <message>` for each file that could not be read; the others were still folded. */
  errors: string[]
  /** Corrupt lines met during this update (each summary also counts its own). */
  corruptLines: number
  /** Bytes read during this update: 0 when no file changed. */
  bytesRead: number
  /** Files that were read (grew, or started over). */
  changed: string[]
  /** Of those, files folded on fold workers (a cold index of much to read). */
  onWorkers: number
  /** What went wrong and was worked around: every file was still read (a fold worker that failed). */
  notes: string[]
}

export interface JsonlFileSet<S> {
  /**
   * Brings the set to exactly `paths`: forgets files no longer listed, skips files whose size and
   * mtime did not change (without opening them), and folds only the appended lines of the rest.
   */
  update(paths: readonly string[]): Promise<JsonlFileSetUpdate>
  /**
   * Refreshes only `paths` (files a watcher reported), adding new ones and dropping vanished ones; the
   * rest of the set is left as the last update saw it. Cheap: one stat per path.
   */
  touch(paths: readonly string[]): Promise<JsonlFileSetUpdate>
  /** The summary of each file of the last update, in that update's order. Updated in place. */
  summaries(): S[]
  get(path: string): S | undefined
  /**
   * Says that the caller changed the summary of `path` in place (sub-agent ids merged from their folder):
   * the index encodes it again at its next write.
   */
  edited(path: string): void
  /**
   * Writes the index (atomically) if anything changed since the last write; a no-op without a
   * cache. Never rejects: a failed write is reported in the `errors` of the next update.
   */
  flush(): Promise<void>
}

const isPlanned = <S>(plan: PlannedRead<S> | null): plan is PlannedRead<S> => plan !== null

/**
 * Keeps one JsonlTail and one folded summary per file across updates. With `options.cache`, the
 * first update resumes each file from the index a previous process flushed: unchanged files are
 * not opened, grown ones are read from their indexed offset, replaced or truncated ones from 0.
 */
export function createJsonlFileSet<S extends { corruptLines: number }>(
  folder: JsonlFolder<S>,
  options: JsonlFileSetOptions<S> = {},
): JsonlFileSet<S> {
  const cache = options.cache ?? null
  const parallel = options.parallel ?? null
  const entries = new Map<string, FileEntry<S>>()
  let order: string[] = []
  /** The paths of `order`, to look one up (a touch of one file does not build a set of them all). */
  let ordered = new Set<string>()
  /** Files of the index not claimed yet; loaded by the first update, dropped after it. */
  let indexed: Map<string, IndexedFile> | null = null
  /** The summaries' texts of the index read (jsonl-index-cache.ts `summaryTexts`). */
  let indexedTexts: ReadonlyMap<string, string> = new Map()
  /** The index's hash matched: its summaries are what a Navi encoded. */
  let indexTrusted = false
  let indexLoaded = false
  /** The index on disk is behind `entries`. */
  let dirty = false
  let flushErrors: string[] = []
  /** update() and flush() run one at a time, so a flush never sees a half-done update. */
  const exclusive = pLimit(1)
  const readContext = {
    folder,
    parallel,
    entries,
    ending: (closed: Promise<void>) =>
      void closed.catch((error: unknown) => {
        flushErrors.push(`fold workers did not end: ${describeError(error)}`)
      }),
  }

  /** The entry a previous process left for `path`, if its summary still decodes. */
  const resume = (path: string): FileEntry<S> | undefined => {
    const file = indexed?.get(path)
    if (!file || !cache) return undefined
    indexed?.delete(path)
    const summary = decodeIndexed(cache.codec, file.summary, path, indexTrusted)
    if (summary === null) {
      dirty = true
      return undefined
    }
    const { offset, dev, ino } = file
    const tail = createJsonlTail(path, undefined, { offset, dev, ino })
    // Its text as the index holds it, written again as it is while the file stays unchanged.
    const summaryJson = indexedTexts.get(path) ?? null
    return { tail, summary, size: file.size, mtimeMs: file.mtimeMs, dev, ino, summaryJson }
  }

  /**
   * Looks at one file (one stat) and brings its entry up to date without reading it; returns the read it
   * needs, or null when it is unchanged, gone or unreadable (told in `update`).
   */
  const examine = (path: string, update: JsonlFileSetUpdate): PlannedRead<S> | null => {
    let info
    try {
      // Synchronous: a stat from the page cache takes microseconds, a trip through the thread pool and a
      // promise per file costs more than the stat itself (500 files: 3 ms against 20).
      info = statSync(path, { throwIfNoEntry: false })
    } catch (error) {
      if (!isMissingFileError(error)) {
        update.errors.push(`${path}: ${describeError(error)}`)
        return null
      }
    }
    // Listed a moment ago and gone now: it will simply not be listed next time.
    if (info === undefined) {
      dirty = entries.delete(path) || dirty
      return null
    }
    const resumed = entries.has(path) ? undefined : resume(path)
    const known = entries.get(path) ?? resumed
    if (known) entries.set(path, known)
    // The first update of a process reports the corrupt lines a cold read would have met.
    const carried = resumed?.summary.corruptLines ?? 0
    const unchanged =
      known &&
      known.size === info.size &&
      known.mtimeMs === info.mtimeMs &&
      known.dev === info.dev &&
      known.ino === info.ino
    if (unchanged) {
      update.corruptLines += carried
      return null
    }
    const entry = known ?? {
      tail: createJsonlTail(path),
      summary: folder.create(path),
      size: -1,
      mtimeMs: -1,
      dev: -1,
      ino: -1,
      summaryJson: null,
    }
    entries.set(path, entry)
    dirty = true
    return { path, entry, info, carried, fromStart: known === undefined }
  }

  /** The index as it is now: only the summaries that changed since they were last written are encoded. */
  const snapshot = (): IndexedFileText[] => {
    const files: IndexedFileText[] = []
    if (!cache) return files
    for (const [path, entry] of entries) {
      const position = entry.tail.position()
      if (position === null) continue
      const { size, mtimeMs } = entry
      entry.summaryJson ??= asciiJsonText(cache.codec.encode(entry.summary))
      files.push({ path, ...position, size, mtimeMs, summaryJson: entry.summaryJson })
    }
    return files
  }

  const newUpdate = (): JsonlFileSetUpdate => {
    const update: JsonlFileSetUpdate = {
      errors: flushErrors,
      corruptLines: 0,
      bytesRead: 0,
      changed: [],
      onWorkers: 0,
      notes: [],
    }
    flushErrors = []
    return update
  }

  return {
    touch: (paths) =>
      exclusive(async () => {
        const update = newUpdate()
        for (const path of paths) {
          if (ordered.has(path)) continue
          order.push(path)
          ordered.add(path)
        }
        const plans = [...new Set(paths)].map((path) => examine(path, update))
        await readPlanned(readContext, plans.filter(isPlanned), update)
        return update
      }),
    update: (paths) =>
      exclusive(async () => {
        const update = newUpdate()
        if (cache && !indexLoaded) {
          indexLoaded = true
          const loaded = await loadJsonlIndex(cache.file, cache.codec.version, (problem) =>
            update.errors.push(problem),
          )
          indexed = loaded.files
          indexedTexts = loaded.summaryTexts
          indexTrusted = loaded.trusted
          // Written again with a stamp, so the next start need not hash it.
          if (!loaded.stamped && loaded.files.size > 0) dirty = true
        }
        const listed = new Set(paths)
        for (const path of entries.keys()) {
          if (!listed.has(path)) dirty = entries.delete(path) || dirty
        }
        order = [...listed]
        ordered = listed
        const plans = order.map((path) => examine(path, update))
        await readPlanned(readContext, plans.filter(isPlanned), update)
        // Files of the index that are gone are dropped from it at the next flush.
        if (indexed !== null && indexed.size > 0) dirty = true
        indexed = null
        indexedTexts = new Map()
        return update
      }),
    summaries() {
      const out: S[] = []
      for (const path of order) {
        const entry = entries.get(path)
        if (entry) out.push(entry.summary)
      }
      return out
    },
    get(path) {
      return entries.get(path)?.summary
    },
    edited(path) {
      const entry = entries.get(path)
      if (entry) entry.summaryJson = null
    },
    flush: () =>
      exclusive(async () => {
        if (!cache || !dirty) return
        dirty = false
        try {
          await saveJsonlIndex(cache.file, cache.codec.version, snapshot())
        } catch (error) {
          dirty = true
          flushErrors.push(`${cache.file}: ${describeError(error)}`)
        }
      }),
  }
}
