/**
 * Workers that fold whole JSONL files in parallel (fold-worker.ts), for a cold index of many files: 1 GiB
 * of transcripts is mostly parsing, and every core can take a share. Each worker has a bounded heap of
 * its own, so the engine's thread stays small while they read. Threads for a command that answers and
 * exits (they start faster); processes for an engine that runs on, which get back to the system all the
 * memory the index took (startProcess). Where no worker can start (the script is not beside this module,
 * a runtime without workers), `openFoldPool` says so and the caller folds on its own thread: the same
 * code, only slower.
 */
import { fork } from 'node:child_process'
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
      /** The summary as the index keeps it (FOLDER_ENCODINGS, `asciiJsonText`): one string to copy. */
      summaryJson: string
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

/** How to start a fold worker here: as a thread (`url`) or as a process (`path`, `execArgv`). */
interface WorkerScript {
  url: URL
  path: string
  execArgv: string[]
}

/**
 * The worker script next to this module: built (`.mjs`, `.js`), or, from the sources, the `.ts` file run
 * through tsx (bin/navi.cjs, tests): a thread runs a tiny module that registers tsx first, then imports it;
 * a process is started with tsx's loader.
 */
function workerScript(): WorkerScript | null {
  // Beside this module (the CLI bundle), or one folder up from a shared chunk (the Electron build). The
  // CommonJS build first: its fold is faster (scripts/cli-bundle.ts, buildFoldWorker).
  for (const name of [
    'fold-worker.cjs',
    'fold-worker.mjs',
    'fold-worker.js',
    '../fold-worker.cjs',
    '../fold-worker.js',
  ]) {
    const url = new URL(`./${name}`, import.meta.url)
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url)))
      return { url, path: fileURLToPath(url), execArgv: [] }
  }
  const source = new URL('./fold-worker.ts', import.meta.url)
  if (source.protocol !== 'file:' || !existsSync(fileURLToPath(source))) return null
  const tsx = tsxEntries()
  if (tsx === null) return null
  const boot = `import { register } from ${JSON.stringify(tsx.api)}; register(); await import(${JSON.stringify(source.href)});`
  return {
    url: new URL(`data:text/javascript,${encodeURIComponent(boot)}`),
    path: fileURLToPath(source),
    execArgv: ['--import', tsx.loader],
  }
}

/** tsx's ES module API and its loader (their `import` exports: `require.resolve` would give CommonJS). */
function tsxEntries(): { api: string; loader: string } | null {
  try {
    const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json')
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      exports?: Record<string, { import?: { default?: string } } | string>
    }
    const fileOf = (key: string): string | null => {
      const entry = manifest.exports?.[key]
      const file = typeof entry === 'object' ? entry.import?.default : entry
      return file ? pathToFileURL(join(dirname(manifestPath), file)).href : null
    }
    const api = fileOf('./esm/api')
    const loader = fileOf('.')
    return api && loader ? { api, loader } : null
  } catch {
    // No tsx beside the sources: no workers, the caller folds on its own thread.
    return null
  }
}

/** One fold worker, a thread or a process: what the pool needs of it. */
interface FoldEndpoint {
  post(job: FoldJob): void
  onMessage(listener: (outcome: FoldOutcome) => void): void
  onError(listener: (error: Error) => void): void
  onExit(listener: (code: number | null) => void): void
  end(): Promise<void>
}

function startThread(script: WorkerScript): FoldEndpoint {
  const worker = new Worker(script.url, { resourceLimits: WORKER_LIMITS })
  return {
    post: (job) => worker.postMessage(job),
    onMessage: (listener) => void worker.on('message', listener),
    onError: (listener) => void worker.on('error', listener),
    onExit: (listener) => void worker.on('exit', listener),
    end: async () => void (await worker.terminate()),
  }
}

/**
 * A worker in a process of its own, for an engine that runs on (`navi watch`, `navi serve`, the tray):
 * all the memory a cold index took is given back to the system when the process ends. In a thread much
 * of it stayed with the engine for good (glibc keeps what a thread freed in its arenas): a `navi watch`
 * over 500 sessions that made its first index on threads held 94-99 MB in its first minutes, on
 * processes 80-90, and one started on an index 74-84. The start costs more (1 GiB: ready after 1.08 s
 * against 1.0). Its heap is bounded as a thread's is; its answers are strings (the summaries as the index
 * keeps them), sent as between threads. Electron's `fork` runs the script with its own Node.
 */
function startProcess(script: WorkerScript): FoldEndpoint {
  const child = fork(script.path, [], {
    serialization: 'advanced',
    execArgv: [
      ...script.execArgv,
      `--max-semi-space-size=${String(WORKER_LIMITS.maxYoungGenerationSizeMb / 2)}`,
      `--max-old-space-size=${String(WORKER_LIMITS.maxOldGenerationSizeMb)}`,
    ],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  return {
    post: (job) => void child.send(job),
    onMessage: (listener) => void child.on('message', (m) => listener(m as FoldOutcome)),
    onError: (listener) => void child.on('error', listener),
    onExit: (listener) => void child.on('exit', listener),
    end: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill()
      }),
  }
}

/**
 * A pool of `size` fold workers, or null when none can be started here. `processes`: each worker a
 * process of its own (startProcess), else a thread.
 */
export function openFoldPool(
  size = foldWorkerCount(),
  opts: { processes?: boolean } = {},
): FoldPool | null {
  const script = workerScript()
  if (script === null || size < 1) return null
  type Pending = {
    resolve: (o: Extract<FoldOutcome, { ok: true }>) => void
    reject: (e: Error) => void
  }
  const pending = new Map<number, Pending>()
  const queue: FoldJob[] = []
  /** Jobs posted to each live worker and not answered yet, oldest first. */
  const inFlight = new Map<FoldEndpoint, number[]>()
  let nextId = 1
  let closed = false

  /** Tops every worker up to JOBS_IN_FLIGHT, one job each per round: the biggest files go to all first. */
  const dispatch = (): void => {
    for (let depth = 1; depth <= JOBS_IN_FLIGHT; depth++) {
      for (const [worker, ids] of inFlight) {
        const job = ids.length < depth ? queue.shift() : undefined
        if (job === undefined) continue
        ids.push(job.id)
        worker.post(job)
      }
    }
  }

  const failJob = (id: number, error: Error): void => {
    pending.get(id)?.reject(error)
    pending.delete(id)
  }

  const workers = Array.from({ length: size }, () => {
    const worker = opts.processes ? startProcess(script) : startThread(script)
    worker.onMessage((outcome) => {
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
    worker.onError(died)
    worker.onExit((code) => {
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
      await Promise.all(workers.map((worker) => worker.end()))
      // Jobs a worker still held when it was ended are answered too: nothing waits forever.
      for (const id of [...pending.keys()]) failJob(id, error)
    },
  }
}
