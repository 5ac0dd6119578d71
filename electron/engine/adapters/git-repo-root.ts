import { existsSync, realpathSync, statSync } from 'node:fs'
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path'
import { createRepoTrust, type RepoTrust } from './git-trust.ts'
import { readRegularTextSync } from './safe-read.ts'

/** Where a directory's repository lives on disk. */
export interface RepoLocation {
  /**
   * The project root: the main work tree. For a linked worktree it is the main repository's work
   * tree, so sessions in any worktree group under one project. Real path (symlinks resolved).
   */
  root: string
  /** The git dir of the work tree `cwd` is in (`<wt>/.git` or `<main>/.git/worktrees/<name>`). */
  gitDir: string
  /** The shared git dir holding refs, objects and packed-refs (`<main>/.git`). */
  commonDir: string
  /** True when `cwd` is inside a linked worktree rather than the main work tree. */
  isWorktree: boolean
  /** The top of the work tree that contains `cwd` (equals `root` outside linked worktrees). */
  workTree: string
}

/**
 * Finds the repository containing `cwd` with fs reads only (no git process): walks up to a `.git`
 * directory or file, the way git's discovery does: never up into one of the user's
 * `GIT_CEILING_DIRECTORIES`, and never across a filesystem boundary (unless
 * `GIT_DISCOVERY_ACROSS_FILESYSTEM` says so). A `.git` file (linked worktree, submodule) is followed
 * through `gitdir:`, and a `commondir` file there leads to the main repository. A bare main repository
 * has no work tree of its own, so a worktree of it is its own root. null when no repository is found or
 * the `.git` file points nowhere (git itself refuses such a directory). Whether git may run there is
 * another question (git-trust.ts); `findRepoRoot` asks it.
 */
export function locateRepo(
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  walked?: Map<string, RepoLocation | null>,
): RepoLocation | null {
  // A cwd that is not absolute here (a Windows path in a copied transcript, an anonymised one) names no
  // directory of this machine: resolving it would file the session under wherever Navi runs.
  if (!isAbsolute(cwd)) return null
  let dir = resolve(cwd)
  const ceilings = ceilingDirectories(env)
  const acrossFilesystems = /^(1|true|yes|on)$/i.test(env.GIT_DISCOVERY_ACROSS_FILESYSTEM ?? '')
  // What a walk from a folder finds depends on that folder alone: every folder this one passed through
  // finds the same, which `walked` keeps for the next cwd under them.
  const passed: string[] = []
  const found = (location: RepoLocation | null): RepoLocation | null => {
    if (walked) for (const folder of passed) walked.set(folder, location)
    return location
  }
  // Asked only on the way up: most cwds have their `.git` right there.
  let device: number | null | undefined
  for (;;) {
    const known = walked?.get(dir)
    if (known !== undefined) return found(known)
    passed.push(dir)
    const dotGit = join(dir, '.git')
    const kind = entryKind(dotGit)
    if (kind === 'dir' && existsSync(join(dotGit, 'HEAD'))) {
      return found({
        root: real(dir),
        gitDir: dotGit,
        commonDir: dotGit,
        isWorktree: false,
        workTree: dir,
      })
    }
    if (kind === 'file') return found(followGitFile(dir, dotGit))
    const parent = dirname(dir)
    if (parent === dir || ceilings.has(parent)) return found(null)
    if (device === undefined) device = deviceOf(dir)
    const parentDevice = deviceOf(parent)
    if (!acrossFilesystems && device !== null && parentDevice !== device) return found(null)
    device = parentDevice
    dir = parent
  }
}

/** The absolute entries of `GIT_CEILING_DIRECTORIES` (git ignores relative ones). */
function ceilingDirectories(env: NodeJS.ProcessEnv): Set<string> {
  const list = (env.GIT_CEILING_DIRECTORIES ?? '').split(delimiter)
  return new Set(list.filter((entry) => isAbsolute(entry)).map((entry) => resolve(entry)))
}

function deviceOf(path: string): number | null {
  try {
    // No exception for a missing path: walking up from a cwd that is gone meets many.
    return statSync(path, { throwIfNoEntry: false })?.dev ?? null
  } catch {
    // Unknown device: the walk stops there, as it would at a filesystem boundary.
    return null
  }
}

function followGitFile(workTree: string, dotGitFile: string): RepoLocation | null {
  const pointer = readText(dotGitFile)
  const match = pointer === null ? null : /^gitdir:\s*(.+?)\s*$/m.exec(pointer)
  if (!match?.[1]) return null
  const gitDir = resolve(workTree, match[1])
  if (!existsSync(join(gitDir, 'HEAD'))) return null
  const commonPointer = readText(join(gitDir, 'commondir'))?.trim()
  if (!commonPointer) {
    // A submodule (or `git init --separate-git-dir`): its own repository, not a worktree.
    return { root: real(workTree), gitDir, commonDir: gitDir, isWorktree: false, workTree }
  }
  const commonDir = isAbsolute(commonPointer) ? commonPointer : resolve(gitDir, commonPointer)
  const mainRoot = basename(commonDir) === '.git' ? dirname(commonDir) : workTree
  return { root: real(mainRoot), gitDir, commonDir, isWorktree: true, workTree }
}

/**
 * A memo of `locateRepo` per cwd (repositories rarely move, so found ones live until invalidated), that
 * answers only with repositories git may run in: one that git's safe.directory rule refuses is not a
 * repository for Navi (its sessions become a plain directory project), and the refusal is kept to report.
 *
 * "No repository here" is not kept for good: an agent asked to start a project in an empty folder runs
 * `git init` there, and a running engine that remembered the folder as plain never saw its commits. Such
 * an answer is looked at again when asked after `recheckMs` (the engine asks when a session there changes
 * and on its full cycles), if the folder still exists (one that is gone cannot have become a repository).
 */
export interface RepoRootCache {
  find(cwd: string): RepoLocation | null
  /** Forget one cwd, or everything when called without an argument. */
  invalidate(cwd?: string): void
  /** Repositories refused by the trust rule, with the reason, by work tree. */
  refusals(): Map<string, string>
}

export function createRepoRootCache(
  trust: RepoTrust = createRepoTrust(),
  options: { recheckMs?: number; clock?: () => number } = {},
): RepoRootCache {
  const recheckMs = options.recheckMs ?? NO_REPO_RECHECK_MS
  const clock = options.clock ?? Date.now
  const memo = new Map<string, RepoLocation | null>()
  /** When each cwd was last found to be in no repository. */
  const noRepoAt = new Map<string, number>()
  /**
   * What walks up from each folder found a moment ago: the cwds of one cycle share their parents (a
   * start over 78 cwds of projects since deleted stat'ed their common parents 78 times). Kept for
   * WALK_MEMO_MS, so a repository created above them is seen as soon as the folder is asked again.
   */
  let walked = new Map<string, RepoLocation | null>()
  let walkedAt = -Infinity
  const stale = (key: string): boolean =>
    clock() - (noRepoAt.get(key) ?? 0) >= recheckMs && existsSync(key)
  return {
    find(cwd) {
      // Never `resolve` a relative cwd: that would make it a path under wherever Navi runs.
      if (!isAbsolute(cwd)) return null
      const key = resolve(cwd)
      let location = memo.get(key)
      if (location === undefined || (location === null && stale(key))) {
        if (clock() - walkedAt > WALK_MEMO_MS) {
          walked = new Map()
          walkedAt = clock()
        }
        location = locateRepo(key, process.env, walked)
        memo.set(key, location)
        if (location === null) noRepoAt.set(key, clock())
        else noRepoAt.delete(key)
      }
      return location !== null && trust.check(location).trusted ? location : null
    },
    invalidate(cwd) {
      walked = new Map()
      if (cwd === undefined) {
        memo.clear()
        noRepoAt.clear()
      } else {
        memo.delete(resolve(cwd))
        noRepoAt.delete(resolve(cwd))
      }
    },
    refusals: () => trust.refusals(),
  }
}

/** How long "no repository here" is believed before the folder is looked at again. */
export const NO_REPO_RECHECK_MS = 5_000

/** How long a walk up from a folder is believed for the next cwds under it (a cycle's burst of them). */
export const WALK_MEMO_MS = 1_000

const defaultCache = createRepoRootCache()

/** Memoized `locateRepo` of a repository git may run in (process-wide cache); see `invalidateRepoRoot`. */
export function findRepoRoot(cwd: string): RepoLocation | null {
  return defaultCache.find(cwd)
}

/** Drops `findRepoRoot`'s memo for one cwd, or all of it. */
export function invalidateRepoRoot(cwd?: string): void {
  defaultCache.invalidate(cwd)
}

/** Repositories `findRepoRoot` refused because git would not trust them (recent verdicts). */
export function refusedRepos(): Map<string, string> {
  return defaultCache.refusals()
}

function entryKind(path: string): 'dir' | 'file' | null {
  try {
    // No `.git` is the usual case on the way up: asked without an exception, which costs more than the stat.
    const stat = statSync(path, { throwIfNoEntry: false })
    return stat?.isDirectory() ? 'dir' : stat?.isFile() ? 'file' : null
  } catch {
    // No `.git` here (the usual case on the way up): keep walking.
    return null
  }
}

function readText(path: string): string | null {
  try {
    return readRegularTextSync(path, { maxBytes: 64 * 1024 })
  } catch {
    // A pointer file that cannot be read leads nowhere; git refuses such a directory too.
    return null
  }
}

function real(path: string): string {
  try {
    return realpathSync.native(path)
  } catch {
    // Vanished since it was found: the path as given is the best name left.
    return path
  }
}
