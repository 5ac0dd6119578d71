/**
 * Worker threads that fold whole JSONL files in parallel (fold-worker.ts), for a cold index of many
 * files: 1 GiB of transcripts is mostly parsing, and every core can take a share. Each worker has a
 * bounded heap of its own, so the engine's thread stays small while they read, and all their memory is
 * given back when the pool closes. Where no worker can start (the script is not beside this module, a
 * runtime without worker threads), `openFoldPool` says so and the caller folds on its own thread: the
 * same code, only slower.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { TailPosition } from './jsonl-tail.ts'
import type { FolderName } from './jsonl-folders.ts'

export interface FoldJob {
  id: number
  folder: FolderName
  path: string
}

export type FoldOutcome =
  | {
      id: number
      ok: true
      summary: unknown
      position: TailPosition | null
      corrupt: number
      bytesRead: number
    }
  | { id: number; ok: false; error: string }

export interface FoldPool {
  readonly size: number
  /** Folds `path` from its first byte on a worker; rejects when the worker failed or died. */
  fold(folder: FolderName, path: string): Promise<Extract<FoldOutcome, { ok: true }>>
  /** Ends every worker; jobs not answered by then fail. */
  close(): Promise<void>
}

/**
 * Each worker's heap. The old generation holds a 16 MiB line kept whole (MAX_LINE_BYTES) several times
 * over: at 32 MiB, four lines of 15 MiB prompts and replies ran a worker out of memory (its files were then
 * folded on the engine's thread, slower). The young generation only sees one line's garbage at a time:
 * 2 MiB folds as fast as 4 and keeps the cold index's peak about 4 MB lower (an A/B of 6 cold runs of the
 * 1 GiB corpus: 102–103 MB against 104–107).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 96 }

/**
 * Jobs handed to a worker before it answers: the next file is waiting in its queue when it finishes one,
 * instead of after a trip through this thread (which idled each worker a twentieth of a cold index).
 */
const JOBS_IN_FLIGHT = 2

/** Workers for a machine with `cores` cores: one per core, at most four (reading is the other limit). */
export function foldWorkerCount(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores))
}

/**
 * The worker script next to this module: built (`.mjs`, `.js`), or, from the sources, the `.ts` file run
 * through tsx (bin/navi.cjs, tests): a tiny module registers tsx in the worker first, then imports it.
 */
function workerScript(): URL | null {
  // Beside this module (the CLI bundle), or one folder up from a shared chunk (the Electron build).
  for (const name of ['fold-worker.mjs', 'fold-worker.js', '../fold-worker.js']) {
    const url = new URL(`./${name}`, import.meta.url)
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url
  }
  const source = new URL('./fold-worker.ts', import.meta.url)
  if (source.protocol !== 'file:' || !existsSync(fileURLToPath(source))) return null
  const tsxApi = tsxEsmApi()
  if (tsxApi === null) return null
  const boot = `import { register } from ${JSON.stringify(tsxApi)}; register(); await import(${JSON.stringify(source.href)});`
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`)
}

/** tsx's ES module API (its `import` export: `require.resolve` would give the CommonJS one). */
function tsxEsmApi(): string | null {
  try {
    const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json')
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      exports?: Record<string, { import?: { default?: string } } | string>
    }
    const entry = manifest.exports?.['./esm/api']
    const file = typeof entry === 'object' ? entry.import?.default : undefined
    return file ? pathToFileURL(join(dirname(manifestPath), file)).href : null
  } catch {
    // No tsx beside the sources: no workers, the caller folds on its own thread.
    return null
  }
}

/** A pool of `size` fold workers, or null when none can be started here. */
export function openFoldPool(size = foldWorkerCount()): FoldPool | null {
  const script = workerScript()
  if (script === null || size < 1) return null
  type Pending = {
    resolve: (o: Extract<FoldOutcome, { ok: true }>) => void
    reject: (e: Error) => void
  }
  const pending = new Map<number, Pending>()
  const queue: FoldJob[] = []
  /** Jobs posted to each live worker and not answered yet, oldest first. */
  const inFlight = new Map<Worker, number[]>()
  let nextId = 1
  let closed = false

  /** Tops every worker up to JOBS_IN_FLIGHT, one job each per round: the biggest files go to all first. */
  const dispatch = (): void => {
    for (let depth = 1; depth <= JOBS_IN_FLIGHT; depth++) {
      for (const [worker, ids] of inFlight) {
        const job = ids.length < depth ? queue.shift() : undefined
        if (job === undefined) continue
        ids.push(job.id)
        worker.postMessage(job)
      }
    }
  }

  const failJob = (id: number, error: Error): void => {
    pending.get(id)?.reject(error)
    pending.delete(id)
  }

  const workers = Array.from({ length: size }, () => {
    const worker = new Worker(script, { resourceLimits: WORKER_LIMITS })
    worker.on('message', (outcome: FoldOutcome) => {
      const ids = inFlight.get(worker)
      const at = ids?.indexOf(outcome.id) ?? -1
      if (ids && at >= 0) ids.splice(at, 1)
      const waiter = pending.get(outcome.id)
      pending.delete(outcome.id)
      if (outcome.ok) waiter?.resolve(outcome)
      else waiter?.reject(new Error(outcome.error))
      dispatch()
    })
    const died = (error: Error): void => {
      // Out of memory, or it could not start: its jobs fail (the caller folds them itself), the rest go on.
      const ids = inFlight.get(worker)
      if (ids === undefined) return
      inFlight.delete(worker)
      for (const id of ids) failJob(id, error)
      if (inFlight.size === 0) for (const job of queue.splice(0)) failJob(job.id, error)
    }
    worker.on('error', died)
    worker.on('exit', (code) => {
      if (!closed) died(new Error(`fold worker exited with code ${String(code)}`))
    })
    inFlight.set(worker, [])
    return worker
  })

  return {
    size,
    fold(folder, path) {
      if (closed || inFlight.size === 0)
        return Promise.reject(new Error('no fold worker is running'))
      const id = nextId++
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject })
        queue.push({ id, folder, path })
        dispatch()
      })
    },
    async close() {
      closed = true
      const error = new Error('the fold pool is closed')
      for (const job of queue.splice(0)) failJob(job.id, error)
      await Promise.all(workers.map((worker) => worker.terminate()))
      // Jobs a worker still held when it was ended are answered too: nothing waits forever.
      for (const id of [...pending.keys()]) failJob(id, error)
    },
  }
}
