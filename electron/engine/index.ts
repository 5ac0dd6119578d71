/**
 * The engine: discovers sessions and projects, snapshots them, diffs snapshots into events and logs them.
 * `createEngine(opts)` is the only owner of timers and watchers; everything it decides is in `core/`.
 */
import type { EngineState } from '../../shared/schemas/state.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import { MIN_POLL_INTERVAL_MS } from '../../shared/schemas/config.ts'
import { loadConfig } from './adapters/config-file.ts'
import { createDirWatchers, type DirWatchers } from './adapters/dir-watcher.ts'
import { createEventLog } from './adapters/event-log.ts'
import { createSnapshotStore } from './adapters/snapshot-store.ts'
import { filterEvents } from './core/event-line.ts'
import { naviFiles, type EnginePaths } from './core/paths.ts'
import {
  emptyDiagnostics,
  messageOf,
  runCycle,
  type CycleDiagnostics,
  type SessionWithProject,
} from './cycle.ts'
import { isPidAlive } from './adapters/process.ts'
import { createRepoTracker } from './repo-tracker.ts'
import { isOwnWrite, noteChange, watchedDirs } from './watched-dirs.ts'
import { createSessionSources, fullScan, type SessionSources, type SourceHints } from './sources.ts'

export interface EngineOptions {
  paths: EnginePaths
  /** Milliseconds since the epoch; injected by tests. @default Date.now */
  clock?: () => number
  /** Watch files and repositories between polls. @default true */
  watch?: boolean
  /** How soon after a file change a cycle runs. @default 100 */
  debounceMs?: number
  /**
   * Least time between the starts of two watcher-triggered cycles: an agent writing its transcript many
   * times a second costs a few cycles a second, while an isolated change still waits only `debounceMs`.
   * @default 400
   */
  minCycleIntervalMs?: number
  /** How often the pids of live sessions are re-checked (a `kill -9` leaves no file change). @default 2000 */
  livenessIntervalMs?: number
  /**
   * First wait before a cycle runs again when what it derived could not be made durable (event log or
   * snapshots not writable); doubled each time up to 10 s (or the poll interval). @default 1000
   */
  retryMs?: number
  /**
   * Told of every failure the engine survives: a cycle that threw, a listener that threw. The same text is
   * also in `getState().errors` while it lasts. @default writes one line to stderr
   */
  onError?: (message: string) => void
  /** Where sessions come from. @default the Claude Code and Codex files under `paths` */
  sources?: SessionSources
}

export type EngineListener = (events: EngineEvent[], state: EngineState) => void

export interface Engine {
  /** First cycle, then watchers and the poll timer. */
  start(): Promise<EngineState>
  /** Stops timers and watchers and waits for a running cycle to finish writing. */
  stop(): Promise<void>
  /** Runs one cycle now over every source; `force` also re-reads every repository with git. */
  refresh(opts?: { force?: boolean }): Promise<EngineState>
  getState(): EngineState
  /** Every session of the last cycle, ended ones included, with its project's name. */
  getSessions(): SessionWithProject[]
  subscribe(listener: EngineListener): () => void
  listEvents(query: { sinceMs?: number; project?: string }): Promise<EngineEvent[]>
  diagnostics(): CycleDiagnostics
}

/** Longest wait between two retries of a cycle whose results are not durable yet (a full disk). */
const MAX_RETRY_MS = 10_000

/** How often, at most, the transcript indexes are written between cycles (and always on stop). */
const INDEX_FLUSH_INTERVAL_MS = 30_000

export function createEngine(opts: EngineOptions): Engine {
  const clock = opts.clock ?? Date.now
  const files = naviFiles(opts.paths)
  const log = createEventLog(files.eventLog, { clock })
  const store = createSnapshotStore(files.snapshotsDir)
  const sources = opts.sources ?? createSessionSources(opts.paths)
  const listeners = new Set<EngineListener>()
  const watching = opts.watch ?? true
  const repos = createRepoTracker({ watch: watching, onChange: () => schedule() })

  let state: EngineState = {
    projects: [],
    generated_at: new Date(clock()).toISOString(),
    errors: [],
  }
  let diagnostics: CycleDiagnostics = emptyDiagnostics()
  let sessions: SessionWithProject[] = []
  let running: Promise<EngineState> | null = null
  let rerun = false
  let forceNext = false
  let stopped = false
  let debounce: NodeJS.Timeout | null = null
  let pollTimer: NodeJS.Timeout | null = null
  let livenessTimer: NodeJS.Timeout | null = null
  let watchers: DirWatchers | null = null
  let pollIntervalMs = 30_000
  let prevSnapshots: Awaited<ReturnType<typeof store.loadAll>> | null = null
  let lastIndexFlush: number | null = null
  let pendingHints: SourceHints = fullScan()
  let unsaved = new Set<string>()
  let baselineAt: string | null = null
  let retryTimer: NodeJS.Timeout | null = null
  let retryDelayMs = opts.retryMs ?? 1000
  const onError =
    opts.onError ?? ((message: string) => void process.stderr.write(`navi engine: ${message}\n`))
  const noHints = (): SourceHints => ({ ...fullScan(), full: false })

  const cycle = async (force: boolean): Promise<EngineState> => {
    const hints = pendingHints
    pendingHints = noHints()
    prevSnapshots ??= await store.loadAll()
    const config = await loadConfig(opts.paths)
    // config.yaml and settings.json already refuse less; a floor here covers any other way in.
    pollIntervalMs = Math.max(MIN_POLL_INTERVAL_MS, config.config.pollIntervalMs)
    const result = await runCycle({
      now: clock(),
      naviHome: opts.paths.naviHome,
      config,
      sources,
      repos,
      store,
      log,
      prev: prevSnapshots,
      force,
      hints,
      unsaved,
      baselineAt,
    })
    prevSnapshots = result.snapshots
    unsaved = result.unsaved
    baselineAt = result.baselineAt
    diagnostics = result.diagnostics
    state = result.state
    sessions = result.sessions
    if (result.pending) scheduleRetry()
    else retryDelayMs = opts.retryMs ?? 1000
    notify(result.events)
    // The transcript indexes can be large: written after the first cycle, then at most this often.
    if (lastIndexFlush === null || clock() - lastIndexFlush >= INDEX_FLUSH_INTERVAL_MS) {
      lastIndexFlush = clock()
      await sources.flush()
    }
    return state
  }

  /** Every listener hears every batch, whatever another one throws. */
  const notify = (events: EngineEvent[]): void => {
    if (stopped) return
    for (const listener of listeners) {
      try {
        listener(events, state)
      } catch (error) {
        onError(`a listener failed: ${messageOf(error)}`)
      }
    }
  }

  /**
   * A cycle that threw (a bug, or a failure no source caught) keeps the last good state, says so in its
   * errors and runs again soon: one bad input must never leave the engine silent.
   */
  const cycleFailed = (error: unknown): EngineState => {
    const message = `cycle failed: ${messageOf(error)}`
    onError(message)
    state = {
      ...state,
      generated_at: new Date(clock()).toISOString(),
      errors: [...state.errors.filter((e) => !e.startsWith('cycle failed: ')), message],
    }
    notify([])
    scheduleRetry()
    return state
  }

  /** Runs a full cycle again after a growing delay, while what was derived is not durable. */
  const scheduleRetry = (): void => {
    if (stopped || retryTimer) return
    const delay = retryDelayMs
    retryDelayMs = Math.min(retryDelayMs * 2, MAX_RETRY_MS, pollIntervalMs)
    retryTimer = setTimeout(() => {
      retryTimer = null
      pendingHints.full = true
      run(false).catch(cycleFailed)
    }, delay)
    retryTimer.unref?.()
  }

  const run = (force: boolean): Promise<EngineState> => {
    forceNext ||= force
    if (running) {
      rerun = true
      return running
    }
    const go = async (): Promise<EngineState> => {
      let last: EngineState
      do {
        rerun = false
        const f = forceNext
        forceNext = false
        try {
          last = await cycle(f)
        } catch (error) {
          last = cycleFailed(error)
        }
      } while (rerun && !stopped)
      return last
    }
    running = go().finally(() => {
      running = null
    })
    return running
  }

  let lastCycleStart = Number.NEGATIVE_INFINITY
  const schedule = (): void => {
    if (stopped || debounce) return
    const sinceLast = performance.now() - lastCycleStart
    const wait = Math.max(opts.debounceMs ?? 100, (opts.minCycleIntervalMs ?? 400) - sinceLast)
    debounce = setTimeout(() => {
      debounce = null
      lastCycleStart = performance.now()
      run(false).catch(cycleFailed)
    }, wait)
  }

  const armPoll = (): void => {
    if (stopped) return
    pollTimer = setTimeout(() => {
      watchers?.ensure()
      pendingHints.full = true
      run(false).catch(cycleFailed).finally(armPoll)
    }, pollIntervalMs)
  }

  return {
    async start() {
      stopped = false
      const first = await run(true)
      if (watching) {
        watchers = createDirWatchers(watchedDirs(opts.paths), (dir, file) => {
          if (isOwnWrite(opts.paths, dir, file)) return
          if (noteChange(pendingHints, opts.paths, dir, file)) watchers?.ensure()
          schedule()
        })
        watchers.ensure()
        let known = new Set(sources.watchedPids())
        livenessTimer = setInterval(() => {
          const alive = new Set(sources.watchedPids().filter((pid) => isPidAlive(pid)))
          if ([...known].some((pid) => !alive.has(pid))) schedule()
          known = alive
        }, opts.livenessIntervalMs ?? 2000)
        livenessTimer.unref()
      }
      armPoll()
      return first
    },
    async stop() {
      stopped = true
      if (debounce) clearTimeout(debounce)
      if (pollTimer) clearTimeout(pollTimer)
      if (livenessTimer) clearInterval(livenessTimer)
      if (retryTimer) clearTimeout(retryTimer)
      watchers?.close()
      repos.close()
      await running?.catch(() => undefined)
      await sources.flush()
      await log.close()
    },
    refresh(o) {
      pendingHints.full = true
      return run(o?.force ?? true)
    },
    getState: () => state,
    getSessions: () => sessions,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async listEvents(query) {
      const { events } = await log.readAll()
      const since = query.sinceMs !== undefined ? clock() - query.sinceMs : undefined
      return filterEvents(events, {
        ...(since !== undefined ? { since } : {}),
        ...(query.project ? { project: query.project } : {}),
      })
    },
    diagnostics: () => diagnostics,
  }
}

export { emptyDiagnostics } from './cycle.ts'
export type { CycleDiagnostics, SessionWithProject } from './cycle.ts'
