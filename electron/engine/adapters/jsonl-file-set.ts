import { stat } from 'node:fs/promises'
import { createJsonlTail, type JsonlTail } from './jsonl-tail.ts'

/** How one kind of JSONL file is folded into a summary. */
export interface JsonlFolder<S extends { corruptLines: number }> {
  create(path: string): S
  fold(summary: S, line: unknown): void
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
  /** The summary of each file of the last update, in that update's order. Updated in place. */
  summaries(): S[]
  get(path: string): S | undefined
}

interface Entry<S> {
  tail: JsonlTail
  summary: S
  size: number
  mtimeMs: number
}

/** Files read at the same time: enough to overlap I/O, few enough for a 2-core machine. */
const READ_CONCURRENCY = 4

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  run: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T
      await run(item)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

/** Keeps one JsonlTail and one folded summary per file across updates. */
export function createJsonlFileSet<S extends { corruptLines: number }>(
  folder: JsonlFolder<S>,
): JsonlFileSet<S> {
  const entries = new Map<string, Entry<S>>()
  let order: string[] = []

  const refresh = async (path: string, update: JsonlFileSetUpdate): Promise<void> => {
    let info
    try {
      info = await stat(path)
    } catch (error) {
      // Listed a moment ago and gone now: it will simply not be listed next time.
      if (isMissing(error)) entries.delete(path)
      else update.errors.push(`${path}: ${describe(error)}`)
      return
    }
    const known = entries.get(path)
    if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) return
    const entry = known ?? {
      tail: createJsonlTail(path),
      summary: folder.create(path),
      size: -1,
      mtimeMs: -1,
    }
    entries.set(path, entry)
    try {
      const result = await entry.tail.readNew({
        onReset: () => {
          entry.summary = folder.create(path)
        },
        onLine: (line) => folder.fold(entry.summary, line),
      })
      entry.summary.corruptLines += result.corrupt
      entry.size = info.size
      entry.mtimeMs = info.mtimeMs
      update.corruptLines += result.corrupt
      update.bytesRead += result.bytesRead
      if (result.bytesRead > 0 || result.reset) update.changed.push(path)
    } catch (error) {
      update.errors.push(`${path}: ${describe(error)}`)
    }
  }

  return {
    async update(paths) {
      const update: JsonlFileSetUpdate = { errors: [], corruptLines: 0, bytesRead: 0, changed: [] }
      const listed = new Set(paths)
      for (const path of entries.keys()) if (!listed.has(path)) entries.delete(path)
      order = [...listed]
      await forEachLimited(order, READ_CONCURRENCY, (path) => refresh(path, update))
      return update
    },
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
  }
}
