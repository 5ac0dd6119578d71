/**
 * Decides when a repository is read with git, and reads it. A repository is read on first sight, when its
 * refs/index fingerprint changed (the watcher and the poll both lead here), when one of its sessions was active
 * since the last read (agents edit files without touching the index, so `dirty` would go stale otherwise), when
 * commits it listed are not yet logged, or on demand. Otherwise the last state is reused and no git process is
 * spawned.
 *
 * "Which heads count as previous" is decided here, once: the heads whose commits are durably in the event
 * log (`commit`, called by the cycle only after the log append succeeded), else the persisted snapshot's. A
 * failed read or a failed log write never moves them, so the next read lists the same commits again and
 * none is lost.
 */
import type { GitState } from '../../shared/schemas/project.ts'
import {
  createGitReader,
  createRepoWatcher,
  findRepoRoot,
  gitFingerprint,
  readPrState,
  refusedRepos,
} from './adapters/git.ts'

interface TrackedRepo {
  fingerprint: string | null
  state: GitState | null
  /** Branch heads whose new commits are in the event log: the base of the next read's commit list. */
  committedHeads: Record<string, string> | null
  readAt: number
  watcher: { close(): void } | null
}

export interface RepoTracker {
  /** Main work-tree root of the repository containing `dir`, or null; fs only. */
  rootOf(dir: string): string | null
  read(
    root: string,
    opts: {
      prevHeads: Record<string, string> | null
      lastActivity: number
      force: boolean
      now: number
    },
  ): Promise<GitState>
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
  close(): void
}

export function createRepoTracker(opts: {
  watch: boolean
  onChange: (root: string) => void
}): RepoTracker {
  const repos = new Map<string, TrackedRepo>()
  let spawned = 0
  const reader = createGitReader({ spawnCounter: () => spawned++, readPr: readPrState })

  const track = (root: string): TrackedRepo => {
    let repo = repos.get(root)
    if (!repo) {
      repo = { fingerprint: null, state: null, committedHeads: null, readAt: 0, watcher: null }
      if (opts.watch) {
        repo.watcher = createRepoWatcher(root, () => opts.onChange(root))
      }
      repos.set(root, repo)
    }
    return repo
  }

  return {
    rootOf: (dir) => findRepoRoot(dir)?.root ?? null,
    async read(root, { prevHeads, lastActivity, force, now }) {
      const repo = track(root)
      const info = findRepoRoot(root)
      const fingerprint = info ? await gitFingerprint(info.gitDir, info.commonDir) : null
      const base = repo.committedHeads ?? prevHeads
      const unchanged =
        repo.state !== null &&
        repo.state.error === null &&
        fingerprint !== null &&
        fingerprint === repo.fingerprint &&
        lastActivity <= repo.readAt &&
        !force &&
        // Commits listed by the last read but not logged yet must be listed again.
        sameHeads(repo.state.branch_heads, base)
      if (unchanged && repo.state) {
        return { ...repo.state, new_commits: [], new_commits_truncated: 0 }
      }
      let state = await reader.readGitState(root, base)
      // A failed read keeps the last good heads, so a snapshot persisted now still knows where to resume.
      if (state.error && base) state = { ...state, branch_heads: { ...base } }
      repo.state = state
      repo.fingerprint = fingerprint
      repo.readAt = now
      return state
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
    close() {
      for (const repo of repos.values()) repo.watcher?.close()
      repos.clear()
    },
  }
}

function sameHeads(a: Record<string, string>, b: Record<string, string> | null): boolean {
  if (b === null) return false
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key])
}
