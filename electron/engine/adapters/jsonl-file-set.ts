import { stat } from 'node:fs/promises'
import { loadJsonlIndex, saveJsonlIndex, type IndexedFile } from './jsonl-index-cache.ts'
import { createJsonlTail, type JsonlTail } from './jsonl-tail.ts'
import pLimit from 'p-limit'
import { isMissingFileError } from './safe-read.ts'

/** How one kind of JSONL file is folded into a summary. */
export interface JsonlFolder<S extends { corruptLines: number }> {
  create(path: string): S
  fold(summary: S, line: unknown): void
  /** Lines whose raw text says the fold ignores them, dropped before JSON.parse. */
  skipText?: (text: string) => boolean
}

/** How summaries are persisted, so that a new process resumes each file at its last offset. */
export interface JsonlSummaryCodec<S> {
  /** Changes whenever the fold or the encoding does: an index of another version is ignored. */
  version: number
  encode(summary: S): unknown
  /** Null when `data` is not a summary of `path`: that file is then folded from byte 0. */
  decode(data: unknown, path: string): S | null
}

export interface JsonlFileSetOptions<S> {
  /** Index file written by `flush()` and read by the first `update()`; absent: nothing persisted. */
  cache?: { file: string; codec: JsonlSummaryCodec<S> } | null
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
   * Writes the index (atomically) if anything changed since the last write; a no-op without a
   * cache. Never rejects: a failed write is reported in the `errors` of the next update.
   */
  flush(): Promise<void>
}

interface Entry<S> {
  tail: JsonlTail
  summary: S
  size: number
  mtimeMs: number
  dev: number
  ino: number
}

/** Files read at the same time: enough to overlap I/O, few enough for a 2-core machine. */
const READ_CONCURRENCY = 4

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

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
  const entries = new Map<string, Entry<S>>()
  let order: string[] = []
  /** Files of the index not claimed yet; loaded by the first update, dropped after it. */
  let indexed: Map<string, IndexedFile> | null = null
  let indexLoaded = false
  /** The index on disk is behind `entries`. */
  let dirty = false
  let flushErrors: string[] = []
  /** update() and flush() run one at a time, so a flush never sees a half-done update. */
  const exclusive = pLimit(1)

  /** The entry a previous process left for `path`, if its summary still decodes. */
  const resume = (path: string): Entry<S> | undefined => {
    const file = indexed?.get(path)
    if (!file || !cache) return undefined
    indexed?.delete(path)
    const summary = cache.codec.decode(file.summary, path)
    if (summary === null) {
      dirty = true
      return undefined
    }
    const { offset, dev, ino } = file
    const tail = createJsonlTail(path, undefined, { offset, dev, ino })
    return { tail, summary, size: file.size, mtimeMs: file.mtimeMs, dev, ino }
  }

  const refresh = async (path: string, update: JsonlFileSetUpdate): Promise<void> => {
    let info
    try {
      info = await stat(path)
    } catch (error) {
      // Listed a moment ago and gone now: it will simply not be listed next time.
      if (isMissingFileError(error)) dirty = entries.delete(path) || dirty
      else update.errors.push(`${path}: ${describe(error)}`)
      return
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
      return
    }
    const entry = known ?? {
      tail: createJsonlTail(path),
      summary: folder.create(path),
      size: -1,
      mtimeMs: -1,
      dev: -1,
      ino: -1,
    }
    entries.set(path, entry)
    dirty = true
    try {
      const result = await entry.tail.readNew({
        onReset: () => {
          entry.summary = folder.create(path)
        },
        onLine: (line) => folder.fold(entry.summary, line),
        ...(folder.skipText ? { skipText: folder.skipText } : {}),
      })
      entry.summary.corruptLines += result.corrupt
      entry.size = info.size
      entry.mtimeMs = info.mtimeMs
      entry.dev = info.dev
      entry.ino = info.ino
      update.corruptLines += result.corrupt + (result.reset ? 0 : carried)
      update.bytesRead += result.bytesRead
      if (result.bytesRead > 0 || result.reset) update.changed.push(path)
    } catch (error) {
      update.errors.push(`${path}: ${describe(error)}`)
    }
  }

  const snapshot = (): IndexedFile[] => {
    const files: IndexedFile[] = []
    if (!cache) return files
    for (const [path, entry] of entries) {
      const position = entry.tail.position()
      if (position === null) continue
      const { size, mtimeMs } = entry
      const summary = cache.codec.encode(entry.summary)
      files.push({ path, ...position, size, mtimeMs, summary })
    }
    return files
  }

  const newUpdate = (): JsonlFileSetUpdate => {
    const update = { errors: flushErrors, corruptLines: 0, bytesRead: 0, changed: [] }
    flushErrors = []
    return update
  }

  return {
    touch: (paths) =>
      exclusive(async () => {
        const update = newUpdate()
        const known = new Set(order)
        for (const path of paths) if (!known.has(path)) order.push(path)
        await pLimit(READ_CONCURRENCY).map([...new Set(paths)], (path) => refresh(path, update))
        return update
      }),
    update: (paths) =>
      exclusive(async () => {
        const update = newUpdate()
        if (cache && !indexLoaded) {
          indexLoaded = true
          indexed = await loadJsonlIndex(cache.file, cache.codec.version, (problem) =>
            update.errors.push(problem),
          )
        }
        const listed = new Set(paths)
        for (const path of entries.keys()) {
          if (!listed.has(path)) dirty = entries.delete(path) || dirty
        }
        order = [...listed]
        await pLimit(READ_CONCURRENCY).map(order, (path) => refresh(path, update))
        // Files of the index that are gone are dropped from it at the next flush.
        if (indexed !== null && indexed.size > 0) dirty = true
        indexed = null
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
    flush: () =>
      exclusive(async () => {
        if (!cache || !dirty) return
        dirty = false
        try {
          await saveJsonlIndex(cache.file, cache.codec.version, snapshot())
        } catch (error) {
          dirty = true
          flushErrors.push(`${cache.file}: ${describe(error)}`)
        }
      }),
  }
}
