/**
 * Acceptance: `navi watch --json` on registered real repositories prints commits and new branches as they
 * happen, and restarts neither duplicate events nor lose commits made while Navi was stopped; a folder a
 * session works in that becomes a repository while Navi runs is watched as one.
 */
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { execa } from 'execa'
import { afterEach, describe, expect, it } from 'vitest'
import { engineEventSchema } from '../../shared/schemas/event.ts'
import { createNaviEnv, runNavi, startNaviWatch, type NaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture, FIXTURE_GIT_ENV, type RepoFixture } from '../support/repo-fixture.ts'
import { transcriptPath } from '../support/claude-driver.ts'
import { waitUntil } from '../support/wait.ts'
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

  it('a folder a session works in that becomes a repository (git init) while Navi runs is watched as one', async () => {
    // An agent asked to start a project in an empty folder runs `git init` there. The running engine
    // remembered the folder as "no repository" for good, so none of its commits ever showed.
    const env = await createNaviEnv()
    const folder = await mkdtemp(join(tmpdir(), 'navi-becomes-repo-'))
    cleanups.push(async () => {
      for (const dir of [folder, env.NAVI_HOME, env.CLAUDE_CONFIG_DIR, env.CODEX_HOME]) {
        await rm(dir, { recursive: true, force: true })
      }
    })
    const sessionId = 'b0b0b0b0-1111-4222-8333-444444444444'
    const transcript = transcriptPath(env.CLAUDE_CONFIG_DIR, folder, sessionId)
    const promptLine = (text: string) =>
      `${JSON.stringify({
        type: 'user',
        sessionId,
        cwd: folder,
        timestamp: new Date().toISOString(),
        uuid: `u-${text}`,
        message: { role: 'user', content: text },
        version: '2.1.332',
      })}\n`
    await mkdir(dirname(transcript), { recursive: true })
    await writeFile(transcript, promptLine('start a project here'))
    const git = (...args: string[]) =>
      execa('git', args, { cwd: folder, env: { ...process.env, ...FIXTURE_GIT_ENV } })

    const watch = await startNaviWatch(env)
    try {
      await git('init', '-q', '-b', 'main')
      await git('commit', '-q', '--allow-empty', '-m', 'initial commit')
      // The agent works on (its transcript grows) and commits. Bounded: the engine looks at a folder it
      // found no repository in again a few seconds later, when a session there changes.
      let probes = 0
      const seen = await waitUntil(
        async () => {
          const event = watch.events.find((e) => e.type === 'commit')
          if (event) return event
          probes++
          await appendFile(transcript, promptLine(`step ${probes}`))
          await git('commit', '-q', '--allow-empty', '-m', `probe ${probes}`)
          return undefined
        },
        60_000,
        () => `a commit event from the new repository (${probes} probes)`,
        1_000,
      )
      expect(seen.details).toMatchObject({
        branch: 'main',
        message: expect.stringMatching(/^probe /),
      })
      const status = await runNavi(['status', '--json'], env)
      const project = (status.json as { projects: { project_dir: string; is_git: boolean }[] })
        .projects[0]
      expect(project).toMatchObject({ is_git: true })
    } finally {
      expect((await watch.stop()).exitCode).toBe(0)
    }
  })
})
