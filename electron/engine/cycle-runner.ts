/**
 * What one cycle carries over to the next: the previous snapshots, the ones not saved yet, the first run's
 * time, when the transcript indexes were last written. `runCycle` (cycle.ts) is one cycle; this runs them
 * in turn for the engine's loop (index.ts), which decides when.
 */
import { existsSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import { MIN_POLL_INTERVAL_MS } from '../../shared/schemas/config.ts'
import type { EnginePaths } from './core/paths.ts'
import type { SourceHints } from './core/source-hints.ts'
import { loadConfig } from './adapters/config-file.ts'
import type { EventLog } from './adapters/event-log.ts'
import type { SnapshotStore } from './adapters/snapshot-store.ts'
import { messageOf, runCycle, type CycleResult } from './cycle.ts'
import type { RepoTracker } from './repo-tracker.ts'
import type { SessionSources } from './sources.ts'
import { createCycleMemo } from './cycle-memo.ts'

/** How often, at most, the transcript indexes are written between cycles (and always on stop). */
const INDEX_FLUSH_INTERVAL_MS = 30_000

export interface CycleRunner {
  /** One cycle, and the poll interval the configuration now asks for. */
  run(opts: {
    force: boolean
    hints: SourceHints
    /**
     * Asked for (start, a full refresh): no repository is taken as unchanged on its watcher's word. A
     * `watched` refresh is not: it runs as a watcher's cycle (a repository whose watcher's debounce still
     * runs is looked at all the same: repo-tracker.ts).
     */
    asked: boolean
    /** The poll's cycle: it looks at the clock for every session again. @default false */
    poll?: boolean
  }): Promise<{ result: CycleResult; pollIntervalMs: number }>
  /**
   * Writes the snapshots a cycle left behind in memory (`deferSaves`), for the engine's stop; returns what
   * could not be written (the next start then diffs from the older file, as after a crash).
   */
  saveBehind(): Promise<string[]>
}

export function createCycleRunner(deps: {
  paths: EnginePaths
  clock: () => number
  sources: SessionSources
  repos: RepoTracker
  store: SnapshotStore
  log: EventLog
  /** A running engine defers snapshot writes of cycles that logged nothing (cycle.ts, `behind`). */
  deferSaves: boolean
}): CycleRunner {
  const { paths, clock, sources } = deps
  let prev: CycleResult['snapshots'] | null = null
  let unsaved = new Set<string>()
  let behind = new Map<string, number>()
  let baselineAt: string | null = null
  let lastIndexFlush: number | null = null
  const folders = new Map<string, boolean>()
  let lastConfig: Awaited<ReturnType<typeof loadConfig>> | null = null
  const memo = createCycleMemo()
  return {
    async run({ force, hints, asked, poll = false }) {
      if (hints.full) folders.clear()
      if (prev === null) {
        prev = await deps.store.loadAll()
        // A file an older Navi wrote (or one edited by hand) is written again, sealed and stamped, by this cycle.
        for (const dir of deps.store.unstamped()) unsaved.add(dir)
      }
      // config.yaml and settings.json are watched: read again when they change, or by a full cycle.
      if (hints.full || hints.config || lastConfig === null) lastConfig = await loadConfig(paths)
      const config = lastConfig
      const result = await runCycle({
        now: clock(),
        naviHome: paths.naviHome,
        config,
        sources,
        repos: deps.repos,
        store: deps.store,
        log: deps.log,
        prev,
        force,
        trustWatchers: !asked,
        hints,
        folderExists: (dir) => {
          let exists = folders.get(dir)
          if (exists === undefined) {
            // A relative folder (an anonymised or foreign cwd in a transcript) names none of this
            // machine's: looked up, it would be found or not depending on where Navi runs.
            exists = isAbsolute(dir) && existsSync(dir)
            folders.set(dir, exists)
          }
          return exists
        },
        unsaved,
        behind,
        deferSaves: deps.deferSaves,
        baselineAt,
        // Only what the watchers told of changed: the rest is kept from the cycle before.
        reuse: !asked && !poll && !force && !hints.full && !hints.config,
        memo,
      })
      prev = result.snapshots
      unsaved = result.unsaved
      behind = result.behind
      baselineAt = result.baselineAt
      // The transcript indexes can be large: written after the first cycle, then at most this often.
      if (lastIndexFlush === null || clock() - lastIndexFlush >= INDEX_FLUSH_INTERVAL_MS) {
        lastIndexFlush = clock()
        await Promise.all([sources.flush(), deps.repos.flush()])
      }
      // config.yaml and settings.json already refuse less; a floor here covers any other way in.
      return {
        result,
        pollIntervalMs: Math.max(MIN_POLL_INTERVAL_MS, config.config.pollIntervalMs),
      }
    },
    async saveBehind() {
      const failures: string[] = []
      for (const dir of behind.keys()) {
        const snapshot = prev?.get(dir)
        if (!snapshot) continue
        try {
          await deps.store.save(snapshot)
        } catch (error) {
          failures.push(`snapshot of ${dir} not saved at stop: ${messageOf(error)}`)
        }
      }
      behind = new Map()
      return failures
    },
  }
}
