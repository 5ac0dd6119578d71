/** Which project each session belongs to, which projects exist, and what they are called. */
import { basename, dirname, sep } from 'node:path'
import type { Session } from '../../../shared/schemas/session.ts'

export interface ProjectGroup {
  projectDir: string
  isGit: boolean
  registered: boolean
  configuredName: string | null
  tasksFile: string | null
  sessions: Session[]
}

export interface GroupingInput {
  sessions: Session[]
  /** Main work-tree root of the repository containing a directory (worktrees resolve to their main repo). */
  repoRootOf: (dir: string) => string | null
  registered: { path: string; name?: string; tasks?: string }[]
  isIgnored: (dir: string) => boolean
  /**
   * A memo of sessions already placed (a session object placed in the same project again is the same
   * placed object, so a cycle that kept a session can keep what was built from it).
   */
  placed?: WeakMap<Session, Session>
}

/**
 * A project is a git repository (sessions anywhere inside it or in one of its worktrees group under it) or a
 * registered directory; a session outside any repository makes its cwd a directory project of its own.
 */
export function groupProjects(input: GroupingInput): ProjectGroup[] {
  const groups = new Map<string, ProjectGroup>()
  const groupFor = (dir: string): ProjectGroup => {
    const repoRoot = input.repoRootOf(dir)
    // Windows writes one folder as `C:\x` and `c:\x` (hook payloads of one machine do both).
    const key =
      repoRoot ?? dir.replace(/^([a-z]):\\/, (_, drive: string) => `${drive.toUpperCase()}:\\`)
    let group = groups.get(key)
    if (!group) {
      group = {
        projectDir: key,
        isGit: repoRoot !== null,
        registered: false,
        configuredName: null,
        tasksFile: null,
        sessions: [],
      }
      groups.set(key, group)
    }
    return group
  }

  for (const project of input.registered) {
    if (input.isIgnored(project.path)) continue
    const group = groupFor(project.path)
    group.registered = true
    group.configuredName = project.name ?? group.configuredName
    group.tasksFile = project.tasks ?? group.tasksFile
  }
  for (const session of input.sessions) {
    if (input.isIgnored(session.cwd)) continue
    const group = groupFor(session.cwd)
    let placed = input.placed?.get(session)
    // Set only when new: writing a weak map entry again each cycle was most of this loop's time.
    if (placed?.project_dir !== group.projectDir) {
      placed = { ...session, project_dir: group.projectDir }
      input.placed?.set(session, placed)
    }
    group.sessions.push(placed)
  }
  return [...groups.values()]
}

/**
 * Names are the directory name; when two projects share one, parent folders are added until they differ
 * (`work/api`, `oss/api`). A configured name is kept as given, and others are made unique around it. A name
 * once given stays (`previous`, by project dir): events and memory refer to projects by name, so a project
 * appearing later must not rename the ones already known.
 */
export function nameProjects(
  groups: ProjectGroup[],
  previous: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  const names = new Map<string, string>()
  const taken = new Set<string>()
  for (const g of groups) {
    if (g.configuredName && !taken.has(g.configuredName)) {
      names.set(g.projectDir, g.configuredName)
      taken.add(g.configuredName)
    }
  }
  const configured = new Set(taken)
  for (const name of previous.values()) if (!configured.has(name)) taken.add(name)
  for (const g of groups) {
    const kept = previous.get(g.projectDir)
    if (!names.has(g.projectDir) && kept && !configured.has(kept)) names.set(g.projectDir, kept)
  }
  const unnamed = groups.filter((g) => !names.has(g.projectDir)).map((g) => g.projectDir)
  unnamed.sort()
  let depth = 1
  let pending = unnamed
  while (pending.length > 0) {
    const candidates = new Map<string, string[]>()
    for (const dir of pending) {
      const name = tailSegments(dir, depth)
      candidates.set(name, [...(candidates.get(name) ?? []), dir])
    }
    const next: string[] = []
    for (const [name, dirs] of candidates) {
      const exhausted = dirs.every((d) => tailSegments(d, depth + 1) === name)
      if ((dirs.length === 1 && !taken.has(name)) || exhausted) {
        dirs.forEach((dir, i) => {
          const unique = uniqueName(i === 0 ? name : `${name}-${i + 1}`, taken)
          names.set(dir, unique)
          taken.add(unique)
        })
      } else next.push(...dirs)
    }
    pending = next
    depth += 1
  }
  return names
}

function tailSegments(dir: string, count: number): string {
  const parts: string[] = []
  let current = dir
  for (let i = 0; i < count; i++) {
    const base = basename(current)
    if (!base) break
    parts.unshift(base)
    const parent = dirname(current)
    if (parent === current) break
    current = parent
  }
  return parts.join('/') || dir.split(sep).join('/')
}

function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}-${n}`
  return candidate
}
