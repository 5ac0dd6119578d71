/**
 * The repository locator's memo: a folder found in no repository is looked at again after a while (an
 * agent may `git init` it while Navi runs); a repository found is kept.
 */
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterEach, describe, expect, it } from 'vitest'
import { createRepoRootCache, locateRepo } from '../../electron/engine/adapters/git-repo-root.ts'
import { createRepoTrust } from '../../electron/engine/adapters/git-trust.ts'
import { FIXTURE_GIT_ENV } from '../support/repo-fixture.ts'

const folders: string[] = []
afterEach(async () => {
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function scratch(): Promise<string> {
  // Under the system temp folder, which is in no repository of its own.
  const dir = await mkdtemp(join(tmpdir(), 'navi-repo-root-'))
  folders.push(dir)
  return dir
}

const gitInit = (dir: string) =>
  execa('git', ['init', '-q', '-b', 'main'], {
    cwd: dir,
    env: { ...process.env, ...FIXTURE_GIT_ENV },
  })

function cacheWithClock(recheckMs: number) {
  let now = 1_000_000
  const cache = createRepoRootCache(createRepoTrust(), { recheckMs, clock: () => now })
  return { cache, advance: (ms: number) => (now += ms) }
}

describe('createRepoRootCache', () => {
  it('a folder in no repository is looked at again once recheckMs has passed', async () => {
    const folder = await scratch()
    const { cache, advance } = cacheWithClock(5_000)
    expect(cache.find(folder)).toBeNull()
    await gitInit(folder)
    advance(4_999)
    expect(cache.find(folder)).toBeNull() // believed until the recheck is due
    advance(1)
    expect(cache.find(folder)?.root).toBe(await realpath(folder))
  })

  it('a folder that did not exist yet is found once it exists and is a repository', async () => {
    const missing = join(await scratch(), 'not-yet')
    const { cache, advance } = cacheWithClock(5_000)
    expect(cache.find(missing)).toBeNull()
    advance(5_000)
    expect(cache.find(missing)).toBeNull()
    await mkdir(missing)
    await gitInit(missing)
    advance(5_000)
    expect(cache.find(missing)?.root).toBe(await realpath(missing))
  })

  it('a repository found is kept until invalidated, however long it has been', async () => {
    const folder = await scratch()
    await gitInit(folder)
    const { cache, advance } = cacheWithClock(5_000)
    const found = cache.find(folder)
    expect(found?.root).toBe(await realpath(folder))
    await rm(join(folder, '.git'), { recursive: true, force: true })
    advance(60_000)
    expect(cache.find(folder)).toEqual(found)
    cache.invalidate(folder)
    expect(cache.find(folder)).toBeNull()
  })

  it('cwds under shared folders find what a walk from each alone finds, nested repositories too', async () => {
    const base = await scratch()
    const repo = join(base, 'repo')
    for (const dir of ['repo/a/b', 'repo/nested/x', 'plain/y'])
      await mkdir(join(base, dir), { recursive: true })
    await gitInit(repo)
    await gitInit(join(repo, 'nested'))
    const cwds = [
      'repo/a/b',
      'repo/nested/x',
      'repo/a',
      'repo/gone/deep',
      'repo/nested',
      'plain/y',
      'plain/gone',
      'repo',
    ].map((dir) => join(base, dir))
    const alone = cwds.map((cwd) => locateRepo(cwd)?.workTree ?? null)
    expect(alone.filter((tree) => tree === join(repo, 'nested'))).toHaveLength(2)
    for (const order of [cwds, [...cwds].reverse()]) {
      const { cache } = cacheWithClock(5_000)
      const found = new Map(order.map((cwd) => [cwd, cache.find(cwd)?.workTree ?? null]))
      expect(cwds.map((cwd) => found.get(cwd))).toEqual(alone)
    }
  })

  it('a repository made above a folder walked a moment ago is found on its next look', async () => {
    const base = await scratch()
    const folder = join(base, 'p', 'q')
    await mkdir(folder, { recursive: true })
    const { cache, advance } = cacheWithClock(5_000)
    expect(cache.find(folder)).toBeNull()
    await gitInit(join(base, 'p'))
    advance(5_000)
    expect(cache.find(folder)?.root).toBe(await realpath(join(base, 'p')))
  })
})
