import { realpathSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CLAUDE_INSTALL_HINT, claudeCandidates, findClaude } from '../../electron/pm/find-claude.ts'

let root = ''
let home = ''
beforeEach(async () => {
  root = realpathSync(await mkdtemp(join(tmpdir(), 'navi-find-claude-')))
  home = join(root, 'home')
  await mkdir(home)
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

async function fakeBinary(dir: string, name = 'claude', mode = 0o755): Promise<string> {
  await mkdir(dir, { recursive: true })
  const file = join(dir, name)
  await writeFile(file, '#!/bin/sh\necho fake\n')
  await chmod(file, mode)
  return file
}

// The machine-wide folders are a temp dir here, so a claude installed on the machine (Homebrew's on a
// Mac) never decides these cases.
const systemBinDirs = () => [join(root, 'usr-local-bin'), join(root, 'opt-homebrew-bin')]

describe('findClaude', () => {
  it('NAVI_CLAUDE_BIN wins over PATH', async () => {
    const explicit = await fakeBinary(join(root, 'explicit'))
    const onPath = await fakeBinary(join(root, 'path-bin'))
    const found = await findClaude({
      env: { NAVI_CLAUDE_BIN: explicit, PATH: join(root, 'path-bin'), HOME: home },
    })
    expect(found).toEqual({ found: true, path: explicit, source: 'NAVI_CLAUDE_BIN' })
    const viaPath = await findClaude({ env: { PATH: join(root, 'path-bin'), HOME: home } })
    expect(viaPath).toEqual({ found: true, path: onPath, source: 'PATH' })
  })

  it('a NAVI_CLAUDE_BIN pointing nowhere is reported, not silently replaced by PATH', async () => {
    await fakeBinary(join(root, 'path-bin'))
    const missing = join(root, 'nope', 'claude')
    const result = await findClaude({
      env: { NAVI_CLAUDE_BIN: missing, PATH: join(root, 'path-bin'), HOME: home },
    })
    expect(result.found).toBe(false)
    if (result.found) return
    expect(result.hint).toContain(`NAVI_CLAUDE_BIN (${missing})`)
    expect(result.hint).toContain('npm install -g @anthropic-ai/claude-code')
    expect(result.tried).toEqual([missing])
  })

  it('the setting is used when NAVI_CLAUDE_BIN is unset, with ~ expanded', async () => {
    const file = await fakeBinary(join(home, 'tools'))
    const found = await findClaude({ env: { PATH: '', HOME: home }, setting: '~/tools/claude' })
    expect(found).toEqual({ found: true, path: file, source: 'setting' })
    const dir = await findClaude({ env: { PATH: '', HOME: home }, setting: join(home, 'tools') })
    expect(dir.found).toBe(false)
  })

  it('skips a non-executable file and a directory on PATH', async () => {
    await fakeBinary(join(root, 'a'), 'claude', 0o644)
    await mkdir(join(root, 'b', 'claude'), { recursive: true })
    const good = await fakeBinary(join(root, 'c'))
    const path = ['a', 'b', 'c'].map((d) => join(root, d)).join(':')
    expect(await findClaude({ env: { PATH: path, HOME: home } })).toEqual({
      found: true,
      path: good,
      source: 'PATH',
    })
  })

  it('finds ~/.local/bin/claude and nvm installs when PATH is bare', async () => {
    const nvm = await fakeBinary(join(home, '.nvm', 'versions', 'node', 'v20.19.0', 'bin'))
    const bare = { env: { PATH: '/nonexistent-dir', HOME: home }, systemBinDirs: systemBinDirs() }
    expect(await findClaude(bare)).toEqual({
      found: true,
      path: nvm,
      source: 'install-location',
    })
    const local = await fakeBinary(join(home, '.local', 'bin'))
    expect(await findClaude(bare)).toEqual({
      found: true,
      path: local,
      source: 'install-location',
    })
  })

  it('nothing anywhere: the install hint and every path tried', async () => {
    const result = await findClaude({
      env: { PATH: join(root, 'empty'), HOME: home },
      systemBinDirs: systemBinDirs(),
    })
    expect(result).toMatchObject({ found: false, hint: CLAUDE_INSTALL_HINT })
    if (result.found) return
    expect(result.tried).toContain(join(root, 'empty', 'claude'))
    expect(result.tried).toContain(join(home, '.claude', 'local', 'claude'))
    expect(result.tried).toContain(join(root, 'opt-homebrew-bin', 'claude'))
  })
})

describe('claudeCandidates', () => {
  it('orders PATH first, then install locations, without duplicates or relative entries', () => {
    const list = claudeCandidates({
      env: { PATH: '/usr/local/bin:relative/bin::/x/bin', NPM_CONFIG_PREFIX: '~/npm' },
      home: '/h',
      platform: 'linux',
      nvmBinDirs: ['/h/.nvm/versions/node/v22/bin'],
    })
    expect(list.map((c) => `${c.source}:${c.path}`)).toEqual([
      'PATH:/usr/local/bin/claude',
      'PATH:/x/bin/claude',
      'install-location:/h/.claude/local/claude',
      'install-location:/h/.local/bin/claude',
      'install-location:/opt/homebrew/bin/claude',
      'install-location:/h/npm/bin/claude',
      'install-location:/h/.npm-global/bin/claude',
      'install-location:/h/.nvm/versions/node/v22/bin/claude',
    ])
  })
})
