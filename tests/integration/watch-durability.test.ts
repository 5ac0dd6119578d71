/**
 * Durability of the real `navi watch`: a full disk under `$NAVI_HOME` (a 2 MiB tmpfs, filled up) while
 * commits land, and `kill -9` in the middle of a burst of commits. Every commit must end up in the log
 * exactly once, and the full disk must be said on stderr while it lasts.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { engineEventSchema, type EngineEvent } from '../../shared/schemas/event.ts'
import { createNaviEnv, startNaviWatch, type NaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'
import { waitUntil } from '../support/wait.ts'
import { detailOf } from '../support/pm-events-fixture.ts'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Whether this process may mount a tmpfs (root in a namespace that allows it). */
const canMountTmpfs = (() => {
  if (process.platform !== 'linux' || process.geteuid?.() !== 0) return false
  const probe = mkdtempSync(join(tmpdir(), 'navi-mount-probe-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' })
    execFileSync('umount', [probe], { stdio: 'ignore' })
    return true
  } catch {
    return false
  } finally {
    rmSync(probe, { recursive: true, force: true })
  }
})()

async function setUp(naviHome?: string): Promise<{ repo: RepoFixture; env: NaviEnv }> {
  const repo = await createRepoFixture({ prefix: 'burst-' })
  const env = await createNaviEnv(naviHome ? { NAVI_HOME: naviHome } : {})
  await writeFile(
    join(env.NAVI_HOME, 'config.yaml'),
    `projects:\n  - path: ${repo.dir}\n    name: apollo\n`,
  )
  cleanups.push(async () => {
    await repo.cleanup()
    for (const dir of [env.CLAUDE_CONFIG_DIR, env.CODEX_HOME])
      await rm(dir, { recursive: true, force: true })
    if (!naviHome) await rm(env.NAVI_HOME, { recursive: true, force: true })
  })
  return { repo, env }
}

function loggedCommits(env: NaviEnv): string[] {
  let text = ''
  try {
    text = readFileSync(join(env.NAVI_HOME, 'pm', 'events.jsonl'), 'utf8')
  } catch {
    return []
  }
  return text
    .split('\n')
    .map((line) => engineEventSchema.safeParse(safeJson(line)))
    .filter((parsed) => parsed.success)
    .map((parsed) => parsed.data)
    .filter((e) => e.type === 'commit')
    .map((e) => String(e.details.sha))
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line)
  } catch {
    return null
  }
}

const shasOf = (events: EngineEvent[]) =>
  events.filter((e) => e.type === 'commit').map((e) => String(e.details.sha))

function expectEachOnce(shas: string[], expected: string[]): void {
  expect(new Set(shas).size, 'no duplicates').toBe(shas.length)
  expect([...shas].sort()).toEqual([...expected].sort())
}

describe.skipIf(!canMountTmpfs)('navi watch on a full disk (needs root and tmpfs mounts)', () => {
  it(
    'logs every commit once space returns, and says the disk is full meanwhile',
    { timeout: 180_000 },
    async () => {
      const home = await mkdtemp(join(tmpdir(), 'navi-fulldisk-'))
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', home])
      cleanups.push(() => {
        execFileSync('umount', ['-l', home])
        rmSync(home, { recursive: true, force: true })
      })
      const { repo, env } = await setUp(home)
      const watch = await startNaviWatch(env)
      cleanups.push(async () => void (await watch.stop()))
      const first = await repo.commit('before the disk fills')
      await watch.waitForEvent((e) => detailOf(e, 'sha') === first, 15_000, 'the first commit')

      // Fill the disk to the last byte.
      const filler = join(home, 'filler')
      try {
        writeFileSync(filler, Buffer.alloc(4 * 1024 * 1024))
      } catch {
        // ENOSPC: what was written stays, and the disk is full.
      }
      const during: string[] = []
      for (let burst = 0; burst < 6; burst++) {
        for (let i = 0; i < 10; i++) during.push(await repo.commit(`full disk ${burst}.${i}`))
        await waitUntil(
          () => /ENOSPC|no space/i.test(watch.stderr()),
          15_000,
          () => `the full disk on stderr (stderr: ${watch.stderr()})`,
        )
      }
      expect(shasOf(watch.events)).not.toContain(during.at(-1))

      rmSync(filler)
      await waitUntil(
        () => during.every((sha) => shasOf(watch.events).includes(sha)),
        60_000,
        () =>
          `all ${during.length} commits (have ${shasOf(watch.events).length}; missing ${during
            .filter((sha) => !shasOf(watch.events).includes(sha))
            .map(
              (sha) => `${sha.slice(0, 7)}${loggedCommits(env).includes(sha) ? ' (logged)' : ''}`,
            )
            .join(', ')}; stderr: ${watch.stderr()})`,
      )
      expectEachOnce(shasOf(watch.events), [first, ...during])
      expectEachOnce(loggedCommits(env), [first, ...during])
    },
  )
})

describe('navi watch killed with SIGKILL in a burst', () => {
  it('loses and duplicates nothing once it runs again', { timeout: 180_000 }, async () => {
    const { repo, env } = await setUp()
    let watch = await startNaviWatch(env)
    const made: string[] = []
    for (let i = 0; i < 40; i++) made.push(await repo.commit(`burst ${i}`))
    await waitUntil(() => shasOf(watch.events).length > 0, 15_000, 'the first commits of the burst')
    await watch.kill()
    for (let i = 40; i < 80; i++) made.push(await repo.commit(`burst ${i}`))
    watch = await startNaviWatch(env)
    cleanups.push(async () => void (await watch.stop()))
    for (let i = 80; i < 100; i++) made.push(await repo.commit(`burst ${i}`))
    await waitUntil(
      () => made.every((sha) => loggedCommits(env).includes(sha)),
      60_000,
      () => `all ${made.length} commits logged (have ${loggedCommits(env).length})`,
    )
    expectEachOnce(loggedCommits(env), made)
  })
})
