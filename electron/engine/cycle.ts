/** One engine cycle: read sources → group → snapshot → diff → log. Owns no timers. */
import { existsSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { EngineState } from '../../shared/ipc-contract.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { ProjectSnapshot } from '../../shared/schemas/project.ts'
import type { Session, TaskList } from '../../shared/schemas/session.ts'
import type { LoadedConfig } from './adapters/config-file.ts'
import type { EventLog } from './adapters/event-log.ts'
import type { SnapshotStore } from './adapters/snapshot-store.ts'
import { parseChecklist } from './core/checklist.ts'
import { createIgnoreMatcher } from './core/config.ts'
import { diffSnapshots } from './core/diff.ts'
import { groupProjects, nameProjects, type ProjectGroup } from './core/projects.ts'
import { buildSnapshot, sortByAttention } from './core/snapshot.ts'
import type { RepoTracker } from './repo-tracker.ts'
import type { SessionSources, SourceHints } from './sources.ts'

export interface CycleDiagnostics {
  corruptLines: Record<string, number>
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
  hints: SourceHints
}

export type SessionWithProject = Session & { project: string | null }

export interface CycleResult {
  state: EngineState
  /** Every session found, not only the recent ones a snapshot keeps. */
  sessions: SessionWithProject[]
  snapshots: Map<string, ProjectSnapshot>
  events: EngineEvent[]
  diagnostics: CycleDiagnostics
}

export async function runCycle(input: CycleInput): Promise<CycleResult> {
  const { now, config, repos } = input
  const started = performance.now()
  const spawnsBefore = repos.spawnCount()
  const { sessions, counts } = await input.sources.collect(now, input.hints)
  const groups = groupProjects({
    sessions,
    repoRootOf: (dir) => repos.rootOf(dir),
    registered: config.config.projects,
    // Navi's own headless claude runs (the PM) live under NAVI_HOME: never a user's project.
    isIgnored: createIgnoreMatcher([...config.config.ignore, join(input.naviHome, '**')]),
  })
  const names = nameProjects(
    groups,
    new Map([...input.prev].map(([dir, snap]) => [dir, snap.name])),
  )
  const meta = await input.store.loadMeta()
  const lastCycle = Math.max(
    0,
    ...[...input.prev.values()].map((s) => Date.parse(s.captured_at) || 0),
  )
  const since = lastCycle || (meta.baselineAt ? Date.parse(meta.baselineAt) : now)

  const built = await mapLimit(groups, 4, (group) =>
    snapshotGroup(group, names.get(group.projectDir) ?? group.projectDir, input),
  )
  const current = built.filter((s): s is ProjectSnapshot => s !== null)

  const events: EngineEvent[] = []
  if (meta.baselineAt !== null) {
    for (const next of current) {
      events.push(...diffSnapshots(input.prev.get(next.project_dir) ?? null, next, { now, since }))
    }
  }
  const errors = [...counts.errors]
  let written: EngineEvent[] = []
  let logged = true
  try {
    written = await input.log.append(events)
    await input.log.pruneIfDue(now)
  } catch (error) {
    // Keep the previous snapshots: the next cycle derives the same events (same ids) and logs them then.
    logged = false
    errors.push(`event log: ${error instanceof Error ? error.message : String(error)}`)
  }

  const snapshots = new Map(input.prev)
  if (logged) {
    for (const snapshot of current) {
      if (changed(input.prev.get(snapshot.project_dir), snapshot)) await input.store.save(snapshot)
      snapshots.set(snapshot.project_dir, snapshot)
    }
  }
  if (meta.baselineAt === null)
    await input.store.saveMeta({ ...meta, baselineAt: new Date(now).toISOString() })
  repos.retain(new Set(groups.filter((g) => g.isGit).map((g) => g.projectDir)))

  const configErrors = input.config.errors.map((e) => `${e.file}:${e.line}: ${e.message}`)
  return {
    state: {
      projects: sortByAttention(current),
      generated_at: new Date(now).toISOString(),
      errors: [...configErrors, ...errors],
    },
    sessions: groups.flatMap((g) =>
      g.sessions.map((session) => ({ ...session, project: names.get(g.projectDir) ?? null })),
    ),
    snapshots,
    events: written,
    diagnostics: {
      corruptLines: counts.corruptLines,
      sourceErrors: errors,
      configErrors,
      gitSpawns: repos.spawnCount() - spawnsBefore,
      durationMs: performance.now() - started,
    },
  }
}

async function snapshotGroup(
  group: ProjectGroup,
  name: string,
  input: CycleInput,
): Promise<ProjectSnapshot | null> {
  const prev = input.prev.get(group.projectDir) ?? null
  const errors: string[] = []
  if (!existsSync(group.projectDir)) {
    errors.push(
      group.registered
        ? `${group.projectDir} does not exist (registered in config.yaml)`
        : `${group.projectDir} no longer exists`,
    )
  }
  const lastActivity = Math.max(
    0,
    ...group.sessions.map((s) => Date.parse(s.last_activity ?? '') || 0),
  )
  const git = group.isGit
    ? await input.repos.read(group.projectDir, {
        prevHeads: prev?.git?.error ? null : (prev?.git?.branch_heads ?? null),
        lastActivity,
        force: input.force,
        now: input.now,
      })
    : null
  const checklists = group.tasksFile ? await readChecklist(group.tasksFile, name, errors) : []
  return buildSnapshot({ group, name, git, checklists, errors, now: input.now })
}

async function readChecklist(
  file: string,
  projectName: string,
  errors: string[],
): Promise<TaskList[]> {
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)])
    const updatedAt = info.mtime.toISOString()
    return parseChecklist(text, { projectName, file }).map((list) => ({
      ...list,
      updated_at: updatedAt,
    }))
  } catch (error) {
    errors.push(`tasks file ${file}: ${error instanceof Error ? error.message : String(error)}`)
    return []
  }
}

/** Saves only what changed, so an idle engine writes nothing. */
function changed(prev: ProjectSnapshot | undefined, next: ProjectSnapshot): boolean {
  if (!prev) return true
  return (
    JSON.stringify({ ...prev, captured_at: '' }) !== JSON.stringify({ ...next, captured_at: '' })
  )
}

async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++
      results[index] = await fn(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}
