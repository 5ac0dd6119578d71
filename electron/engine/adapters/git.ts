import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { simpleGit } from 'simple-git'
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
import { locateRepo } from './git-repo-root.ts'

export {
  createRepoRootCache,
  findRepoRoot,
  invalidateRepoRoot,
  locateRepo,
  type RepoLocation,
  type RepoRootCache,
} from './git-repo-root.ts'
export { createRepoWatcher, gitFingerprint, type RepoWatcher } from './git-watch.ts'
export { createPrStateReader, readPrState, type PrState, type PrStateReader } from './gh-pr.ts'

/** Listed one by one in `new_commits`; the rest are only counted in `new_commits_truncated`. */
export const NEW_COMMITS_CAP = 50
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
}

/**
 * Creates a reader that runs git through one simple-git instance (so `maxConcurrentProcesses`
 * bounds all repositories together). Each command addresses its repository with `-C <root>
 * --git-dir=.git`, so a deleted repository is an error instead of a walk up into a parent repo.
 */
export function createGitReader(options: GitReaderOptions = {}): GitReader {
  const git = simpleGit({
    baseDir: tmpdir(),
    maxConcurrentProcesses: options.maxConcurrentProcesses ?? 2,
    timeout: { block: options.timeoutMs ?? 10_000 },
    trimmed: false,
    // The user's own GIT_CONFIG_GLOBAL / PREFIX decide e.g. safe.directory: let them through.
    unsafe: { allowUnsafeConfigPaths: true },
  })
  git.env(gitEnvironment(process.env))
  // simple-git calls the output handler once per spawned process: the exact place to count.
  const counter = options.spawnCounter
  git.outputHandler(() => {
    if (typeof counter === 'function') counter()
    else if (counter) counter.count++
  })
  const readPrSafely = (root: string, branch: string | null, head: string | null) =>
    options.readPr
      ? options.readPr(root, branch, head).catch(unknownPr)
      : Promise.resolve(unknownPr())
  const recentByRepo = new Map<string, { key: string; commits: Commit[] }>()

  const run = (repoRoot: string, args: string[]): Promise<string> =>
    git.raw(['-C', repoRoot, '--git-dir=.git', '--work-tree=.', ...args])

  async function readWorktrees(repoRoot: string): Promise<Worktree[] | null> {
    const location = locateRepo(repoRoot)
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
    try {
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

  return { readGitState }
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

/** Variables that would point git at another repository than the one asked for. */
const REDIRECTING_ENV = new Set([
  'git_dir',
  'git_work_tree',
  'git_index_file',
  'git_common_dir',
  'git_object_directory',
  'git_alternate_object_directories',
  'git_namespace',
  'git_ceiling_directories',
  'git_discovery_across_filesystem',
])

/**
 * Variables simple-git refuses to pass on (editor, pager, ssh, askpass, env-injected config), none
 * of which a read-only status/log/for-each-ref uses: dropping them beats failing every read.
 */
const REFUSED_ENV = new Set([
  'editor',
  'pager',
  'git_editor',
  'git_sequence_editor',
  'git_pager',
  'git_askpass',
  'ssh_askpass',
  'git_ssh',
  'git_ssh_command',
  'git_proxy_command',
  'git_external_diff',
  'git_template_dir',
  'git_config_count',
])

/**
 * The parent environment minus what would redirect git or what simple-git refuses, plus: no
 * optional locks (a background `status` must never take `index.lock` from under the user's own
 * git commands) and no credential prompts.
 */
function gitEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const clean: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) {
    const name = key.toLowerCase().trim()
    const dropped =
      REDIRECTING_ENV.has(name) ||
      REFUSED_ENV.has(name) ||
      /^git_config_(key|value)_\d+$/.test(name)
    if (value !== undefined && !dropped) clean[key] = value
  }
  return { ...clean, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' }
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
