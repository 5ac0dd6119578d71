/**
 * Acceptance: `navi watch --json` on registered real repositories prints commits and new branches as they
 * happen, and restarts neither duplicate events nor lose commits made while Navi was stopped.
 */
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { engineEventSchema } from '../../shared/schemas/event.ts'
import { createNaviEnv, runNavi, startNaviWatch, type NaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'
import { detailOf } from '../support/pm-events-fixture.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function setUp(): Promise<{ repo: RepoFixture; env: NaviEnv }> {
  const repo = await createRepoFixture({ prefix: 'watched-' })
  const env = await createNaviEnv()
  await writeFile(
    join(env.NAVI_HOME, 'config.yaml'),
    `projects:\n  - path: ${repo.dir}\n    name: apollo\n`,
  )
  cleanups.push(async () => {
    await repo.cleanup()
    for (const dir of [env.NAVI_HOME, env.CLAUDE_CONFIG_DIR, env.CODEX_HOME]) {
      await rm(dir, { recursive: true, force: true })
    }
  })
  return { repo, env }
}

async function loggedEvents(env: NaviEnv) {
  const text = await readFile(join(env.NAVI_HOME, 'pm', 'events.jsonl'), 'utf8')
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => engineEventSchema.parse(JSON.parse(line)))
}

describe('watching registered repositories', () => {
  it('a commit prints a commit event with sha, subject and branch; a new branch prints branch_created', async () => {
    const { repo, env } = await setUp()
    const watch = await startNaviWatch(env)
    try {
      const subject = 'fix: handle "quotes", tabs\tand $(rm -rf ~) as plain data'
      repo.file('feature.txt', 'hello\n')
      const sha = await repo.commit(subject)
      const commit = await watch.waitForEvent(
        (e) => e.type === 'commit' && e.details.sha === sha,
        10_000,
        `commit ${sha}`,
      )
      expect(commit.project).toBe('apollo')
      expect(commit.details).toMatchObject({ sha, message: subject, branch: 'main' })

      await repo.branch('feat/research')
      const branch = await watch.waitForEvent(
        (e) => e.type === 'branch_created',
        10_000,
        'branch_created',
      )
      expect(branch.details).toMatchObject({ branch: 'feat/research', sha })
    } finally {
      expect((await watch.stop()).exitCode).toBe(0)
    }
    expect(watch.events.filter((e) => e.type === 'commit')).toHaveLength(1)
  })

  it('restarts log no duplicates, and commits made while stopped appear exactly once', async () => {
    const { repo, env } = await setUp()
    expect((await runNavi(['status'], env)).exitCode).toBe(0) // baseline
    repo.file('a.txt', 'a\n')
    const first = await repo.commit('first while stopped')
    expect((await runNavi(['status'], env)).exitCode).toBe(0)
    expect((await runNavi(['status'], env)).exitCode).toBe(0)

    repo.file('b.txt', 'b\n')
    const second = await repo.commit('second while stopped')
    repo.file('c.txt', 'c\n')
    const third = await repo.commit('third while stopped')
    const watch = await startNaviWatch(env)
    const seen = await watch.waitForEvent(
      (e) => detailOf(e, 'sha') === third,
      10_000,
      'the third commit',
    )
    expect(seen.type).toBe('commit')
    await watch.stop()
    expect((await runNavi(['status'], env)).exitCode).toBe(0)

    const commits = (await loggedEvents(env)).filter((e) => e.type === 'commit')
    expect(commits.map((e) => e.details.sha).sort()).toEqual([first, second, third].sort())
    const all = await loggedEvents(env)
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length)
  })
})
