import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../electron/engine/adapters/config-file.ts'
import { defaultConfig } from '../../electron/engine/core/config.ts'
import { useTempPaths } from '../support/temp-paths.ts'

const temp = useTempPaths('navi-config-')
let configFile: string

beforeEach(() => {
  configFile = join(temp.paths.naviHome, 'config.yaml')
})

/** Load and check that the file was left exactly as it was: same bytes, same mtime, same inode. */
async function loadUntouched() {
  const before = await stat(configFile)
  const bytes = await readFile(configFile)
  const loaded = await loadConfig(temp.paths, '/home/ada')
  const after = await stat(configFile)
  expect(await readFile(configFile)).toEqual(bytes)
  expect(after.mtimeMs).toBe(before.mtimeMs)
  expect(after.ino).toBe(before.ino)
  expect(await readdir(temp.paths.naviHome)).toEqual(['config.yaml'])
  return loaded
}

describe('loadConfig', () => {
  it('gives the defaults without error when there is no file, and creates none', async () => {
    expect(await loadConfig(temp.paths)).toEqual({
      config: defaultConfig(),
      errors: [],
      exists: false,
    })
    await expect(stat(temp.paths.naviHome)).rejects.toThrow()
  })

  it('reads a valid file and leaves it untouched', async () => {
    await mkdir(temp.paths.naviHome, { recursive: true })
    await writeFile(
      configFile,
      '# my projects\nprojects:\n  - path: ~/workspace/apollo   # main one\n    tasks: docs/backlog.md\npoll_interval: 45s\n',
    )
    const loaded = await loadUntouched()
    expect(loaded).toEqual({
      config: {
        projects: [
          {
            path: '/home/ada/workspace/apollo',
            tasks: '/home/ada/workspace/apollo/docs/backlog.md',
          },
        ],
        ignore: [],
        pollIntervalMs: 45_000,
        pm: defaultConfig().pm,
        trouble: defaultConfig().trouble,
        answering: defaultConfig().answering,
        tasks: defaultConfig().tasks,
        cli: defaultConfig().cli,
      },
      errors: [],
      exists: true,
    })
  })

  it('reports an invalid file with file and line, uses the defaults and leaves the file untouched', async () => {
    await mkdir(temp.paths.naviHome, { recursive: true })
    await writeFile(configFile, 'projects:\n  - path: ~/a\n    pth: ~/b\npoll_interval: 30s\n')
    const loaded = await loadUntouched()
    expect(loaded.config).toEqual(defaultConfig())
    expect(loaded.exists).toBe(true)
    expect(loaded.errors).toHaveLength(1)
    expect(loaded.errors[0]).toMatchObject({ file: configFile, line: 3 })
    expect(loaded.errors[0]?.message).toContain("projects[0]: unknown key 'pth'")
  })

  it('reports an unreadable file as an error, with the defaults', async () => {
    await mkdir(temp.paths.naviHome, { recursive: true })
    // A directory where the file should be: EISDIR, whatever the user's privileges.
    await mkdir(configFile)
    const loaded = await loadConfig(temp.paths)
    expect(loaded.config).toEqual(defaultConfig())
    expect(loaded.exists).toBe(true)
    expect(loaded.errors).toHaveLength(1)
    expect(loaded.errors[0]?.file).toBe(configFile)
    expect(loaded.errors[0]?.message).toMatch(/^cannot read the file: /)
  })
})

describe('loadConfig with settings.json', () => {
  const settingsFile = () => join(temp.paths.naviHome, 'settings.json')

  it('applies the overrides over config.yaml, for the keys they set', async () => {
    await mkdir(temp.paths.naviHome, { recursive: true })
    await writeFile(configFile, 'poll_interval: 45s\npm:\n  model: haiku\n  batch_window: 3m\n')
    await writeFile(
      settingsFile(),
      JSON.stringify({ poll_interval: '10s', claude_path: '~/bin/claude', launch_at_login: true }),
    )
    const loaded = await loadConfig(temp.paths, '/home/ada')
    expect(loaded.errors).toEqual([])
    expect(loaded.config.pollIntervalMs).toBe(10_000)
    expect(loaded.config.pm).toMatchObject({
      model: 'haiku',
      batchWindowMs: 180_000,
      claudePath: '/home/ada/bin/claude',
    })
  })

  it('applies them over the defaults when there is no config.yaml', async () => {
    await mkdir(temp.paths.naviHome, { recursive: true })
    await writeFile(settingsFile(), JSON.stringify({ batch_window: '30s', model: 'opus' }))
    const loaded = await loadConfig(temp.paths)
    expect(loaded.exists).toBe(false)
    expect(loaded.config.pm.batchWindowMs).toBe(30_000)
    expect(loaded.config.pm.model).toBe('opus')
  })

  it('reports a bad settings.json as an error naming it, and config.yaml still applies', async () => {
    await mkdir(temp.paths.naviHome, { recursive: true })
    await writeFile(configFile, 'poll_interval: 45s\n')
    await writeFile(settingsFile(), '{"poll_interval": ')
    const loaded = await loadConfig(temp.paths)
    expect(loaded.config.pollIntervalMs).toBe(45_000)
    expect(loaded.errors).toHaveLength(1)
    expect(loaded.errors[0]?.file).toBe(settingsFile())
    expect(loaded.errors[0]?.message).toMatch(/^invalid JSON/)
  })

  it('ignores a bad override key alone, reporting it', async () => {
    await mkdir(temp.paths.naviHome, { recursive: true })
    await writeFile(settingsFile(), JSON.stringify({ poll_interval: 'soon', model: 'opus' }))
    const loaded = await loadConfig(temp.paths)
    expect(loaded.config.pollIntervalMs).toBe(defaultConfig().pollIntervalMs)
    expect(loaded.config.pm.model).toBe('opus')
    expect(loaded.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^poll_interval: expected a duration.*using the default$/),
    ])
  })
})
