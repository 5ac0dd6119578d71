import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createGitReader,
  createRepoWatcher,
  gitFingerprint,
  locateRepo,
  type RepoWatcher,
} from '../../electron/engine/adapters/git.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'

const fixtures: RepoFixture[] = []
const watchers: RepoWatcher[] = []
async function repo(): Promise<RepoFixture> {
  const fixture = await createRepoFixture()
  fixtures.push(fixture)
  return fixture
}
afterEach(async () => {
  for (const watcher of watchers.splice(0)) watcher.close()
  await Promise.all(fixtures.splice(0).map((f) => f.cleanup()))
})

function fingerprintOf(dir: string): Promise<string> {
  const location = locateRepo(dir)
  if (!location) throw new Error(`no repository at ${dir}`)
  return gitFingerprint(location.gitDir, location.commonDir)
}

/** Resolves true once `predicate` holds, false after `timeoutMs`. */
async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (predicate()) return true
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return predicate()
}

describe('gitFingerprint', () => {
  it('is unchanged by a no-op and by reading the state, changed by commit, branch and checkout', async () => {
    const r = await repo()
    const start = await fingerprintOf(r.dir)
    expect(await fingerprintOf(r.dir)).toBe(start)
    // Reading must not touch the index (no optional locks), or every read would trigger another.
    await createGitReader().readGitState(r.dir, null)
    r.file('README.md', 'edited without staging\n')
    await createGitReader().readGitState(r.dir, null)
    expect(await fingerprintOf(r.dir)).toBe(start)

    await r.commit('a commit')
    const afterCommit = await fingerprintOf(r.dir)
    expect(afterCommit).not.toBe(start)

    await r.branch('feature')
    const afterBranch = await fingerprintOf(r.dir)
    expect(afterBranch).not.toBe(afterCommit)

    await r.checkout('feature')
    const afterCheckout = await fingerprintOf(r.dir)
    expect(afterCheckout).not.toBe(afterBranch)
    expect(await fingerprintOf(r.dir)).toBe(afterCheckout)
  })

  it('sees refs packed by gc and a commit made in a linked worktree', async () => {
    const r = await repo()
    const path = await r.worktree('wt', 'side')
    const before = await fingerprintOf(r.dir)
    await r.git('pack-refs', '--all')
    const packed = await fingerprintOf(r.dir)
    expect(packed).not.toBe(before)
    await r.git('-C', path, 'commit', '-q', '--allow-empty', '-m', 'in the worktree')
    expect(await fingerprintOf(r.dir)).not.toBe(packed)
  })

  it('sees the first remote-tracking branch appear and a ref folder that is not a folder', async () => {
    const r = await repo()
    const before = await fingerprintOf(r.dir)
    // No refs/remotes until a first fetch (most local repositories): absent is part of the fingerprint.
    await r.git('update-ref', 'refs/remotes/origin/main', 'HEAD')
    const fetched = await fingerprintOf(r.dir)
    expect(fetched).not.toBe(before)
    expect(await fingerprintOf(r.dir)).toBe(fetched)
    const location = locateRepo(r.dir)
    const remotes = join(location?.commonDir ?? '', 'refs', 'remotes')
    await rm(remotes, { recursive: true })
    await writeFile(remotes, 'not a folder\n')
    const odd = await fingerprintOf(r.dir)
    expect(odd).not.toBe(fetched)
    expect(odd).not.toBe(before)
  })

  it('does not fail for a deleted repository', async () => {
    const r = await repo()
    const location = locateRepo(r.dir)
    await r.cleanup()
    await expect(
      gitFingerprint(location?.gitDir ?? '', location?.commonDir ?? ''),
    ).resolves.toEqual(expect.any(String))
  })
})

describe('createRepoWatcher', () => {
  it('fires after a git commit (bounded wait of 10 s)', async () => {
    const r = await repo()
    let fired = 0
    const location = locateRepo(r.dir)
    if (!location) throw new Error('fixture is not a repository')
    watchers.push(createRepoWatcher(location, () => fired++))
    await new Promise((resolve) => setTimeout(resolve, 50))
    await r.commit('watched commit')
    expect(await waitFor(() => fired > 0, 10_000)).toBe(true)
  })

  it('fires for every commit that only moves a ref, not just the first (bounded waits of 10 s)', async () => {
    const r = await repo()
    let fired = 0
    watchers.push(createRepoWatcher(r.dir, () => fired++))
    await new Promise((resolve) => setTimeout(resolve, 50))
    for (const subject of ['one', 'two', 'three']) {
      const seen = fired
      // No file changes: only refs/heads/main is replaced (written as main.lock, renamed over it).
      await r.git('commit', '-q', '--allow-empty', '-m', subject)
      expect(await waitFor(() => fired > seen, 10_000), subject).toBe(true)
    }
  })

  it('fires for a new branch in a new ref directory and for a commit in a linked worktree', async () => {
    const r = await repo()
    const path = await r.worktree('wt', 'side')
    let fired = 0
    watchers.push(createRepoWatcher(r.dir, () => fired++))
    await new Promise((resolve) => setTimeout(resolve, 50))
    await r.branch('feature/nested/x')
    expect(await waitFor(() => fired > 0, 10_000)).toBe(true)
    const seen = fired
    await r.git('-C', path, 'commit', '-q', '--allow-empty', '-m', 'in the worktree')
    expect(await waitFor(() => fired > seen, 10_000)).toBe(true)
  })

  it('falls back to per-directory watchers that pick up new ref directories', async () => {
    const r = await repo()
    await r.commit('a second commit, so team/alpha can move back to the first')
    let fired = 0
    watchers.push(createRepoWatcher(r.dir, () => fired++, { recursive: false }))
    await new Promise((resolve) => setTimeout(resolve, 50))
    await r.branch('team/alpha')
    expect(await waitFor(() => fired > 0, 10_000)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 150))
    const seen = fired
    // refs/heads/team/ appeared after the watcher started, and update-ref touches nothing else
    // the watchers see: only a watcher added for the new directory can notice this.
    await r.git('update-ref', 'refs/heads/team/alpha', 'HEAD~1')
    expect(await waitFor(() => fired > seen, 10_000)).toBe(true)
  })

  it('is pending from a change until its debounce ends and it fires', async () => {
    const r = await repo()
    let fired = 0
    const watcher = createRepoWatcher(r.dir, () => fired++, { debounceMs: 1_000 })
    watchers.push(watcher)
    expect(watcher.pending()).toBe(false)
    await r.commit('pending for a while')
    expect(await waitFor(() => watcher.pending(), 10_000)).toBe(true)
    expect(await waitFor(() => fired > 0, 10_000)).toBe(true)
    // Fired: nothing left to tell (a change after the commit would arm it again).
    expect(await waitFor(() => !watcher.pending(), 10_000)).toBe(true)
    watcher.close()
    expect(watcher.pending()).toBe(false)
  })

  it('does not fire after close', async () => {
    const r = await repo()
    let fired = 0
    const watcher = createRepoWatcher(r.dir, () => fired++, { debounceMs: 10 })
    watcher.close()
    await r.commit('unwatched')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(fired).toBe(0)
  })

  it('reports a missing repository through onError instead of throwing', async () => {
    const r = await repo()
    const errors: Error[] = []
    const missing = {
      gitDir: join(r.base, 'nope', '.git'),
      commonDir: join(r.base, 'nope', '.git'),
    }
    const watcher = createRepoWatcher(missing, () => {}, { onError: (e) => errors.push(e) })
    expect(errors.length).toBeGreaterThan(0)
    expect(() => watcher.close()).not.toThrow()
    createRepoWatcher(r.base, () => {}, { onError: (e) => errors.push(e) }).close()
    expect(errors.at(-1)?.message).toMatch(/not a git repository/)
  })
})
