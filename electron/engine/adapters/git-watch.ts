import { sha1 } from '../core/digest.ts'
import {
  type Dirent,
  type FSWatcher,
  type WatchOptions,
  readdirSync,
  statSync,
  watch,
} from 'node:fs'
import { join } from 'node:path'
import { type RepoLocation, findRepoRoot } from './git-repo-root.ts'

const GIT_DIR_FILES = ['HEAD', 'index', 'ORIG_HEAD', 'FETCH_HEAD']
const COMMON_DIR_FILES = ['packed-refs', 'config']
const REF_TREES = ['refs/heads', 'refs/remotes']

/**
 * A cheap fs-only fingerprint of what `readGitState` reports, so the engine spawns no git process
 * for a repository whose refs and index did not change: stats (mtime, ctime, size, inode) of HEAD,
 * index, ORIG_HEAD, FETCH_HEAD (of the main and the linked work tree), packed-refs, config, every
 * file under refs/heads and refs/remotes, and each linked worktree's HEAD.
 *
 * Trade-off: editing a file in the work tree changes `dirty` without touching the index, so the
 * fingerprint cannot see it. The engine re-reads dirty state on its periodic poll (30 s) regardless
 * of the fingerprint; watching the whole work tree would cost far more than it saves.
 *
 * Blocking calls, and no exception for what is absent: a dozen stats of files the kernel holds cost
 * microseconds each, while the same stats through the thread pool, with an error built for every file
 * most repositories lack (ORIG_HEAD, FETCH_HEAD, refs/remotes, worktrees), were 45 ms of a `navi
 * status` over 200 repositories (profiled).
 */
export async function gitFingerprint(gitDir: string, commonDir: string): Promise<string> {
  const paths = new Set<string>()
  for (const dir of new Set([commonDir, gitDir])) {
    for (const name of GIT_DIR_FILES) paths.add(join(dir, name))
  }
  for (const name of COMMON_DIR_FILES) paths.add(join(commonDir, name))
  for (const tree of REF_TREES) addTree(join(commonDir, tree), paths)
  const worktreesDir = join(commonDir, 'worktrees')
  paths.add(worktreesDir)
  for (const name of namesIn(worktreesDir)) {
    paths.add(join(worktreesDir, name, 'HEAD'))
    paths.add(join(worktreesDir, name, 'gitdir'))
  }
  const hash = sha1()
  for (const path of [...paths].sort()) hash.update(`${path}\0${statLine(path)}\n`)
  return hash.digest('hex')
}

/** A file's stat as the fingerprint holds it; `-` for a file that is not there (no ORIG_HEAD yet). */
function statLine(path: string): string {
  try {
    const s = statSync(path, { bigint: true, throwIfNoEntry: false })
    return s ? `${s.mtimeNs}:${s.ctimeNs}:${s.size}:${s.ino}` : '-'
  } catch {
    // Unreadable (a permission, a file where a folder was): as absent, part of the fingerprint.
    return '-'
  }
}

/** `root`, and every directory and file under it (directories too: their mtime changes on add/remove). */
function addTree(root: string, into: Set<string>): void {
  into.add(root)
  for (const entry of entriesOf(root)) {
    const path = join(root, entry.name)
    if (entry.isDirectory()) addTree(path, into)
    else into.add(path)
  }
}

/** The entries of a folder; none when it is not one (gone, a file): its stat line stands for it. */
function entriesOf(dir: string): Dirent[] {
  try {
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return []
    return readdirSync(dir, { withFileTypes: true })
  } catch {
    // Unreadable, or gone since the stat: its stat line alone stands for it.
    return []
  }
}

/** Linked worktrees' names (none: the usual case). */
function namesIn(dir: string): string[] {
  return entriesOf(dir).map((entry) => entry.name)
}

export interface RepoWatcherOptions {
  /** Changes closer together than this fire one `onChange`. @default 75 */
  debounceMs?: number
  /**
   * Watch `refs/heads` with one recursive watcher; false (or a platform without recursive
   * fs.watch) uses one watcher per directory instead. @default true, except on Linux
   */
  recursive?: boolean
  /** A watcher that could not start or failed (e.g. the repository was deleted). Never thrown. */
  onError?: (error: Error) => void
}

export interface RepoWatcher {
  close(): void
  /**
   * A change was seen and will be told once its burst ends (the debounce runs): a reader who must not
   * miss it (a command asking right after a commit) looks instead of believing the quiet.
   */
  pending(): boolean
}

/**
 * Watches a repository's git dir (HEAD, index, packed-refs, …) and `refs/heads` recursively, and
 * calls `onChange` (debounced) when any of them changes, so a commit is noticed within a second.
 * `repo` is a location from `findRepoRoot`, or a directory to locate. Watchers do not keep the
 * process alive. Never throws: failures go to `onError`.
 */
export function createRepoWatcher(
  repo: string | Pick<RepoLocation, 'gitDir' | 'commonDir'>,
  onChange: () => void,
  options: RepoWatcherOptions = {},
): RepoWatcher {
  const location = typeof repo === 'string' ? findRepoRoot(repo) : repo
  if (location === null) {
    options.onError?.(new Error(`not a git repository: ${String(repo)}`))
    return { close() {}, pending: () => false }
  }
  const debounceMs = options.debounceMs ?? 75
  const watchers = new Map<string, FSWatcher>()
  let timer: NodeJS.Timeout | undefined
  let closed = false

  const trigger = () => {
    if (closed) return
    clearTimeout(timer)
    timer = setTimeout(() => {
      timer = undefined
      if (!closed) onChange()
    }, debounceMs)
  }
  const fail = (error: unknown) => {
    if (!closed) options.onError?.(error instanceof Error ? error : new Error(String(error)))
  }
  const add = (path: string, opts: WatchOptions, relevant: (name: string) => boolean): boolean => {
    if (watchers.has(path)) return true
    try {
      const watcher = watch(path, { persistent: false, ...opts }, (_event, filename) => {
        // An empty name means the watched directory itself went away: let the reader find out.
        if (!filename || relevant(String(filename))) trigger()
      })
      watcher.on('error', (error) => {
        watcher.close()
        watchers.delete(path)
        fail(error)
      })
      watchers.set(path, watcher)
      return true
    } catch (error) {
      if (isUnsupportedRecursion(error)) return false
      fail(error)
      return true
    }
  }

  const gitDirNames = new Set([...GIT_DIR_FILES, ...COMMON_DIR_FILES])
  for (const dir of new Set([location.gitDir, location.commonDir])) {
    add(dir, {}, (name) => gitDirNames.has(name))
  }
  const refsHeads = join(location.commonDir, 'refs', 'heads')
  const notLock = (name: string) => !name.endsWith('.lock')
  // Node's recursive fs.watch on Linux watches each file it saw: once git replaces a ref (write
  // `main.lock`, rename it over `main`) it never fires for that ref again, so a second commit that only
  // moves a ref (`--allow-empty`, `reset --soft`, `branch -f`) went unseen until the poll. Linux gets one
  // plain watcher per directory instead; macOS and Windows watch recursively natively.
  const recursive = options.recursive ?? process.platform !== 'linux'
  if (!recursive || !add(refsHeads, { recursive: true }, notLock)) {
    // No recursive fs.watch here: one watcher per directory, topped up when directories appear.
    const watchTree = (dir: string) => {
      add(dir, {}, (name) => {
        rescan()
        return notLock(name)
      })
      for (const sub of subdirectories(dir)) watchTree(join(dir, sub))
    }
    const rescan = () => {
      if (!closed) watchTree(refsHeads)
    }
    watchTree(refsHeads)
  }

  return {
    close() {
      closed = true
      clearTimeout(timer)
      for (const watcher of watchers.values()) watcher.close()
      watchers.clear()
    },
    pending: () => !closed && timer !== undefined,
  }
}

function subdirectories(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  } catch {
    // Removed meanwhile: nothing to watch under it, and the periodic poll still reads the refs.
    return []
  }
}

function isUnsupportedRecursion(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    (error.code === 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM' || error.code === 'ERR_INVALID_ARG_VALUE')
  )
}
