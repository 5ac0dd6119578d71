import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { simpleGit, type SimpleGit } from 'simple-git'
import type { Commit, GitState, Worktree } from '../../../shared/schemas/project.ts'
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
import { createLimiter } from '../core/concurrency.ts'
import { findRepoRoot, refusedRepos, type RepoLocation } from './git-repo-root.ts'
import {
  filterOverrideArgs,
  findForeignPath,
  GIT_HARDENING_CONFIG,
  gitEnvironment,
  HARDENING_UNSAFE_OPTIONS,
} from './git-trust.ts'

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

/**
 * Listed one by one in `new_commits` (a burst after a restart, a pull or a rebase is listed in full); only
 * beyond this (merging a long-lived upstream) are the rest counted in `new_commits_truncated`.
 */
export const NEW_COMMITS_CAP = 1000
const RECENT_COMMITS = 5

/**
 * Counts git processes: a callback called once per spawn, or an object whose `count` is
 * incremented (a benchmark reads it before and after a cycle).
 */
export type SpawnCounter = (() => void) | { count: number }

export interface GitReaderOptions {
  /** Told of every git process this reader spawns. */
  spawnCounter?: SpawnCounter
  /** Git processes running at once across every repository this reader serves. @default 2 */
  maxConcurrentProcesses?: number
  /** A git process silent for this long is killed and the read reports an error. @default 10000 */
  timeoutMs?: number
  /** Fills `pr`; without it `pr` is `{ state: 'unknown' }`. Must not throw (see createPrStateReader). */
  readPr?: (
    repoRoot: string,
    branch: string | null,
    headSha: string | null,
  ) => Promise<GitState['pr']>
}

export interface GitReader {
  /**
   * Reads the repository whose work-tree root is `repoRoot` (e.g. `findRepoRoot(cwd).root`; a
   * subdirectory is not a repository here). `prevBranchHeads` are the heads of the previous snapshot
   * (null on first sight, which lists no new commits). Never throws: any git failure gives a state
   * with `error` set, nulls and empty collections; keep the previous heads for the next diff then.
   */
  readGitState(repoRoot: string, prevBranchHeads: Record<string, string> | null): Promise<GitState>
  /** Drops what is kept for a repository that is no longer read. */
  forget(repoRoot: string): void
}

/**
 * Creates a reader that runs git only in repositories git itself trusts (git-trust.ts), with the
 * repository-controlled executables switched off. Each command addresses its repository with `-C <root>`
 * and lets git discover it there, so git's own safe.directory check runs on every command; discovery
 * stops at `<root>` (`GIT_CEILING_DIRECTORIES`), so a deleted repository is an error instead of a walk up
 * into a parent repo. At most `maxConcurrentProcesses` git processes run at once, across repositories.
 */
export function createGitReader(options: GitReaderOptions = {}): GitReader {
  const limit = createLimiter(options.maxConcurrentProcesses ?? 2)
  const euid = process.geteuid?.() ?? null
  const counter = options.spawnCounter
  const instances = new Map<string, SimpleGit>()
  /** One simple-git per repository: the discovery ceiling is part of its environment. */
  const gitFor = (repoRoot: string): SimpleGit => {
    let git = instances.get(repoRoot)
    if (!git) {
      git = simpleGit({
        baseDir: tmpdir(),
        maxConcurrentProcesses: 1_000,
        timeout: { block: options.timeoutMs ?? 10_000 },
        trimmed: false,
        config: [...GIT_HARDENING_CONFIG],
        // The user's own GIT_CONFIG_GLOBAL / PREFIX decide e.g. safe.directory: let them through.
        unsafe: { allowUnsafeConfigPaths: true, ...HARDENING_UNSAFE_OPTIONS },
      })
      git.env(gitEnvironment(process.env, repoRoot))
      // simple-git calls the output handler once per spawned process: the exact place to count.
      git.outputHandler(() => {
        if (typeof counter === 'function') counter()
        else if (counter) counter.count++
      })
      instances.set(repoRoot, git)
    }
    return git
  }
  const readPrSafely = (root: string, branch: string | null, head: string | null) =>
    options.readPr
      ? options.readPr(root, branch, head).catch(unknownPr)
      : Promise.resolve(unknownPr())
  const recentByRepo = new Map<string, { key: string; commits: Commit[] }>()

  /** Per repository not owned by the user: its own filter drivers switched off (`-c` pairs). */
  const extraConfig = new Map<string, string[]>()
  const run = (repoRoot: string, args: string[]): Promise<string> =>
    limit(() =>
      gitFor(repoRoot).raw([...(extraConfig.get(repoRoot) ?? []), '-C', repoRoot, ...args]),
    )

  /**
   * A repository another user owns (trusted through safe.directory) may name filter drivers in its own
   * config, which `status` runs on files it must re-read. Their names are read afresh before each read
   * (its owner can change them at any time) and switched off; the user's own repositories keep theirs
   * (git-lfs and the like are the user's own configuration).
   */
  async function disableForeignFilters(repoRoot: string, location: RepoLocation): Promise<void> {
    if (euid === null || findForeignPath(location, euid) === null) {
      extraConfig.delete(repoRoot)
      return
    }
    extraConfig.set(repoRoot, [])
    let names = ''
    try {
      names = await run(repoRoot, [
        'config',
        '--local',
        '--includes',
        '--null',
        '--name-only',
        '--get-regexp',
        '^filter\\.',
      ])
    } catch {
      // Exit 1: no filter configured.
    }
    extraConfig.set(repoRoot, filterOverrideArgs(names))
  }

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
  ): Promise<{ commits: Commit[]; truncated: number }> {
    const query = planNewCommitsQuery(heads, prevHeads)
    if (query === null) return { commits: [], truncated: 0 }
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
  ): Promise<GitState> {
    if (!existsSync(join(repoRoot, '.git'))) return errorState(`not a git repository: ${repoRoot}`)
    const location = findRepoRoot(repoRoot)
    if (location === null) {
      return errorState(refusedRepos().get(repoRoot) ?? `not a repository git trusts: ${repoRoot}`)
    }
    try {
      await disableForeignFilters(repoRoot, location)
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
      return {
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
        new_commits: fresh.commits,
        new_commits_truncated: fresh.truncated,
        recent_commits: recent,
        pr,
        error: null,
      }
    } catch (error) {
      recentByRepo.delete(repoRoot)
      return errorState(errorText(error))
    }
  }

  return {
    readGitState,
    forget(repoRoot) {
      instances.delete(repoRoot)
      extraConfig.delete(repoRoot)
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
    new_commits: [],
    new_commits_truncated: 0,
    recent_commits: [],
    pr: { state: 'unknown' },
    error,
  }
}

function unknownPr(): GitState['pr'] {
  return { state: 'unknown' }
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  return lines.find((line) => /^(fatal|error):/.test(line)) ?? lines[0] ?? 'git failed'
}
