/**
 * The engine: discovers sessions and projects, snapshots them, diffs snapshots into events and logs them.
 * `createEngine(opts)` is the only owner of timers and watchers; everything it decides is in `core/`, when
 * to run a cycle included (`core/cycle-schedule.ts`).
 */
import { monotonicMs } from './core/monotonic.ts'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineState } from '../../shared/schemas/state.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import { createDirWatchers, type DirWatchers } from './adapters/dir-watcher.ts'
import { createEventLog } from './adapters/event-log.ts'
import { createSnapshotStore } from './adapters/snapshot-store.ts'
import { createEventListing } from './event-listing.ts'
import { naviFiles } from './core/paths.ts'
import {
  emptyDiagnostics,
  messageOf,
  type CycleDiagnostics,
  type SessionWithProject,
} from './cycle.ts'
import { createCycleRunner } from './cycle-runner.ts'
import { defaultConfig } from './core/config.ts'
import { isPidAlive } from './adapters/process.ts'
import { createRepoTracker, WATCHER_TRUST_MS } from './repo-tracker.ts'
import { isOwnWrite, noteChange, noteNewlyWatched, watchedDirs } from './watched-dirs.ts'
import { createSessionSources } from './sources.ts'
import { fullScan, mergeHints, noHints, type SourceHints } from './core/source-hints.ts'
import {
  decide,
  initialSchedule,
  type Decision,
  type Schedule,
  type ScheduleInput,
  type ScheduleOptions,
} from './core/cycle-schedule.ts'

import type { Engine, EngineListener, EngineOptions } from './engine-api.ts'

export type { Engine, EngineListener, EngineOptions } from './engine-api.ts'

/** Longest wait between two retries of a cycle whose results are not durable yet (a full disk). */
const MAX_RETRY_MS = 10_000

/** Scheduling runs on a monotonic clock: a test may freeze the clock events are stamped with. */
const monotonic = monotonicMs

/**
 * The thin loop around `core/cycle-schedule.ts`: it feeds the reducer what happens (changes, timer wakes,
 * cycle ends, refreshes), keeps one timer at the reducer's `wakeAt`, and does the I/O a decision asks for.
 */
export function createEngine(opts: EngineOptions): Engine {
  const clock = opts.clock ?? Date.now
  const files = naviFiles(opts.paths)
  const log = createEventLog(files.eventLog, { clock })
  const store = createSnapshotStore(files.snapshotsDir)
  const watching = opts.watch ?? true
  const sources = opts.sources ?? createSessionSources(opts.paths, { runsOn: watching })
  const listeners = new Set<EngineListener>()
  const repos = createRepoTracker({
    watch: watching,
    onChange: () => changed(),
    marksFile: join(files.cacheDir, 'repos.json'),
  })
  const scheduleOptions: ScheduleOptions = {
    debounceMs: opts.debounceMs ?? 100,
    minCycleIntervalMs: opts.minCycleIntervalMs ?? 400,
    retryMs: opts.retryMs ?? 1000,
    maxRetryMs: MAX_RETRY_MS,
    livenessIntervalMs: opts.livenessIntervalMs ?? 2000,
  }
  const onError =
    opts.onError ?? ((message: string) => void process.stderr.write(`navi engine: ${message}\n`))

  let state: EngineState = {
    projects: [],
    generated_at: new Date(clock()).toISOString(),
    errors: [],
  }
  let diagnostics: CycleDiagnostics = emptyDiagnostics()
  let sessions: SessionWithProject[] = []
  let pollIntervalMs = defaultConfig().pollIntervalMs
  let schedule: Schedule = initialSchedule(scheduleOptions, pollIntervalMs)
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> | null = null
  /** refresh()/start() callers, answered by the end of the next cycle that starts after they asked. */
  let waiting: Array<(state: EngineState) => void> = []
  let stopped = false
  let watchers: DirWatchers | null = null
  let knownPids = new Set<number>()
  let lastFullScanAt = Number.NEGATIVE_INFINITY
  const watchFailures = new Set<string>()
  const cycles = createCycleRunner({
    paths: opts.paths,
    clock,
    sources,
    repos,
    store,
    log,
    deferSaves: watching,
  })

  /** One cycle; true when what it derived is not durable yet. */
  const cycle = async (start: NonNullable<Decision['start']>): Promise<boolean> => {
    const ran = await cycles.run(start)
    pollIntervalMs = ran.pollIntervalMs
    diagnostics = ran.result.diagnostics
    state = ran.result.state
    sessions = ran.result.sessions
    notify(ran.result.events)
    return ran.result.pending
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
   * errors and runs again soon (the reducer's retry): one bad input must never leave the engine silent.
   */
  const cycleFailed = (error: unknown): void => {
    const message = `cycle failed: ${messageOf(error)}`
    onError(message)
    state = {
      ...state,
      generated_at: new Date(clock()).toISOString(),
      errors: [...state.errors.filter((e) => !e.startsWith('cycle failed: ')), message],
    }
    notify([])
  }

  const step = (input: ScheduleInput): void => {
    const decision = decide(schedule, input, scheduleOptions)
    schedule = decision.schedule
    if (decision.checkLiveness) checkLiveness()
    if (decision.start) startCycle(decision.start)
    arm(decision.wakeAt)
  }

  const arm = (at: number | null): void => {
    if (timer) clearTimeout(timer)
    timer = null
    if (at === null) return
    timer = setTimeout(
      () => {
        timer = null
        step({ type: 'wake', now: monotonic() })
      },
      Math.max(0, at - monotonic()),
    )
    // Before start only a one-shot read's retry can be due: it must not keep a CLI process alive.
    if (!schedule.started) timer.unref()
  }

  /**
   * A poll re-reads every source when the watchers cannot be trusted to have told every change: none
   * runs, one folder could not be watched, a folder has just begun to be watched (one that did not exist,
   * such as `~/.claude` before Claude Code's first run: what it already holds was never told), or the
   * last full look is older than WATCHER_TRUST_MS (the net for an event a watcher missed). Otherwise it
   * only looks at the time again and stats nothing.
   */
  const pollHints = (start: NonNullable<Decision['start']>): SourceHints => {
    const hints = mergeHints(start.hints, newlyWatchedHints())
    const trusted =
      watchers !== null &&
      watchFailures.size === 0 &&
      monotonic() - lastFullScanAt < WATCHER_TRUST_MS
    return trusted ? hints : mergeHints(hints, fullScan())
  }

  /** What the folders the watchers begin to cover now already hold (watched-dirs.ts). */
  const newlyWatchedHints = (): SourceHints => {
    const hints = noHints()
    noteNewlyWatched(hints, opts.paths, watchers?.ensure() ?? [])
    return hints
  }

  const startCycle = (decided: NonNullable<Decision['start']>): void => {
    // A command's ask believes the watchers as far as a poll does: what they told, or everything.
    const start =
      decided.poll || decided.askedWatched ? { ...decided, hints: pollHints(decided) } : decided
    if (start.hints.full) lastFullScanAt = monotonic()
    const answered = waiting
    waiting = []
    running = (async () => {
      let pending = false
      let failed = false
      try {
        pending = await cycle(start)
      } catch (error) {
        failed = true
        cycleFailed(error)
      }
      running = null
      for (const answer of answered) answer(state)
      step({ type: 'cycle-ended', now: monotonic(), pending, failed, pollIntervalMs })
    })().catch((error: unknown) => {
      // Only the loop's own bookkeeping can land here (the cycle's failures are caught above): told, not lost.
      onError(`engine loop failed: ${messageOf(error)}`)
    })
  }

  const changed = (hints?: SourceHints): void => {
    if (!stopped) step({ type: 'changed', now: monotonic(), ...(hints ? { hints } : {}) })
  }

  /** A watched pid that died changes no file: its end is a change all the same. */
  const checkLiveness = (): void => {
    const alive = new Set(sources.watchedPids().filter((pid) => isPidAlive(pid)))
    const died = [...knownPids].some((pid) => !alive.has(pid))
    knownPids = alive
    // Told after this decision is applied: the reducer is never re-entered.
    if (died) queueMicrotask(() => changed({ ...noHints(), live: true, hooks: true }))
  }

  /** A cycle that starts after now, and the state it ends with. */
  const nextCycle = (input: ScheduleInput): Promise<EngineState> => {
    if (stopped) return Promise.resolve(state)
    return new Promise((resolve) => {
      waiting.push(resolve)
      step(input)
    })
  }

  return {
    async start() {
      stopped = false
      if (watching) {
        // Before the first cycle, so what changes while it looks is told (a change it missed is then
        // looked at by the cycle after it).
        watchers = createDirWatchers(
          watchedDirs(opts.paths),
          (dir, file) => {
            if (isOwnWrite(opts.paths, dir, file)) return
            // A spooled hook event that is gone again was claimed by a drain: no news either.
            if (dir === files.hookSpool && file !== null && !existsSync(join(dir, file))) return
            const hints = noHints()
            // A root or a new folder: everything is listed (hints.full), whatever ensure() now covers.
            if (noteChange(hints, opts.paths, dir, file)) watchers?.ensure()
            changed(hints)
          },
          // ensure() runs on every poll: a folder that cannot be watched is told once, not every poll.
          (message) => {
            if (watchFailures.has(message)) return
            watchFailures.add(message)
            onError(message)
          },
        )
        watchers.ensure()
      }
      const first = await nextCycle({ type: 'start', now: monotonic(), watching })
      if (watching && !stopped) {
        // A folder that appeared while the first cycle ran (NAVI_HOME on a first run, `~/.claude` created
        // meanwhile) is watched from now on, and looked at for what it got before.
        const appeared = newlyWatchedHints()
        if (appeared.full || appeared.live || appeared.hooks) changed(appeared)
        knownPids = new Set(sources.watchedPids())
      }
      return first
    },
    async stop() {
      stopped = true
      step({ type: 'stop' })
      watchers?.close()
      await running
      for (const answer of waiting.splice(0)) answer(state)
      for (const failure of await cycles.saveBehind()) onError(failure)
      await Promise.all([sources.flush(), repos.flush()])
      repos.close()
      await log.close()
    },
    refresh: ({ force = true, watched = false } = {}) =>
      nextCycle({ type: 'refresh', now: monotonic(), force, watched }),
    getState: () => state,
    getSessions: () => sessions,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    listEvents: createEventListing(log, clock),
    async record(events) {
      if (events.length === 0) return
      notify(await log.append(events))
    },
    diagnostics: () => diagnostics,
  }
}

export { emptyDiagnostics } from './cycle.ts'
export type { CycleDiagnostics, SessionWithProject } from './cycle.ts'
