/**
 * The repo tracker on real repositories: when it takes a fingerprint at all. An idle poll believes a
 * healthy, quiet watcher; a change the watcher tells, a cycle someone asked for, or the trust running out
 * makes it look again.
 */
import { basename, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { GitState } from '../../shared/schemas/project.ts'
import { gitFingerprint } from '../../electron/engine/adapters/git.ts'
import {
  ACTIVITY_REREAD_MS,
  createRepoTracker,
  WATCHER_TRUST_MS,
} from '../../electron/engine/repo-tracker.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'
import { waitUntil } from '../support/wait.ts'

const repos: RepoFixture[] = []
const trackers: { close(): void }[] = []
afterEach(async () => {
  for (const tracker of trackers.splice(0)) tracker.close()
  await Promise.all(repos.splice(0).map((r) => r.cleanup()))
})

async function setUp(watch: boolean, watcherDebounceMs?: number) {
  const repo = await createRepoFixture({ prefix: 'navi-tracker-' })
  repos.push(repo)
  let looks = 0
  const told: string[] = []
  const tracker = createRepoTracker({
    watch,
    ...(watcherDebounceMs === undefined ? {} : { watcherDebounceMs }),
    onChange: (root) => told.push(root),
    fingerprint: (gitDir, commonDir) => {
      looks++
      return gitFingerprint(gitDir, commonDir)
    },
  })
  trackers.push(tracker)
  // As the cycle does: after each read, its heads are told (their commits are in the event log).
  const read = async (now: number, trustWatcher: boolean) => {
    const result = await tracker.read(repo.dir, {
      persisted: null,
      lastActivity: 0,
      force: false,
      trustWatcher,
      now,
    })
    tracker.commit(repo.dir, result.state.branch_heads)
    return result
  }
  return { repo, tracker, read, looks: () => looks, told }
}

describe('repo tracker: fingerprints', () => {
  it('an idle repository with a healthy watcher is not looked at; an asked-for cycle looks', async () => {
    const { read, looks } = await setUp(true)
    await read(1000, false)
    expect(looks()).toBe(1)
    for (let i = 0; i < 5; i++) await read(2000 + i, true)
    expect(looks()).toBe(1)
    await read(3000, false)
    expect(looks()).toBe(2)
  })

  it('a commit the watcher tells is read at the next trusted look, with its commit', async () => {
    const { repo, read, told } = await setUp(true)
    const first = await read(1000, false)
    const sha = await repo.commit('after the first look')
    await waitUntil(() => told.length > 0, 10_000, 'the watcher to tell of the commit')
    const next = await read(2000, true)
    expect(next.state.head_sha).toBe(sha)
    expect(next.state.head_sha).not.toBe(first.state.head_sha)
    expect(next.newCommits.commits.map((c) => c.subject)).toEqual(['after the first look'])
  })

  it('answers unchanged without a look exactly when a trusted read would not look', async () => {
    const { repo, tracker, read, looks, told } = await setUp(true)
    const opts = (now: number, trustWatcher = true) => ({
      persisted: null,
      lastActivity: 0,
      force: false,
      trustWatcher,
      now,
    })
    expect(tracker.unchanged(repo.dir, opts(500))).toBeNull()
    const first = await read(1000, false)
    expect(tracker.unchanged(repo.dir, opts(2000))).toBe(first.state)
    expect(tracker.unchanged(repo.dir, opts(2000, false))).toBeNull()
    expect(tracker.unchanged(repo.dir, opts(1000 + WATCHER_TRUST_MS))).toBeNull()
    expect(looks()).toBe(1)
    await repo.commit('told by the watcher')
    await waitUntil(() => told.length > 0, 10_000, 'the watcher to tell of the commit')
    expect(tracker.unchanged(repo.dir, opts(3000))).toBeNull()
  })

  it('a change its watcher saw but has not told yet (its debounce runs) is looked at', async () => {
    // A debounce far longer than the test: the watcher tells nothing while it runs.
    const { repo, tracker, read, told } = await setUp(true, 120_000)
    const opts = { persisted: null, lastActivity: 0, force: false, trustWatcher: true, now: 2000 }
    const first = await read(1000, false)
    expect(tracker.unchanged(repo.dir, opts)).toBe(first.state)
    const sha = await repo.commit('asked about at once')
    await waitUntil(
      () => tracker.unchanged(repo.dir, opts) === null,
      10_000,
      'the tracker to stop believing a watcher that has seen the commit',
    )
    expect(told).toEqual([])
    const after = await read(3000, true)
    expect(after.state.head_sha).toBe(sha)
  })

  it('past the trust period a quiet watcher is checked anyway', async () => {
    const { read, looks } = await setUp(true)
    await read(1000, false)
    await read(1000 + WATCHER_TRUST_MS - 1, true)
    expect(looks()).toBe(1)
    await read(1000 + WATCHER_TRUST_MS, true)
    expect(looks()).toBe(2)
  })

  it('without a watcher every look takes the fingerprint', async () => {
    const { read, looks } = await setUp(false)
    await read(1000, true)
    await read(2000, true)
    expect(looks()).toBe(2)
  })
})

describe('repo tracker: read marks kept for the next process', () => {
  /** A tracker as a new process would make it, over the marks file of the previous one. */
  const tracker = (marksFile: string) => {
    const made = createRepoTracker({ watch: false, onChange: () => undefined, marksFile })
    trackers.push(made)
    return made
  }
  const look = (
    t: ReturnType<typeof createRepoTracker>,
    dir: string,
    over: { persisted: GitState | null; lastActivity?: number; force?: boolean },
  ) =>
    t.read(dir, {
      persisted: over.persisted,
      lastActivity: over.lastActivity ?? 0,
      force: over.force ?? false,
      trustWatcher: false,
      now: Date.now(),
    })

  it('takes an unchanged repository from its snapshot, and reads it with git when it changed or an agent worked there', async () => {
    const repo = await createRepoFixture({ prefix: 'navi-marks-' })
    repos.push(repo)
    const marksFile = join(repo.dir, '..', `${basename(repo.dir)}-marks.json`)
    const first = tracker(marksFile)
    const read = await look(first, repo.dir, { persisted: null })
    expect(first.spawnCount()).toBeGreaterThan(0)
    await first.flush()
    const persisted = read.state

    // Unchanged: no git at all.
    const second = tracker(marksFile)
    expect((await look(second, repo.dir, { persisted })).state).toEqual(persisted)
    expect(second.spawnCount()).toBe(0)

    // An agent was active after that read: git again (it may have left the work tree dirty).
    const busy = tracker(marksFile)
    await look(busy, repo.dir, { persisted, lastActivity: Date.now() + 60_000 })
    expect(busy.spawnCount()).toBeGreaterThan(0)

    // Asked to read everything: git again.
    const forced = tracker(marksFile)
    await look(forced, repo.dir, { persisted, force: true })
    expect(forced.spawnCount()).toBeGreaterThan(0)

    // A commit since: the fingerprint differs, git reads it and sees the commit.
    repo.file('b.txt', 'b\n')
    const sha = await repo.commit('second')
    const after = tracker(marksFile)
    const changed = await look(after, repo.dir, { persisted })
    expect(after.spawnCount()).toBeGreaterThan(0)
    expect(changed.state.head_sha).toBe(sha)
  })
})

describe('repo tracker: an agent at work', () => {
  it('reads the work tree at its first activity, then at most every ACTIVITY_REREAD_MS while it goes on', async () => {
    const repo = await createRepoFixture({ prefix: 'navi-active-' })
    repos.push(repo)
    const tracker = createRepoTracker({ watch: false, onChange: () => undefined })
    trackers.push(tracker)
    const look = async (now: number, lastActivity: number) => {
      const before = tracker.spawnCount()
      const read = await tracker.read(repo.dir, {
        persisted: null,
        lastActivity,
        force: false,
        trustWatcher: false,
        now,
      })
      tracker.commit(repo.dir, read.state.branch_heads)
      return { spawned: tracker.spawnCount() - before, dirty: read.state.dirty }
    }
    expect((await look(1000, 0)).spawned).toBeGreaterThan(0)
    // The agent starts: read at once (its first edit shows).
    repo.file('agent.txt', 'edit\n')
    expect(await look(2000, 1500)).toMatchObject({ dirty: true })
    // It goes on writing its transcript: no git for the next 10 s.
    expect((await look(3000, 2500)).spawned).toBe(0)
    expect((await look(2000 + ACTIVITY_REREAD_MS - 1, 11_000)).spawned).toBe(0)
    // Past them, its work is read again.
    expect((await look(2000 + ACTIVITY_REREAD_MS, 11_500)).spawned).toBeGreaterThan(0)
  })
})
