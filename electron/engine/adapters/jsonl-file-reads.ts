/**
 * How a JSONL file set (jsonl-file-set.ts) reads the files that changed: appends on this thread, and a
 * cold start's new files on fold workers (fold-pool.ts) while this thread takes the rest.
 */
import type { Stats } from 'node:fs'
import pLimit from 'p-limit'
import type { FoldPool } from './fold-pool.ts'
import { FOLDER_ENCODINGS, type FolderName } from './jsonl-folders.ts'
import type { JsonlFileSetOptions, JsonlFileSetUpdate } from './jsonl-file-set.ts'
import type { JsonlFolder } from './jsonl-fold-contract.ts'
import { createJsonlTail, type JsonlTail } from './jsonl-tail.ts'

/** What the set keeps of one file: its tail, its summary, and the stat they answer to. */
export interface FileEntry<S> {
  tail: JsonlTail
  summary: S
  size: number
  mtimeMs: number
  dev: number
  ino: number
  /**
   * The index's text of `summary` (`asciiJsonText` of its encoding), while it holds: null once the
   * summary changed. A save encodes only the files that changed since the last one.
   */
  summaryJson: string | null
}

/** A file that changed, and what is known of it before it is read. */
export interface PlannedRead<S> {
  path: string
  entry: FileEntry<S>
  info: Stats
  /** Corrupt lines its resumed summary carries (reported on the first update of a process). */
  carried: number
  /** Never read by this set nor indexed: it is folded from its first byte. */
  fromStart: boolean
}

/** Files read at the same time: enough to overlap I/O, few enough for a 2-core machine. */
const READ_CONCURRENCY = 4
/**
 * New bytes read with blocking calls on this thread: an agent's append (a few KiB) is read in
 * microseconds from the page cache, while open, stat, read and close through the thread pool were most
 * of a running engine's cycle on a busy machine. More than this goes through the pool, so a big file
 * never holds the thread.
 */
const BLOCKING_READ_MAX_BYTES = 256 * 1024

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Records the stat a read answered to, so an unchanged file is not opened again. */
function settle<S>(entry: FileEntry<S>, info: Stats): void {
  entry.summaryJson = null
  entry.size = info.size
  entry.mtimeMs = info.mtimeMs
  entry.dev = info.dev
  entry.ino = info.ino
}

interface ReadContext<S extends { corruptLines: number }> {
  folder: JsonlFolder<S>
  parallel: JsonlFileSetOptions<S>['parallel']
  /** The set's entries now: a worker's answer for a file dropped or replaced meanwhile is not kept. */
  entries: ReadonlyMap<string, FileEntry<S>>
  /** Handed the ending of a pool whose work is done: the set tells a failure with its next update. */
  ending(closed: Promise<void>): void
}

/** Folds what `plan` needs on this thread. */
async function readHere<S extends { corruptLines: number }>(
  { folder }: ReadContext<S>,
  plan: PlannedRead<S>,
  update: JsonlFileSetUpdate,
): Promise<void> {
  const { path, entry, info, carried } = plan
  const unread = info.size - entry.tail.offset
  try {
    const result = await entry.tail.readNew({
      blocking: unread >= 0 && unread <= BLOCKING_READ_MAX_BYTES,
      onReset: () => {
        entry.summary = folder.create(path)
      },
      onLine: (line) => folder.fold(entry.summary, line),
      ...(folder.parseLine ? { parseLine: folder.parseLine } : {}),
      ...(folder.skipLine ? { skipLine: folder.skipLine } : {}),
    })
    entry.summary.corruptLines += result.corrupt
    settle(entry, info)
    update.corruptLines += result.corrupt + (result.reset ? 0 : carried)
    update.bytesRead += result.bytesRead
    if (result.bytesRead > 0 || result.reset) update.changed.push(path)
  } catch (error) {
    update.errors.push(`${path}: ${describeError(error)}`)
  }
}

/** Folds a new file on a worker; where the worker fails, on this thread after all. */
async function readOnWorker<S extends { corruptLines: number }>(
  context: ReadContext<S>,
  pool: FoldPool,
  folderName: FolderName,
  plan: PlannedRead<S>,
  update: JsonlFileSetUpdate,
  failures: string[],
): Promise<void> {
  const { path, entry, info } = plan
  let outcome
  try {
    outcome = await pool.fold(folderName, path)
  } catch (error) {
    // A worker out of memory or gone: this thread reads the file instead, from where its tail stands.
    failures.push(describeError(error))
    await readHere(context, plan, update)
    return
  }
  if (context.entries.get(path) !== entry) return
  // Folded and encoded on the worker: the same text is the summary here and the file's index entry.
  let summary = null
  let problem = "the worker's summary names another file"
  try {
    summary = FOLDER_ENCODINGS[folderName].revive(JSON.parse(outcome.summaryJson), path)
  } catch (error) {
    problem = `the worker's summary does not read back (${describeError(error)})`
  }
  if (summary === null) {
    // Folded here instead, from where its tail stands (never moved by the worker's answer).
    failures.push(`${path}: ${problem}`)
    await readHere(context, plan, update)
    return
  }
  entry.summary = summary as unknown as S
  entry.tail = createJsonlTail(path, undefined, outcome.position)
  settle(entry, info)
  entry.summaryJson = outcome.summaryJson
  update.corruptLines += outcome.corrupt
  update.bytesRead += outcome.bytesRead
  update.changed.push(path)
  update.onWorkers++
}

/**
 * Reads every planned file: on this thread, or, for a cold start with much to read, new files on fold
 * workers while this thread takes the rest.
 */
export async function readPlanned<S extends { corruptLines: number }>(
  context: ReadContext<S>,
  plans: PlannedRead<S>[],
  update: JsonlFileSetUpdate,
): Promise<void> {
  const { parallel } = context
  const fresh = plans.filter((p) => p.fromStart)
  const freshBytes = fresh.reduce((sum, p) => sum + p.info.size, 0)
  const cold = parallel && fresh.length > 1 && freshBytes >= parallel.minBytes
  // The pool (and `worker_threads` with it) is loaded for a cold read alone.
  const pool = !cold
    ? null
    : parallel.openPool
      ? parallel.openPool()
      : (await import('./fold-pool.ts')).openFoldPool(undefined, {
          processes: parallel.processes ?? false,
        })
  if (!pool || !parallel) {
    await pLimit(READ_CONCURRENCY).map(plans, (plan) => readHere(context, plan, update))
    return
  }
  try {
    // Largest first, so that no worker is left with one big file at the end.
    const onWorkers = [...fresh].sort((a, b) => b.info.size - a.info.size)
    const here = plans.filter((p) => !p.fromStart)
    const failures: string[] = []
    await Promise.all([
      ...onWorkers.map((plan) =>
        readOnWorker(context, pool, parallel.folder, plan, update, failures),
      ),
      pLimit(READ_CONCURRENCY).map(here, (plan) => readHere(context, plan, update)),
    ])
    // Nothing is lost (each file was folded here instead), but a cold index took longer: worth a note.
    if (failures.length > 0)
      update.notes.push(
        `fold workers failed on ${String(failures.length)} file(s), folded on the engine's thread instead: ${failures[0]}`,
      )
  } finally {
    // Not waited for: the workers end on their threads while this one goes on with the cycle (ending two
    // took 6 ms of a cold start's tail); every answer is in, nothing of theirs is needed any more.
    context.ending(pool.close())
  }
}
