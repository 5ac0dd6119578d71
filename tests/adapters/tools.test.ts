import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkTools, findOnPath } from '../../electron/runtime/tools.ts'
import { useTempPaths } from '../support/temp-paths.ts'

const temp = useTempPaths('navi-tools-')

async function fakeBinary(dir: string, name: string, mode = 0o755): Promise<string> {
  await mkdir(dir, { recursive: true })
  const path = join(dir, name)
  await writeFile(path, '#!/bin/sh\nexit 0\n')
  await chmod(path, mode)
  return path
}

describe('checkTools', () => {
  it('finds each tool on PATH, in order, and says how to get the missing ones', async () => {
    const a = join(temp.root, 'a')
    const b = join(temp.root, 'b')
    const git = await fakeBinary(b, 'git')
    await fakeBinary(a, 'gh', 0o644) // not executable: does not count
    const tmux = await fakeBinary(a, 'tmux')
    const claude = await fakeBinary(b, 'claude')
    const home = join(temp.root, 'home')
    const statuses = await checkTools({
      env: { PATH: ['relative/bin', a, b].join(':'), HOME: home },
      platform: 'linux',
    })
    expect(statuses).toEqual([
      { name: 'claude', found: true, path: claude, fix: null },
      { name: 'git', found: true, path: git, fix: null },
      { name: 'tmux', found: true, path: tmux, fix: null },
      {
        name: 'gh',
        found: false,
        path: null,
        fix: 'install the GitHub CLI (for pull requests): apt-get install gh, then gh auth login',
      },
    ])
  })

  it('a claude found nowhere: the fix is the remedy alone (the banner says "not found" itself)', async () => {
    const [claude] = await checkTools({
      env: { PATH: '', HOME: join(temp.root, 'home') },
      platform: 'linux',
      systemBinDirs: [join(temp.root, 'no-system-bin')],
    })
    expect(claude).toMatchObject({ name: 'claude', found: false, path: null })
    expect(claude?.fix).toMatch(/^install it with `npm install -g @anthropic-ai\/claude-code`/)
    expect(claude?.fix).not.toMatch(/not found/i)
  })

  it('reports a claude path from the settings that is not there', async () => {
    const [claude] = await checkTools({
      env: { PATH: '', HOME: join(temp.root, 'home') },
      claudePath: join(temp.root, 'nope', 'claude'),
      platform: 'linux',
    })
    expect(claude).toMatchObject({ name: 'claude', found: false, path: null })
    expect(claude?.fix).toMatch(
      /claude path in the settings.*npm install -g @anthropic-ai\/claude-code/,
    )
  })
})

describe('findOnPath', () => {
  it('takes the first executable, skips directories and relative entries', async () => {
    const a = join(temp.root, 'a')
    await mkdir(join(a, 'git'), { recursive: true })
    const second = await fakeBinary(join(temp.root, 'b'), 'git')
    expect(await findOnPath('git', `.:${a}:${join(temp.root, 'b')}`, 'linux')).toBe(second)
    expect(await findOnPath('git', '', 'linux')).toBeNull()
  })
})
