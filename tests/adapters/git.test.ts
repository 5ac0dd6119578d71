import { rmSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { gitStateSchema } from '../../shared/schemas/project.ts'
import {
  NEW_COMMITS_CAP,
  createGitReader,
  findRepoRoot,
  invalidateRepoRoot,
  locateRepo,
} from '../../electron/engine/adapters/git.ts'
import { execa } from 'execa'
import { createRepoFixture, FIXTURE_GIT_ENV, type RepoFixture } from '../support/repo-fixture.ts'

const fixtures: RepoFixture[] = []
async function repo(options?: Parameters<typeof createRepoFixture>[0]): Promise<RepoFixture> {
  const fixture = await createRepoFixture(options)
  fixtures.push(fixture)
  return fixture
}
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((f) => f.cleanup()))
  invalidateRepoRoot()
})

describe('readGitState', () => {
  it('reads head, branch, heads and recent commits of a clean repo, matching the schema', async () => {
    const r = await repo()
    const head = await r.commit('second', { 'a.txt': 'a' })
    const { state: state } = await createGitReader().readGitState(r.dir, null)
    expect(gitStateSchema.parse(state)).toEqual(state)
    expect(state).toMatchObject({
      head_sha: head,
      branch: 'main',
      detached: false,
      dirty: false,
      upstream: null,
      commits_ahead: null,
      commits_behind: null,
      branch_heads: { main: head },
      worktrees: [{ path: r.dir, branch: 'main', head_sha: head }],
      error: null,
    })
    expect(state.recent_commits.map((c) => c.subject)).toEqual(['second', 'initial commit'])
    expect(state.recent_commits[0]).toMatchObject({
      sha: head,
      branch: 'main',
      author: 'Navi Test',
    })
    expect(Number.isNaN(Date.parse(state.recent_commits[0]?.timestamp ?? ''))).toBe(false)
  })

  it('lists the commits made since the previous heads, newest first, with branch', async () => {
    const r = await repo()
    const reader = createGitReader()
    const { state: before } = await reader.readGitState(r.dir, null)
    const first = await r.commit('add feature', { 'f.txt': '1' })
    const second = await r.commit('fix feature', { 'f.txt': '2' })
    const after = await reader.readGitState(r.dir, before.branch_heads)
    expect(after.newCommits.commits.map((c) => [c.sha, c.subject, c.branch])).toEqual([
      [second, 'fix feature', 'main'],
      [first, 'add feature', 'main'],
    ])
    expect(after.newCommits.truncated).toBe(0)
    const again = await reader.readGitState(r.dir, after.state.branch_heads)
    expect(again.newCommits.commits).toEqual([])
  })

  it('keeps a hostile commit subject verbatim and does not break the next record', async () => {
    const r = await repo()
    const reader = createGitReader()
    const { state: before } = await reader.readGitState(r.dir, null)
    const hostile = `fix: "double" 'single'\ttab $(rm -rf ~) \`id\` ; echo pwned`
    await r.commit(hostile)
    await r.commit('plain\nsecond line of the title paragraph')
    const after = await reader.readGitState(r.dir, before.branch_heads)
    expect(after.newCommits.commits.map((c) => c.subject)).toEqual([
      'plain second line of the title paragraph',
      hostile,
    ])
  })

  it('shows a new branch in branch_heads and credits its commits to it', async () => {
    const r = await repo()
    const reader = createGitReader()
    const { state: before } = await reader.readGitState(r.dir, null)
    await r.git('checkout', '-q', '-b', 'feature/login')
    const sha = await r.commit('login form')
    const after = await reader.readGitState(r.dir, before.branch_heads)
    expect(after.state.branch_heads).toEqual({ main: before.head_sha, 'feature/login': sha })
    expect(after.newCommits.commits).toEqual([
      expect.objectContaining({ sha, branch: 'feature/login' }),
    ])
  })

  it('counts commits ahead of and behind the upstream', async () => {
    const r = await repo()
    await r.addUpstream()
    const reader = createGitReader()
    expect((await reader.readGitState(r.dir, null)).state).toMatchObject({
      upstream: 'origin/main',
      commits_ahead: 0,
      commits_behind: 0,
    })
    await r.commit('pushed')
    await r.git('push', '-q')
    await r.git('reset', '-q', '--hard', 'HEAD~1')
    await r.commit('local one')
    await r.commit('local two')
    expect((await reader.readGitState(r.dir, null)).state).toMatchObject({
      commits_ahead: 2,
      commits_behind: 1,
    })
  })

  it('reports a dirty work tree: modified and untracked files', async () => {
    const r = await repo()
    const reader = createGitReader()
    r.file('README.md', 'changed\n')
    expect((await reader.readGitState(r.dir, null)).state.dirty).toBe(true)
    await r.git('checkout', '--', 'README.md')
    expect((await reader.readGitState(r.dir, null)).state.dirty).toBe(false)
    r.file('notes/new.txt', 'x')
    expect((await reader.readGitState(r.dir, null)).state.dirty).toBe(true)
  })

  it('reports a detached HEAD as branch null', async () => {
    const r = await repo()
    const head = await r.commit('two')
    await r.detach()
    const { state: state } = await createGitReader().readGitState(r.dir, null)
    expect(state).toMatchObject({ detached: true, branch: null, head_sha: head, error: null })
    expect(state.recent_commits[0]?.branch).toBeNull()
  })

  it('lists linked worktrees and groups a worktree cwd under the main root', async () => {
    const r = await repo()
    const path = await r.worktree('wt-feature', 'feature')
    const { state: state } = await createGitReader().readGitState(r.dir, null)
    expect(state.worktrees).toEqual([
      { path: r.dir, branch: 'main', head_sha: state.head_sha },
      { path, branch: 'feature', head_sha: state.head_sha },
    ])
    r.file('../wt-feature/deep/dir/x.txt', 'x')
    const location = findRepoRoot(join(path, 'deep', 'dir'))
    expect(location).toMatchObject({ root: r.dir, isWorktree: true, workTree: path })
    expect(location?.commonDir).toBe(join(r.dir, '.git'))
    expect(findRepoRoot(join(r.dir, 'nested'))).toMatchObject({ root: r.dir, isWorktree: false })
  })

  it('findRepoRoot is null outside any repository and memoizes until invalidated', async () => {
    const r = await repo({ initialCommit: false })
    expect(locateRepo(r.base)).toBeNull()
    expect(findRepoRoot(r.dir)?.root).toBe(r.dir)
    rmSync(join(r.dir, '.git'), { recursive: true })
    expect(findRepoRoot(r.dir)?.root).toBe(r.dir)
    invalidateRepoRoot(r.dir)
    expect(findRepoRoot(r.dir)).toBeNull()
  })

  it('locateRepo walks up from a deep folder, but never up into a GIT_CEILING_DIRECTORIES entry', async () => {
    const r = await repo({ initialCommit: false })
    r.file('a/b/c/x.txt', 'x')
    const deep = join(r.dir, 'a', 'b', 'c')
    expect(locateRepo(deep)?.root).toBe(r.dir)
    expect(locateRepo(deep, { GIT_CEILING_DIRECTORIES: join(r.base, 'elsewhere') })?.root).toBe(
      r.dir,
    )
    expect(locateRepo(deep, { GIT_CEILING_DIRECTORIES: join(r.dir, 'a', 'b') })).toBeNull()
    expect(locateRepo(deep, { GIT_CEILING_DIRECTORIES: r.dir })).toBeNull()
    expect(locateRepo(deep, { GIT_CEILING_DIRECTORIES: 'relative/ignored' })?.root).toBe(r.dir)
  })

  it('reads an empty repository without failing', async () => {
    const r = await repo({ initialCommit: false })
    const { state: state } = await createGitReader().readGitState(r.dir, {})
    expect(state).toMatchObject({ head_sha: null, branch: 'main', branch_heads: {}, error: null })
    expect(state.recent_commits).toEqual([])
  })

  it('gives an error state, never a throw, for a deleted repository or a non-repository', async () => {
    const r = await repo()
    const reader = createGitReader()
    await reader.readGitState(r.dir, null)
    rmSync(r.dir, { recursive: true, force: true })
    const { state: gone } = await reader.readGitState(r.dir, { main: 'a'.repeat(40) })
    expect(gone.error).toMatch(/not a git repository/)
    expect(gone).toMatchObject({ head_sha: null, branch: null, dirty: null, branch_heads: {} })
    const other = await repo()
    writeFileSync(join(other.dir, '.git', 'HEAD'), 'garbage\n')
    const { state: corrupt } = await reader.readGitState(other.dir, null)
    expect(corrupt.error).toEqual(expect.any(String))
    expect(corrupt.head_sha).toBeNull()
  })

  it('reads a repository whose index is locked, and leaves the lock alone', async () => {
    const r = await repo()
    r.file('README.md', 'edited\n')
    const lock = join(r.dir, '.git', 'index.lock')
    writeFileSync(lock, '')
    const { state: state } = await createGitReader().readGitState(r.dir, null)
    expect(state.error).toBeNull()
    expect(state.dirty).toBe(true)
    expect(existsSync(lock)).toBe(true)
  })

  it('skips an old head that no longer exists (branch -D + gc) instead of failing', async () => {
    const r = await repo()
    const reader = createGitReader()
    await r.git('checkout', '-q', '-b', 'doomed')
    await r.commit('doomed work')
    const { state: before } = await reader.readGitState(r.dir, null)
    const doomed = before.branch_heads.doomed ?? ''
    await r.checkout('main')
    await r.git('branch', '-q', '-D', 'doomed')
    await r.git('reflog', 'expire', '--expire=now', '--all')
    await r.git('gc', '-q', '--prune=now')
    await expect(r.git('cat-file', '-e', doomed)).rejects.toThrow()
    const sha = await r.commit('after the purge')
    const after = await reader.readGitState(r.dir, before.branch_heads)
    expect(after.state.error).toBeNull()
    expect(after.newCommits.commits.map((c) => c.sha)).toEqual([sha])
  })

  it(`lists at most ${NEW_COMMITS_CAP} new commits and counts the rest`, async () => {
    const r = await repo()
    const reader = createGitReader()
    const { state: before } = await reader.readGitState(r.dir, null)
    const total = NEW_COMMITS_CAP + 3
    // One fast-import stream instead of a thousand commit-tree processes.
    const commits = Array.from({ length: total }, (_, i) => {
      const message = `bulk ${i + 1}`
      return `commit refs/heads/main\ncommitter Navi Test <t@example.invalid> ${1_700_000_000 + i} +0000\ndata ${message.length}\n${message}\n${i === 0 ? 'from refs/heads/main^0\n' : ''}M 644 inline bulk.txt\ndata ${String(i).length}\n${i}\n`
    })
    await execa('git', ['fast-import', '--quiet'], {
      cwd: r.dir,
      input: commits.join('\n'),
      env: FIXTURE_GIT_ENV,
    })
    const after = await reader.readGitState(r.dir, before.branch_heads)
    expect(after.newCommits.commits).toHaveLength(NEW_COMMITS_CAP)
    expect(after.newCommits.commits[0]?.subject).toBe(`bulk ${total}`)
    expect(after.newCommits.truncated).toBe(3)
  })

  it('counts every git process it spawns, with a counter object or a callback', async () => {
    const r = await repo()
    const counter = { count: 0 }
    const reader = createGitReader({ spawnCounter: counter })
    const { state: first } = await reader.readGitState(r.dir, null)
    // status + for-each-ref + recent log; no worktree list without linked worktrees.
    expect(counter.count).toBe(3)
    await reader.readGitState(r.dir, first.branch_heads)
    // recent commits are cached per head and no head moved, so no log at all.
    expect(counter.count).toBe(5)
    let calls = 0
    const viaCallback = createGitReader({ spawnCounter: () => calls++ })
    await r.commit('moved')
    await viaCallback.readGitState(r.dir, first.branch_heads)
    expect(calls).toBe(4)
  })
})
