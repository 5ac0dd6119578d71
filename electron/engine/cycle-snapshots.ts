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
  const read = group.isGit
    ? await input.repos.read(group.projectDir, gitReadOptions(group, input))
    : null
  const errors: string[] = []
  const checklists = group.tasksFile ? await readChecklist(group.tasksFile, name, errors) : []
  return buildGroup(group, name, input, read, checklists, errors)
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
  if (!group.isGit) return buildGroup(group, name, input, null, [])
  const state = input.repos.unchanged(group.projectDir, gitReadOptions(group, input))
  return state ? buildGroup(group, name, input, { state, newCommits: NO_NEW_COMMITS }, []) : null
}

function gitReadOptions(group: ProjectGroup, input: CycleInput) {
  return {
    persisted: input.prev.get(group.projectDir)?.git ?? null,
    lastActivity: Math.max(
      0,
      ...group.sessions.map((s) => (s.last_activity ? isoMs(s.last_activity) || 0 : 0)),
    ),
    force: input.force,
    trustWatcher: input.trustWatchers,
    now: input.now,
  }
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
  const keep =
    was !== undefined &&
    exists &&
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
      sessions: group.sessions,
      git,
      snapshot,
    },
  }
}
