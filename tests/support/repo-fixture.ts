import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join } from 'node:path'
import { execa } from 'execa'

/** A fixed identity and no global or system git config, so tests behave the same on every machine. */
export const FIXTURE_GIT_ENV = {
  GIT_AUTHOR_NAME: 'Navi Test',
  GIT_AUTHOR_EMAIL: 'navi-test@example.invalid',
  GIT_COMMITTER_NAME: 'Navi Test',
  GIT_COMMITTER_EMAIL: 'navi-test@example.invalid',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
} as const

export interface RepoFixtureOptions {
  /** Prefix of the temp directory. @default 'navi-repo-' */
  prefix?: string
  /** Make a first commit (`README.md`) so HEAD exists. @default true */
  initialCommit?: boolean
}

export interface RepoFixture {
  /** The repository's work tree (real path). */
  dir: string
  /** The temp directory holding the repo, its worktrees and its bare upstream. */
  base: string
  /** Writes a file (parents created) relative to `dir`; returns its absolute path. */
  file(rel: string, content: string): string
  /** Writes `files`, stages everything (`git add -A`) and commits; returns the new HEAD sha. */
  commit(subject: string, files?: Record<string, string>): Promise<string>
  /** Creates a branch at HEAD without checking it out; returns its sha. */
  branch(name: string): Promise<string>
  checkout(name: string): Promise<void>
  /** Adds a linked worktree (path relative to `base`) on `branch`, created when missing. */
  worktree(path: string, branch: string): Promise<string>
  /** Creates a bare repo, adds it as `origin`, pushes the current branch with upstream set. */
  addUpstream(): Promise<string>
  /** Detaches HEAD at the current commit. */
  detach(): Promise<void>
  /** Runs git in `dir` with the fixture's identity; returns trimmed stdout. */
  git(...args: string[]): Promise<string>
  /** Removes everything under `base`. */
  cleanup(): Promise<void>
}

/** A real git repository in a temp dir, for adapter tests (see tests/adapters/git.test.ts). */
export async function createRepoFixture(options: RepoFixtureOptions = {}): Promise<RepoFixture> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), options.prefix ?? 'navi-repo-')))
  const dir = join(base, 'repo')
  mkdirSync(dir)

  const gitIn = async (cwd: string, args: string[]): Promise<string> => {
    const result = await execa('git', args, {
      cwd,
      env: FIXTURE_GIT_ENV,
      stdin: 'ignore',
    })
    return String(result.stdout).trim()
  }
  const git = (...args: string[]) => gitIn(dir, args)
  const inBase = (path: string) => (isAbsolute(path) ? path : join(base, path))

  const file = (rel: string, content: string): string => {
    const path = join(dir, rel)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, content)
    return path
  }

  await git('init', '-q', '-b', 'main')
  await git('config', 'user.name', FIXTURE_GIT_ENV.GIT_AUTHOR_NAME)
  await git('config', 'user.email', FIXTURE_GIT_ENV.GIT_AUTHOR_EMAIL)
  await git('config', 'commit.gpgsign', 'false')

  const fixture: RepoFixture = {
    dir,
    base,
    file,
    async commit(subject, files = {}) {
      for (const [rel, content] of Object.entries(files)) file(rel, content)
      await git('add', '-A')
      await git('commit', '-q', '--allow-empty', '-m', subject)
      return git('rev-parse', 'HEAD')
    },
    async branch(name) {
      await git('branch', name)
      return git('rev-parse', `refs/heads/${name}`)
    },
    async checkout(name) {
      await git('checkout', '-q', name)
    },
    async worktree(path, branch) {
      const target = inBase(path)
      const exists = await git('branch', '--list', branch)
      await git('worktree', 'add', '-q', ...(exists ? [target, branch] : ['-b', branch, target]))
      return realpathSync(target)
    },
    async addUpstream() {
      const bare = join(base, 'origin.git')
      await gitIn(base, ['init', '-q', '--bare', '-b', 'main', bare])
      await git('remote', 'add', 'origin', bare)
      await git('push', '-q', '-u', 'origin', 'HEAD')
      return bare
    },
    async detach() {
      await git('checkout', '-q', '--detach')
    },
    git,
    async cleanup() {
      rmSync(base, { recursive: true, force: true })
    },
  }
  if (options.initialCommit ?? true)
    await fixture.commit('initial commit', { 'README.md': '# fixture\n' })
  return fixture
}
