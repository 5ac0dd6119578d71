/**
 * Each project's snapshot for one cycle (cycle.ts): built from its sessions, its repository and its task
 * file, or kept from the cycle before when a `reuse` cycle finds it would be built from the very same
 * parts (cycle-memo.ts).
 */
import type { GitState, ProjectSnapshot } from '../../shared/schemas/project.ts'
import type { TaskList } from '../../shared/schemas/session.ts'
import { readChecklist } from './adapters/checklist-file.ts'
import { NO_NEW_COMMITS, type NewCommits } from './core/diff.ts'
import { isoMs } from './core/iso-ms.ts'
import type { ProjectGroup } from './core/projects.ts'
import { buildSnapshot } from './core/snapshot.ts'
import type { CycleInput } from './cycle.ts'
import { sameSessions, type BuiltSnapshot } from './cycle-memo.ts'

/** A project's snapshot and the commits its repository gained since the heads already told. */
export interface SnapshotRead {
  snapshot: ProjectSnapshot
  newCommits: NewCommits
}

/** What a project's snapshot is built from, read: its repository and its task file. */
export async function snapshotGroup(
  group: ProjectGroup,
  name: string,
  input: CycleInput,
): Promise<GroupBuilt> {
  const options = group.isGit ? gitReadOptions(group, input) : null
  const read = options ? await input.repos.read(group.projectDir, options) : null
  const errors: string[] = []
  const checklists = group.tasksFile ? await readChecklist(group.tasksFile, name, errors) : []
  return buildGroup(group, name, input, options?.lastActivity ?? null, read, checklists, errors)
}

/**
 * The project's snapshot when nothing has to be read for it (no task file; no repository, or one the
 * tracker answers for without looking); null when `snapshotGroup` must read.
 */
export function snapshotWithoutReading(
  group: ProjectGroup,
  name: string,
  input: CycleInput,
): GroupBuilt | null {
  if (group.tasksFile) return null
  if (!group.isGit) return buildGroup(group, name, input, null, null, [])
  const options = gitReadOptions(group, input)
  const state = input.repos.unchanged(group.projectDir, options)
  if (!state) return null
  const read = { state, newCommits: NO_NEW_COMMITS }
  return buildGroup(group, name, input, options.lastActivity, read, [])
}

function gitReadOptions(group: ProjectGroup, input: CycleInput) {
  return {
    persisted: input.prev.get(group.projectDir)?.git ?? null,
    lastActivity: latestActivity(group, input),
    force: input.force,
    trustWatcher: input.trustWatchers,
    now: input.now,
  }
}

/**
 * When the project's sessions were last active (epoch ms, 0 for never): kept from the cycle before when
 * they are the very same sessions, so a cycle does not parse the time of every session of every project
 * (2,000 sessions: ~0.5 ms of every append).
 */
function latestActivity(group: ProjectGroup, input: CycleInput): number {
  const was = input.reuse ? input.memo.built.get(group.projectDir) : undefined
  if (was?.lastActivity != null && sameSessions(was.sessions, group.sessions))
    return was.lastActivity
  let latest = 0
  for (const session of group.sessions) {
    const at = session.last_activity ? isoMs(session.last_activity) || 0 : 0
    if (at > latest) latest = at
  }
  return latest
}

export interface GroupBuilt {
  snapshot: ProjectSnapshot | null
  newCommits: NewCommits
  built: BuiltSnapshot
}

/** A project's snapshot, or the one of the cycle before when it would be built from the same parts. */
function buildGroup(
  group: ProjectGroup,
  name: string,
  input: CycleInput,
  lastActivity: number | null,
  read: { state: GitState; newCommits: NewCommits } | null,
  checklists: TaskList[],
  checklistErrors: string[] = [],
): GroupBuilt {
  const exists = input.folderExists(group.projectDir)
  const errors = exists
    ? [...checklistErrors]
    : [
        group.registered
          ? `${group.projectDir} does not exist (registered in config.yaml)`
          : `${group.projectDir} no longer exists`,
        ...checklistErrors,
      ]
  const git = read?.state ?? null
  const newCommits = read?.newCommits ?? NO_NEW_COMMITS
  // A task file is read every cycle, so a project with one is built every cycle.
  const was = input.reuse ? input.memo.built.get(group.projectDir) : undefined
  // A folder that is gone stays gone until a full cycle looks again (cycle.ts): its snapshot, built from
  // the same parts, is the same too. Sessions of deleted worktrees are common, and rebuilding each such
  // project at every append was most of an append's cost in a corpus whose folders are all elsewhere.
  const keep =
    was !== undefined &&
    was.exists === exists &&
    group.tasksFile === null &&
    newCommits === NO_NEW_COMMITS &&
    was.git === git &&
    was.name === name &&
    was.registered === group.registered &&
    sameSessions(was.sessions, group.sessions)
  const snapshot = keep
    ? was.snapshot
    : buildSnapshot({ group, name, git, checklists, errors, now: input.now })
  return {
    snapshot,
    newCommits,
    built: {
      projectDir: group.projectDir,
      name,
      registered: group.registered,
      exists,
      sessions: group.sessions,
      lastActivity,
      git,
      snapshot,
    },
  }
}
