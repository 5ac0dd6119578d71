import { existsSync } from 'node:fs'
import { errorText } from '../../../shared/log.ts'
import { join } from 'node:path'
import type { Commit, GitState, Worktree } from '../../../shared/schemas/project.ts'
import { NO_NEW_COMMITS, type NewCommits } from '../core/diff.ts'
import {
  BRANCH_HEADS_FORMAT,
  LOG_FORMAT,
  branchForTip,
  parseBranchHeads,
  parseLogRecords,
  parseStatusV2,
  parseWorktreeList,
  planNewCommitsQuery,
  toCommits,
} from '../core/git-parse.ts'
import { findRepoRoot, refusedRepos } from './git-repo-root.ts'
import { createGitRunner, type GitRunnerOptions } from './git-runner.ts'

export {
  createRepoRootCache,
  findRepoRoot,
  invalidateRepoRoot,
  locateRepo,
  refusedRepos,
  type RepoLocation,
  type RepoRootCache,
} from './git-repo-root.ts'
export { createRepoWatcher, gitFingerprint, type RepoWatcher } from './git-watch.ts'
export { createPrStateReader, readPrState, type PrState, type PrStateReader } from './gh-pr.ts'
export type { SpawnCounter } from './git-runner.ts'

/**
 * Listed one by one in `newCommits.commits` (a burst after a restart, a pull or a rebase is listed in
 * full); only beyond this (merging a long-lived upstream) are the rest counted in `newCommits.truncated`.
 */
export const NEW_COMMITS_CAP = 1000
const RECENT_COMMITS = 5

export interface GitReaderOptions extends GitRunnerOptions {
  /** Fills `pr`; without it `pr` is `{ state: 'unknown' }`. Must not throw (see createPrStateReader). */
  readPr?: (
    repoRoot: string,
    branch: string | null,
    headSha: string | null,
  ) => Promise<GitState['pr']>
}

/** One read of a repository: its state now, and the commits since the heads it was given. */
export interface GitRead {
  state: GitState
  /** Input of the diff (core/diff.ts), never part of the state: a snapshot does not carry them. */
  newCommits: NewCommits
}

export interface GitReader {
  /**
   * Reads the repository whose work-tree root is `repoRoot` (e.g. `findRepoRoot(cwd).root`; a
   * subdirectory is not a repository here). `prevBranchHeads` are the heads whose commits were already
   * told (null on first sight, which lists no new commits). Never throws: any git failure gives a state
   * with `error` set, nulls and empty collections; keep the previous heads for the next read then.
   */
  readGitState(repoRoot: string, prevBranchHeads: Record<string, string> | null): Promise<GitRead>
  /** Drops what is kept for a repository that is no longer read. */
  forget(repoRoot: string): void
}

/**
 * Creates a reader that runs git only in repositories git itself trusts, with the repository-controlled
 * executables switched off (git-runner.ts).
 */
export function createGitReader(options: GitReaderOptions = {}): GitReader {
  const git = createGitRunner(options)
  const run = git.run
  const readPrSafely = (root: string, branch: string | null, head: string | null) =>
    options.readPr
      ? // readPr is not to throw (createPrStateReader); should one, the PR is unknown, the read goes on.
        options.readPr(root, branch, head).catch(unknownPr)
      : Promise.resolve(unknownPr())
  const recentByRepo = new Map<string, { key: string; commits: Commit[] }>()

  async function readWorktrees(repoRoot: string): Promise<Worktree[] | null> {
    const location = findRepoRoot(repoRoot)
    const onlyMain =
      location !== null &&
      !location.isWorktree &&
      !existsSync(join(location.commonDir, 'worktrees'))
    if (onlyMain) return null
    return parseWorktreeList(await run(repoRoot, ['worktree', 'list', '--porcelain', '-z']))
  }

  async function readNewCommits(
    repoRoot: string,
    heads: Record<string, string>,
    prevHeads: Record<string, string> | null,
    currentBranch: string | null,
  ): Promise<NewCommits> {
    const query = planNewCommitsQuery(heads, prevHeads)
    if (query === null) return NO_NEW_COMMITS
    // --ignore-missing: an old head that was deleted and pruned is skipped instead of failing.
    const revs = ['--ignore-missing', ...query.include, '--not', ...query.exclude, '--']
    const text = await run(repoRoot, [
      'log',
      '-z',
      `--format=${LOG_FORMAT}`,
      `--max-count=${NEW_COMMITS_CAP + 1}`,
      ...revs,
    ])
    const records = parseLogRecords(text)
    let truncated = 0
    if (records.length > NEW_COMMITS_CAP) {
      const total = Number((await run(repoRoot, ['rev-list', '--count', ...revs])).trim())
      truncated = Number.isFinite(total) ? Math.max(total - NEW_COMMITS_CAP, 0) : 0
    }
    const commits = toCommits(records.slice(0, NEW_COMMITS_CAP), (record) =>
      branchForTip(record.source, heads, currentBranch),
    )
    return { commits, truncated }
  }

  async function readRecentCommits(
    repoRoot: string,
    headSha: string | null,
    branch: string | null,
  ): Promise<Commit[]> {
    if (headSha === null) return []
    const key = `${headSha}\0${branch ?? ''}`
    const cached = recentByRepo.get(repoRoot)
    if (cached?.key === key) return cached.commits
    const text = await run(repoRoot, [
      'log',
      '-z',
      `--format=${LOG_FORMAT}`,
      `--max-count=${RECENT_COMMITS}`,
      headSha,
      '--',
    ])
    const commits = toCommits(parseLogRecords(text), () => branch)
    recentByRepo.set(repoRoot, { key, commits })
    return commits
  }

  async function readGitState(
    repoRoot: string,
    prevBranchHeads: Record<string, string> | null,
  ): Promise<GitRead> {
    const failed = (error: string): GitRead => ({
      state: errorState(error),
      newCommits: NO_NEW_COMMITS,
    })
    if (!existsSync(join(repoRoot, '.git'))) return failed(`not a git repository: ${repoRoot}`)
    const location = findRepoRoot(repoRoot)
    if (location === null) {
      return failed(refusedRepos().get(repoRoot) ?? `not a repository git trusts: ${repoRoot}`)
    }
    try {
      await git.prepare(repoRoot, location)
      const [statusText, headsText, listedWorktrees] = await Promise.all([
        run(repoRoot, ['status', '--porcelain=v2', '--branch', '-z']),
        run(repoRoot, ['for-each-ref', `--format=${BRANCH_HEADS_FORMAT}`, 'refs/heads']),
        readWorktrees(repoRoot),
      ])
      const status = parseStatusV2(statusText)
      const heads = parseBranchHeads(headsText)
      const [fresh, recent, pr] = await Promise.all([
        readNewCommits(repoRoot, heads, prevBranchHeads, status.branch),
        readRecentCommits(repoRoot, status.headSha, status.branch),
        readPrSafely(repoRoot, status.branch, status.headSha),
      ])
      const state: GitState = {
        head_sha: status.headSha,
        branch: status.branch,
        detached: status.detached,
        commits_ahead: status.ahead,
        commits_behind: status.behind,
        upstream: status.upstream,
        // Untracked files count as dirty: they are work an agent left that is not committed.
        dirty: status.changedEntries > 0,
        branch_heads: heads,
        worktrees: listedWorktrees ?? [
          { path: repoRoot, branch: status.branch, head_sha: status.headSha },
        ],
        recent_commits: recent,
        pr,
        error: null,
      }
      return { state, newCommits: fresh }
    } catch (error) {
      recentByRepo.delete(repoRoot)
      return failed(gitFailureLine(error))
    }
  }

  return {
    readGitState,
    forget(repoRoot) {
      git.forget(repoRoot)
      recentByRepo.delete(repoRoot)
    },
  }
}

/** The state of a repository git could not read. */
export function errorState(error: string): GitState {
  return {
    head_sha: null,
    branch: null,
    detached: false,
    commits_ahead: null,
    commits_behind: null,
    upstream: null,
    dirty: null,
    branch_heads: {},
    worktrees: [],
    recent_commits: [],
    pr: { state: 'unknown' },
    error,
  }
}

function unknownPr(): GitState['pr'] {
  return { state: 'unknown' }
}

/** The line of git's output that says what went wrong (`fatal:`/`error:`), else its first line. */
function gitFailureLine(error: unknown): string {
  const lines = errorText(error)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  return lines.find((line) => /^(fatal|error):/.test(line)) ?? lines[0] ?? 'git failed'
}
