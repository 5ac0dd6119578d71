import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'

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
 * directory or file. A `.git` file (linked worktree, submodule) is followed through `gitdir:`, and
 * a `commondir` file there leads to the main repository. A bare main repository has no work tree
 * of its own, so a worktree of it is its own root. null when no repository is found or the `.git`
 * file points nowhere (git itself refuses such a directory).
 */
export function locateRepo(cwd: string): RepoLocation | null {
  let dir = resolve(cwd)
  for (;;) {
    const dotGit = join(dir, '.git')
    const kind = entryKind(dotGit)
    if (kind === 'dir' && existsSync(join(dotGit, 'HEAD'))) {
      return {
        root: real(dir),
        gitDir: dotGit,
        commonDir: dotGit,
        isWorktree: false,
        workTree: dir,
      }
    }
    if (kind === 'file') return followGitFile(dir, dotGit)
    const parent = dirname(dir)
    if (parent === dir) return null
    dir = parent
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

/** A memo of `locateRepo` per cwd; repositories rarely move, so entries live until invalidated. */
export interface RepoRootCache {
  find(cwd: string): RepoLocation | null
  /** Forget one cwd, or everything when called without an argument. */
  invalidate(cwd?: string): void
}

export function createRepoRootCache(): RepoRootCache {
  const memo = new Map<string, RepoLocation | null>()
  return {
    find(cwd) {
      const key = resolve(cwd)
      if (memo.has(key)) return memo.get(key) ?? null
      const location = locateRepo(key)
      memo.set(key, location)
      return location
    },
    invalidate(cwd) {
      if (cwd === undefined) memo.clear()
      else memo.delete(resolve(cwd))
    },
  }
}

const defaultCache = createRepoRootCache()

/** Memoized `locateRepo` (process-wide cache); see `invalidateRepoRoot`. */
export function findRepoRoot(cwd: string): RepoLocation | null {
  return defaultCache.find(cwd)
}

/** Drops `findRepoRoot`'s memo for one cwd, or all of it. */
export function invalidateRepoRoot(cwd?: string): void {
  defaultCache.invalidate(cwd)
}

function entryKind(path: string): 'dir' | 'file' | null {
  try {
    const stat = statSync(path)
    return stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : null
  } catch {
    return null
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

function real(path: string): string {
  try {
    return realpathSync.native(path)
  } catch {
    return path
  }
}
