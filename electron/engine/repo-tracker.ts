/**
 * Decides when a repository is read with git, and reads it. A repository is read on first sight, when its
 * refs/index fingerprint changed (the watcher and the poll both lead here), when one of its sessions was active
 * since the last read (agents edit files without touching the index, so `dirty` would go stale otherwise; at
 * most every ACTIVITY_REREAD_MS while they keep working), when
 * commits it listed are not yet logged, or on demand. Otherwise the last state is reused and no git process is
 * spawned.
 *
 * Even the fingerprint (a dozen stats per repository) is skipped while the repository's watcher is healthy
 * and has told of no change: an idle poll then touches no repository. Every `WATCHER_TRUST_MS` the
 * fingerprint is taken anyway, the net for an event a watcher may miss (a network filesystem, a full
 * inotify table).
 *
 * "Which heads count as previous" is decided here, once: the heads whose commits are durably in the event
 * log (`commit`, called by the cycle only after the log append succeeded), else the persisted snapshot's. A
 * failed read or a failed log write never moves them, so the next read lists the same commits again and
 * none is lost.
 */
import type { GitState } from '../../shared/schemas/project.ts'
import { NO_NEW_COMMITS } from './core/diff.ts'
import { loadRepoMarks, saveRepoMarks, type RepoMark } from './adapters/repo-marks.ts'
import {
  createGitReader,
  type GitRead,
  createRepoWatcher,
  findRepoRoot,
  gitFingerprint,
  readPrState,
  refusedRepos,
  type RepoWatcher,
} from './adapters/git.ts'

/** How long a quiet, healthy watcher is believed before the fingerprint is checked again. */
export const WATCHER_TRUST_MS = 5 * 60_000

/**
 * While an agent works in a repository (its transcript grows many times a second), the work tree is read
 * again with git at most this often: the first activity after a quiet spell is read at once, and then a
 * cycle that only folds a transcript line waits on no git. A change of refs or index is read at once; the
 * poll reads what the agent's last edits left.
 */
export const ACTIVITY_REREAD_MS = 10_000

interface TrackedRepo {
  fingerprint: string | null
  /** When the fingerprint was last taken. */
  fingerprintedAt: number
  /** The watcher told of a change since the fingerprint was last taken. */
  heard: boolean
  /** The watcher started and has not failed. */
  watcherHealthy: boolean
  state: GitState | null
  /** Branch heads whose new commits are in the event log: the base of the next read's commit list. */
  committedHeads: Record<string, string> | null
  readAt: number
  /** When a session's activity last made it read with git (the first one of a burst reads at once). */
  activityReadAt: number
  watcher: RepoWatcher | null
}

export interface RepoTracker {
  /** Main work-tree root of the repository containing `dir`, or null; fs only. */
  rootOf(dir: string): string | null
  /**
   * The repository's state, and the commits since the heads already told (for the diff).
   * `persisted`: the git state of the project's last saved snapshot, where heads resume after a restart.
   */
  read(
    root: string,
    opts: {
      persisted: GitState | null
      lastActivity: number
      force: boolean
      /** False: take the fingerprint even if the watcher told nothing (a cycle someone asked for). */
      trustWatcher: boolean
      now: number
    },
  ): Promise<GitRead>
  /**
   * What `read` would answer without looking at the repository at all (its state is settled and its
   * watcher healthy and quiet), or null when it would look: lets a cycle skip queueing a read.
   */
  unchanged(root: string, opts: Parameters<RepoTracker['read']>[1]): GitState | null
  /**
   * The commits `heads` list up to are durably logged: the next read lists only commits after them.
   * Called by the cycle after a successful log append, for each repository read without error.
   */
  commit(root: string, heads: Record<string, string>): void
  /** Stop tracking repositories that are no longer projects. */
  retain(roots: Set<string>): void
  /** Repositories git would not trust (another user's, not in safe.directory), with the reason. */
  refusals(): Map<string, string>
  spawnCount(): number
  /** Writes the repositories' read marks for the next process (repo-marks.ts), if they changed. */
  flush(): Promise<void>
  close(): void
}

export function createRepoTracker(opts: {
  watch: boolean
  onChange: (root: string) => void
  /** @default gitFingerprint (a benchmark or test may wrap it to count the looks) */
  fingerprint?: typeof gitFingerprint
  /** Where read marks are kept between processes; absent, every process reads each repository once. */
  marksFile?: string | null
  /** How long a repository's watcher waits for a burst of changes to end. @default 75 (git-watch.ts) */
  watcherDebounceMs?: number
}): RepoTracker {
  const fingerprintOf = opts.fingerprint ?? gitFingerprint
  const repos = new Map<string, TrackedRepo>()
  const marksFile = opts.marksFile ?? null
  /** Marks an earlier process left, for repositories this one has not read yet. */
  const marks = marksFile ? loadRepoMarks(marksFile) : new Map<string, RepoMark>()
  let marksChanged = false
  let spawned = 0
  const reader = createGitReader({ spawnCounter: () => spawned++, readPr: readPrState })

  const track = (root: string): TrackedRepo => {
    let repo = repos.get(root)
    if (!repo) {
      const tracked: TrackedRepo = {
        fingerprint: null,
        fingerprintedAt: Number.NEGATIVE_INFINITY,
        heard: false,
        watcherHealthy: opts.watch,
        state: null,
        committedHeads: null,
        readAt: 0,
        activityReadAt: Number.NEGATIVE_INFINITY,
        watcher: null,
      }
      if (opts.watch) {
        tracked.watcher = createRepoWatcher(
          root,
          () => {
            tracked.heard = true
            opts.onChange(root)
          },
          {
            onError: () => {
              tracked.watcherHealthy = false
            },
            ...(opts.watcherDebounceMs === undefined ? {} : { debounceMs: opts.watcherDebounceMs }),
          },
        )
      }
      repo = tracked
      repos.set(root, repo)
    }
    return repo
  }

  type ReadOptions = Parameters<RepoTracker['read']>[1]
  /** Read with git since, no session active since (or read for activity just now), heads all told. */
  const isSettled = (repo: TrackedRepo, opts: ReadOptions): boolean =>
    repo.state !== null &&
    repo.state.error === null &&
    (opts.lastActivity <= repo.readAt || opts.now - repo.activityReadAt < ACTIVITY_REREAD_MS) &&
    !opts.force &&
    // Commits listed by the last read but not logged yet must be listed again.
    sameHeads(repo.state.branch_heads, repo.committedHeads ?? persistedHeads(opts.persisted))
  /** Its watcher may be believed that nothing changed. */
  const trusts = (repo: TrackedRepo, opts: ReadOptions): boolean =>
    opts.trustWatcher &&
    repo.watcher !== null &&
    repo.watcherHealthy &&
    !repo.heard &&
    // A change inside its watcher's debounce is not told yet, but it happened: look.
    !repo.watcher.pending() &&
    opts.now - repo.fingerprintedAt < WATCHER_TRUST_MS

  return {
    rootOf: (dir) => findRepoRoot(dir)?.root ?? null,
    unchanged(root, opts) {
      const repo = repos.get(root)
      return repo && isSettled(repo, opts) && trusts(repo, opts) ? repo.state : null
    },
    async read(root, opts) {
      const { persisted, lastActivity, force, now } = opts
      const repo = track(root)
      const base = repo.committedHeads ?? persistedHeads(persisted)
      const settled = isSettled(repo, opts)
      if (settled && trusts(repo, opts) && repo.state) {
        return { state: repo.state, newCommits: NO_NEW_COMMITS }
      }
      // Cleared before the look, so a change told while it runs is heard next time.
      repo.heard = false
      const info = findRepoRoot(root)
      const fingerprint = info ? await fingerprintOf(info.gitDir, info.commonDir) : null
      repo.fingerprintedAt = now
      const unchanged = settled && fingerprint !== null && fingerprint === repo.fingerprint
      if (unchanged && repo.state) return { state: repo.state, newCommits: NO_NEW_COMMITS }
      // First look of this process: the last snapshot stands if the repository is as it was read then.
      const mark = repo.state === null ? marks.get(root) : undefined
      if (
        mark &&
        !force &&
        persisted !== null &&
        persisted.error === null &&
        fingerprint !== null &&
        fingerprint === mark.fingerprint &&
        lastActivity <= mark.readAt
      ) {
        repo.state = persisted
        repo.fingerprint = fingerprint
        repo.readAt = mark.readAt
        return { state: persisted, newCommits: NO_NEW_COMMITS }
      }
      if (repo.state !== null && lastActivity > repo.readAt) repo.activityReadAt = now
      const read = await reader.readGitState(root, base)
      // A failed read keeps the last good heads, so a snapshot persisted now still knows where to resume.
      const state =
        read.state.error && base ? { ...read.state, branch_heads: { ...base } } : read.state
      repo.state = state
      repo.fingerprint = fingerprint
      repo.readAt = now
      if (fingerprint !== null && state.error === null) {
        marks.set(root, { fingerprint, readAt: now })
        marksChanged = true
      }
      return { state, newCommits: read.newCommits }
    },
    commit(root, heads) {
      const repo = repos.get(root)
      if (repo) repo.committedHeads = { ...heads }
    },
    refusals: () => refusedRepos(),
    retain(roots) {
      for (const [root, repo] of repos) {
        if (!roots.has(root)) {
          repo.watcher?.close()
          repos.delete(root)
          reader.forget(root)
        }
      }
    },
    spawnCount: () => spawned,
    async flush() {
      if (!marksFile || !marksChanged) return
      marksChanged = false
      // Only the repositories still tracked: one that stopped being a project drops out.
      const kept = new Map([...marks].filter(([root]) => repos.has(root)))
      await saveRepoMarks(marksFile, kept).catch(() => {
        // A cache: the next process reads those repositories with git once more.
        marksChanged = true
      })
    },
    close() {
      for (const repo of repos.values()) repo.watcher?.close()
      repos.clear()
    },
  }
}

/**
 * The heads a persisted snapshot says were told, or null when it has none to offer (a failed read's
 * snapshot carries the last good heads; one from before that rule carries none).
 */
function persistedHeads(git: GitState | null): Record<string, string> | null {
  if (!git) return null
  if (git.error && Object.keys(git.branch_heads).length === 0) return null
  return git.branch_heads
}

function sameHeads(a: Record<string, string>, b: Record<string, string> | null): boolean {
  if (b === null) return false
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key])
}
