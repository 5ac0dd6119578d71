import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPrStateReader } from '../../electron/engine/adapters/gh-pr.ts'

// `gh` is not installed on every machine (nor authenticated anywhere in CI), so these tests use a
// stand-in script that answers like gh does and logs each call; the parsing is unit-tested too.
let dir: string
let calls: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'navi-gh-'))
  calls = join(dir, 'calls.log')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function fakeGh(body: string): string {
  const path = join(dir, 'gh')
  writeFileSync(path, `#!/bin/sh\necho "$PWD $*" >> '${calls}'\n${body}\n`)
  chmodSync(path, 0o755)
  return path
}
const callCount = () => {
  try {
    return readFileSync(calls, 'utf8').trim().split('\n').length
  } catch {
    return 0
  }
}

describe('readPrState', () => {
  it('reads an open PR and caches it per repo, branch and head until the TTL runs out', async () => {
    let now = 1_000
    const gh = fakeGh(`echo '{"state":"OPEN","number":42,"url":"https://github.com/o/r/pull/42"}'`)
    const reader = createPrStateReader({ ghBinary: gh, ttlMs: 60_000, now: () => now })
    const first = await reader.readPrState(dir, 'feature', 'a'.repeat(40))
    expect(first).toEqual({ state: 'open', number: 42, url: 'https://github.com/o/r/pull/42' })
    expect(readFileSync(calls, 'utf8')).toContain(`${dir} pr view feature --json state,number,url`)
    await reader.readPrState(dir, 'feature', 'a'.repeat(40))
    expect(callCount()).toBe(1)
    await reader.readPrState(dir, 'feature', 'b'.repeat(40))
    expect(callCount()).toBe(2)
    now += 60_000
    await reader.readPrState(dir, 'feature', 'a'.repeat(40))
    expect(callCount()).toBe(3)
    expect(reader.spawned).toBe(3)
  })

  it('no PR for the branch is none', async () => {
    const gh = fakeGh(`echo 'no pull requests found for branch "x"' >&2; exit 1`)
    expect(await createPrStateReader({ ghBinary: gh }).readPrState(dir, 'x')).toEqual({
      state: 'none',
    })
  })

  it('not authenticated, a hang, garbage, no gh, or a detached HEAD are unknown, never a rejection', async () => {
    const auth = fakeGh(
      `echo 'To get started with GitHub CLI, please run:  gh auth login' >&2; exit 4`,
    )
    expect(await createPrStateReader({ ghBinary: auth }).readPrState(dir, 'x')).toEqual({
      state: 'unknown',
    })
    const hang = fakeGh('exec sleep 5')
    const slow = createPrStateReader({ ghBinary: hang, timeoutMs: 200 })
    expect(await slow.readPrState(dir, 'x')).toEqual({ state: 'unknown' })
    const garbage = fakeGh(`echo 'not json'`)
    expect(await createPrStateReader({ ghBinary: garbage }).readPrState(dir, 'x')).toEqual({
      state: 'unknown',
    })
    const missing = createPrStateReader({ ghBinary: join(dir, 'no-such-gh') })
    expect(await missing.readPrState(dir, 'x')).toEqual({ state: 'unknown' })
    const detached = createPrStateReader({ ghBinary: garbage })
    expect(await detached.readPrState(dir, null)).toEqual({ state: 'unknown' })
    expect(detached.spawned).toBe(0)
  })
})
