/**
 * Decides when a repository is read with git, and reads it. A repository is read on first sight, when its
 * refs/index fingerprint changed (the watcher and the poll both lead here), when one of its sessions was active
 * since the last read (agents edit files without touching the index, so `dirty` would go stale otherwise), or
 * on demand. Otherwise the last state is reused and no git process is spawned.
 */
import type { GitState } from '../../shared/schemas/project.ts'
import {
  createGitReader,
  createRepoWatcher,
  findRepoRoot,
  gitFingerprint,
  readPrState,
} from './adapters/git.ts'

interface TrackedRepo {
  fingerprint: string | null
  state: GitState | null
  /** Branch heads of the last successful read: a failed read must not make old commits look new. */
  goodHeads: Record<string, string> | null
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
  /** Stop tracking repositories that are no longer projects. */
  retain(roots: Set<string>): void
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
      repo = { fingerprint: null, state: null, goodHeads: null, readAt: 0, watcher: null }
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
      const unchanged =
        repo.state !== null &&
        fingerprint !== null &&
        fingerprint === repo.fingerprint &&
        lastActivity <= repo.readAt &&
        !force
      if (unchanged && repo.state) {
        return { ...repo.state, new_commits: [], new_commits_truncated: 0 }
      }
      const state = await reader.readGitState(root, repo.goodHeads ?? prevHeads)
      if (!state.error) repo.goodHeads = state.branch_heads
      repo.state = state
      repo.fingerprint = fingerprint
      repo.readAt = now
      return state
    },
    retain(roots) {
      for (const [root, repo] of repos) {
        if (!roots.has(root)) {
          repo.watcher?.close()
          repos.delete(root)
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
