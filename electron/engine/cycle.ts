/** One engine cycle: read sources → group → snapshot → diff → log. Owns no timers. */
import { monotonicMs } from './core/monotonic.ts'
import { join } from 'node:path'
import type { EngineState } from '../../shared/schemas/state.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { ProjectSnapshot } from '../../shared/schemas/project.ts'
import type { LoadedConfig } from './adapters/config-file.ts'
import type { EventLog } from './adapters/event-log.ts'
import type { SnapshotStore } from './adapters/snapshot-store.ts'
import { diffSnapshots, newsSince } from './core/diff.ts'
import { groupProjects, nameProjects, type ProjectGroup } from './core/projects.ts'
import { sortByAttention } from './core/snapshot.ts'
import pLimit from 'p-limit'
import type { RepoTracker } from './repo-tracker.ts'
import type { SessionSources, SourceHints } from './sources.ts'
import { errorText as messageOf } from '../../shared/log.ts'
import { isoMs } from './core/iso-ms.ts'
import { withTrouble } from './core/trouble.ts'
import { commitCycle } from './cycle-commit.ts'
import { snapshotGroup, snapshotWithoutReading, type SnapshotRead } from './cycle-snapshots.ts'
import {
  ignoreMatcher,
  sameSessions,
  type CycleMemo,
  type NamedList,
  type SessionWithProject,
} from './cycle-memo.ts'
import { answersDir, waitingRequests } from './adapters/answers-dir.ts'
import { withAnswerWindow } from './core/answer-rules.ts'

const NOBODY_WAITING: ReadonlyMap<string, number> = new Map()

/** A thrown value as one line of text (shared/log.ts), under the name the engine's callers use. */
export { messageOf }

export interface CycleDiagnostics {
  corruptLines: Record<string, number>
  /** Files with lines or values skipped (`navi doctor` shows them). */
  notes: string[]
  sourceErrors: string[]
  configErrors: string[]
  /** git processes this cycle spawned. */
  gitSpawns: number
  durationMs: number
}

export interface CycleInput {
  now: number
  naviHome: string
  config: LoadedConfig
  sources: SessionSources
  repos: RepoTracker
  store: SnapshotStore
  log: EventLog
  /** Last snapshot of every project ever seen, by project dir (kept for projects that went quiet). */
  prev: Map<string, ProjectSnapshot>
  force: boolean
  /** Repositories whose watcher told nothing may be taken as unchanged (repo-tracker.ts). */
  trustWatchers: boolean
  hints: SourceHints
  /**
   * Whether a project's folder exists: looked at again by a full cycle, remembered by those the
   * watchers drive (a folder's coming and going is a full cycle's business; a hinted one stats nothing
   * it was not told about).
   */
  folderExists: (dir: string) => boolean
  /** Projects whose snapshot file is behind `prev` (a save failed): saved again this cycle. */
  unsaved: ReadonlySet<string>
  /**
   * Projects whose snapshot file is behind `prev` on purpose, since when (epoch ms). With `deferSaves`, a
   * cycle that logged no event leaves a changed snapshot in memory for up to SNAPSHOT_SAVE_DELAY_MS: an
   * agent writing its transcript every moment changes its project's activity every cycle, and writing
   * (and syncing) the file each time was a fifth of a cycle. A cycle that logs events saves at once, so a
   * restart never diffs against a snapshot older than the last logged events.
   */
  behind: ReadonlyMap<string, number>
  deferSaves: boolean
  /** When the first cycle ran, if `meta.json` could not record it (events are derived after it anyway). */
  baselineAt: string | null
  /**
   * The watchers told this cycle what changed (not the start, a poll, a refresh or a config change):
   * sessions and snapshots that nothing told of are kept from the cycle before (cycle-memo.ts).
   */
  reuse: boolean
  /** What the cycles before left for this one; updated by it. */
  memo: CycleMemo
}

export { SNAPSHOT_SAVE_DELAY_MS } from './cycle-commit.ts'

export type { SessionWithProject }

export interface CycleResult {
  state: EngineState
  /** Every session found, not only the recent ones a snapshot keeps. */
  sessions: SessionWithProject[]
  snapshots: Map<string, ProjectSnapshot>
  events: EngineEvent[]
  diagnostics: CycleDiagnostics
  unsaved: Set<string>
  behind: Map<string, number>
  baselineAt: string | null
  /**
   * Something this cycle derived is not durable yet (the event log or a snapshot could not be written):
   * the engine runs again soon, and the same events (same ids) are logged then.
   */
  pending: boolean
}

export async function runCycle(input: CycleInput): Promise<CycleResult> {
  const { now, config, repos } = input
  const started = monotonicMs()
  const spawnsBefore = repos.spawnCount()
  const { memo, reuse } = input
  if (!reuse) memo.roots.clear()
  const collected = await input.sources.collect(now, input.hints, { reuse })
  const { counts } = collected
  // Which pending requests Navi's hook holds open for an answer (a folder read only when one is pending).
  const waiting = collected.sessions.some((s) => s.pending_request?.request_id)
    ? waitingRequests(answersDir(input.naviHome))
    : NOBODY_WAITING
  const sessions = collected.sessions.map((s) => {
    // A pending request's answer window moves with Navi's hook, not with the session's sources.
    const kept = reuse && !s.pending_request ? memo.decided.get(s) : undefined
    if (kept) return kept
    // A session that changed may have run `git init`: its folder's "no repository" is asked again (the
    // locator looks again a few seconds after its last look: git-repo-root.ts). An unchanged one's is kept,
    // so an idle cycle stats nothing.
    if (memo.roots.get(s.cwd) === null) memo.roots.delete(s.cwd)
    const decided = withTrouble(withAnswerWindow(s, waiting), now, config.config.trouble)
    memo.decided.set(s, decided)
    return decided
  })
  const groups = groupProjects({
    sessions,
    repoRootOf: (dir) => {
      let root = memo.roots.get(dir)
      if (root === undefined) {
        root = repos.rootOf(dir)
        memo.roots.set(dir, root)
      }
      return root
    },
    registered: config.config.projects,
    // Navi's own headless claude runs (the PM) live under NAVI_HOME: never a user's project.
    isIgnored: ignoreMatcher(memo, config, join(input.naviHome, '**')),
    placed: memo.placed,
  })
  const names = nameProjects(
    groups,
    new Map([...input.prev].map(([dir, snap]) => [dir, snap.name])),
  )
  const meta = reuse && memo.meta ? memo.meta : await input.store.loadMeta()
  memo.meta = meta.baselineAt === null ? null : meta
  const baselineAt = meta.baselineAt ?? input.baselineAt
  const lastCycle = Math.max(0, ...[...input.prev.values()].map((s) => isoMs(s.captured_at) || 0))
  const since = newsSince({
    lastCycle: lastCycle || null,
    baselineAt: baselineAt ? Date.parse(baselineAt) : null,
    now,
    graceMs: config.config.pollIntervalMs,
  })

  // Only a repository that may have changed, or a task file, is read: the rest is built on the spot.
  const reads = pLimit(4)
  const built = await Promise.all(
    groups.map((group) => {
      const name = names.get(group.projectDir) ?? group.projectDir
      return (
        snapshotWithoutReading(group, name, input) ?? reads(() => snapshotGroup(group, name, input))
      )
    }),
  )
  memo.built = new Map(built.map((b) => [b.built.projectDir, b.built]))
  const found = built.filter((b): b is (typeof built)[number] & SnapshotRead => b.snapshot !== null)
  const current = found.map((b) => b.snapshot)

  const events: EngineEvent[] = []
  if (baselineAt !== null) {
    for (const { snapshot, newCommits } of found) {
      const prev = input.prev.get(snapshot.project_dir) ?? null
      // A snapshot kept from the cycle that diffed it tells nothing new.
      if (snapshot === prev) continue
      events.push(...diffSnapshots(prev, snapshot, { now, since }, newCommits))
    }
  }
  const errors = [
    ...counts.errors,
    ...repos.refusals().values(),
    ...input.store.errors().map((e) => `${e.file}: ${e.message}`),
  ]
  const commit = await commitCycle(input, current, events, errors)
  let savedBaseline = baselineAt
  let baselineUnsaved = false
  if (meta.baselineAt === null) {
    savedBaseline ??= new Date(now).toISOString()
    try {
      await input.store.saveMeta({ ...meta, baselineAt: savedBaseline })
    } catch (error) {
      baselineUnsaved = true
      errors.push(`snapshots: cannot record the first run (${messageOf(error)}); retrying`)
    }
  }
  repos.retain(new Set(groups.filter((g) => g.isGit).map((g) => g.projectDir)))

  const configErrors = input.config.errors.map((e) => `${e.file}:${e.line}: ${e.message}`)
  return {
    state: {
      projects: sortByAttention(current),
      generated_at: new Date(now).toISOString(),
      errors: [...configErrors, ...errors],
    },
    sessions: namedSessions(groups, names, memo),
    snapshots: commit.snapshots,
    events: commit.written,
    unsaved: commit.unsaved,
    behind: commit.behind,
    baselineAt: savedBaseline,
    pending: !commit.logged || commit.unsaved.size > 0 || baselineUnsaved,
    diagnostics: {
      corruptLines: counts.corruptLines,
      notes: counts.notes,
      sourceErrors: errors,
      configErrors,
      gitSpawns: repos.spawnCount() - spawnsBefore,
      durationMs: monotonicMs() - started,
    },
  }
}

/**
 * Every session with its project's name, as the cycle returns them. A project whose sessions are the
 * very objects of the cycle before, under the same name, gives the same list again: 2,000 lookups of a
 * weak map were 1.5 ms of every append at 2,000 sessions.
 */
function namedSessions(
  groups: readonly ProjectGroup[],
  names: ReadonlyMap<string, string>,
  memo: CycleMemo,
): SessionWithProject[] {
  const lists = new Map<string, NamedList>()
  const out: SessionWithProject[] = []
  for (const group of groups) {
    const project = names.get(group.projectDir) ?? null
    const before = memo.namedLists.get(group.projectDir)
    const list =
      before?.project === project && sameSessions(before.placed, group.sessions)
        ? before
        : {
            project,
            placed: group.sessions,
            named: group.sessions.map((session) => {
              const named = memo.named.get(session)
              if (named?.project === project) return named
              const fresh = { ...session, project }
              memo.named.set(session, fresh)
              return fresh
            }),
          }
    lists.set(group.projectDir, list)
    for (const session of list.named) out.push(session)
  }
  memo.namedLists = lists
  return out
}

/** Diagnostics before the first cycle. */
export function emptyDiagnostics(): CycleDiagnostics {
  return {
    corruptLines: {},
    notes: [],
    sourceErrors: [],
    configErrors: [],
    gitSpawns: 0,
    durationMs: 0,
  }
}
