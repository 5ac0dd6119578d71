import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { lstat, mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  HooksSettingsError,
  hooksStatus,
  installHooks,
  refreshInstalledHandler,
  uninstallHooks,
} from '../../electron/engine/adapters/hooks-install.ts'
import { NAVI_HOOK_EVENTS } from '../../electron/engine/core/hooks-settings.ts'
import { naviFiles, type EnginePaths } from '../../electron/engine/core/paths.ts'

let root: string
let paths: EnginePaths
let settingsPath: string

const userSettings = {
  model: 'opus',
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '~/bin/guard.sh' }] }],
    Stop: [{ hooks: [{ type: 'command', command: "say 'done'" }] }],
  },
  permissions: { allow: ['Bash(npm test)'] },
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'navi-hooks-install-'))
  paths = {
    naviHome: join(root, 'navi home'),
    claudeConfigDir: join(root, 'claude'),
    codexHome: join(root, 'codex'),
  }
  settingsPath = naviFiles(paths).claudeSettings
  await mkdir(paths.claudeConfigDir, { recursive: true })
})

afterEach(() => rmSync(root, { recursive: true, force: true }))

async function backups(): Promise<string[]> {
  return (await readdir(paths.claudeConfigDir)).filter((n) => n.includes('.navi-backup-'))
}

async function settingsJson(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(settingsPath, 'utf8')) as Record<string, unknown>
}

describe('installHooks / uninstallHooks', () => {
  it('round-trips a 2-space settings file with user hooks byte for byte, with a backup', async () => {
    const original = `${JSON.stringify(userSettings, null, 2)}\n`
    await writeFile(settingsPath, original)

    const install = await installHooks(paths)
    expect(install.changed).toBe(true)
    expect(install.backupPath).not.toBeNull()
    expect(await readFile(install.backupPath!, 'utf8')).toBe(original)
    const installed = await settingsJson()
    const hooks = installed.hooks as Record<string, unknown[]>
    expect(Object.keys(hooks)).toEqual(expect.arrayContaining([...NAVI_HOOK_EVENTS]))
    expect(hooks.PreToolUse?.[0]).toEqual(userSettings.hooks.PreToolUse[0])
    expect(JSON.stringify(hooks.Stop)).toContain('# navi-hook')

    const handler = naviFiles(paths).hookHandler
    expect((await stat(handler)).mode & 0o111).not.toBe(0)
    expect(await readFile(handler, 'utf8')).toContain('hooks/spool')

    const uninstall = await uninstallHooks(paths)
    expect(uninstall.changed).toBe(true)
    expect(uninstall.removed).toBe(NAVI_HOOK_EVENTS.length)
    expect(await readFile(settingsPath, 'utf8')).toBe(original)
    const again = await uninstallHooks(paths)
    expect(again).toMatchObject({ changed: false, removed: 0 })
  })

  it('is idempotent: a second install writes nothing and makes no backup', async () => {
    await writeFile(settingsPath, JSON.stringify(userSettings, null, 2))
    await installHooks(paths)
    const afterFirst = await readFile(settingsPath, 'utf8')
    const second = await installHooks(paths)
    expect(second.changed).toBe(false)
    expect(await readFile(settingsPath, 'utf8')).toBe(afterFirst)
    expect(await backups()).toHaveLength(1)
  })

  it('restores differently formatted settings from the backup when nothing else changed', async () => {
    const compact = JSON.stringify(userSettings)
    await writeFile(settingsPath, compact)
    await installHooks(paths)
    expect(await readFile(settingsPath, 'utf8')).not.toBe(compact)
    const uninstall = await uninstallHooks(paths)
    expect(uninstall.restoredFrom).not.toBeNull()
    expect(await readFile(settingsPath, 'utf8')).toBe(compact)
  })

  it('keeps a change made after install, in the file’s own indentation', async () => {
    await writeFile(settingsPath, `${JSON.stringify(userSettings, null, 4)}\n`)
    await installHooks(paths)
    const edited = { ...(await settingsJson()), theme: 'dark' }
    await writeFile(settingsPath, `${JSON.stringify(edited, null, 4)}\n`)
    const uninstall = await uninstallHooks(paths)
    expect(uninstall.restoredFrom).toBeNull()
    expect(await readFile(settingsPath, 'utf8')).toBe(
      `${JSON.stringify({ ...userSettings, theme: 'dark' }, null, 4)}\n`,
    )
  })

  it('refuses unparseable settings and leaves them untouched', async () => {
    const broken = '{ "hooks": { "Stop": [ }\n'
    await writeFile(settingsPath, broken)
    await expect(installHooks(paths)).rejects.toBeInstanceOf(HooksSettingsError)
    await expect(installHooks(paths)).rejects.toThrow(/not valid JSON/)
    await expect(uninstallHooks(paths)).rejects.toBeInstanceOf(HooksSettingsError)
    expect(await readFile(settingsPath, 'utf8')).toBe(broken)
    expect(await backups()).toEqual([])
    const status = await hooksStatus(paths)
    expect(status.installed).toBe(false)
    expect(status.settingsError).toMatch(/not valid JSON/)
  })

  it('refuses a settings file whose hooks key has an unexpected shape', async () => {
    const odd = JSON.stringify({ hooks: ['x'] })
    await writeFile(settingsPath, odd)
    await expect(installHooks(paths)).rejects.toBeInstanceOf(HooksSettingsError)
    expect(await readFile(settingsPath, 'utf8')).toBe(odd)
  })

  it('creates a missing settings file, and uninstall leaves an empty object', async () => {
    const install = await installHooks(paths)
    expect(install.backupPath).toBeNull()
    expect(Object.keys((await settingsJson()).hooks as object)).toEqual([...NAVI_HOOK_EVENTS])
    await uninstallHooks(paths)
    expect(await readFile(settingsPath, 'utf8')).toBe('{}\n')
  })

  it('edits the target of a symlinked settings file and keeps the link', async () => {
    const target = join(root, 'dotfiles-settings.json')
    const original = `${JSON.stringify(userSettings, null, 2)}\n`
    await writeFile(target, original)
    await symlink(target, settingsPath)
    await installHooks(paths)
    expect((await lstat(settingsPath)).isSymbolicLink()).toBe(true)
    expect(await readFile(target, 'utf8')).toContain('# navi-hook')
    await uninstallHooks(paths)
    expect(await readFile(target, 'utf8')).toBe(original)
  })
})

describe('hooksStatus', () => {
  it('reports missing events before install, and everything after', async () => {
    const before = await hooksStatus(paths)
    expect(before.installed).toBe(false)
    expect(before.missing).toEqual([...NAVI_HOOK_EVENTS])
    expect(before.handlerPresent).toBe(false)
    expect(before.inboxLastWrite).toBeUndefined()

    await installHooks(paths)
    const inbox = naviFiles(paths).hookInbox
    await writeFile(inbox, '{}\n')
    const after = await hooksStatus(paths)
    expect(after).toMatchObject({
      installed: true,
      missing: [],
      outdated: false,
      handlerPresent: true,
      handlerPath: naviFiles(paths).hookHandler,
      settingsPath,
      inboxPath: inbox,
    })
    expect(after.events).toEqual([...NAVI_HOOK_EVENTS])
    expect(after.commands[0]).toMatch(/^\/bin\/sh '.*navi-hook\.sh' --navi-home /)
    expect(Date.parse(after.inboxLastWrite ?? '')).toBeGreaterThan(0)
  })

  it('flags an install that points at another NAVI_HOME as outdated, and a reinstall fixes it', async () => {
    await installHooks({ ...paths, naviHome: join(root, 'old-home') })
    expect((await hooksStatus(paths)).outdated).toBe(true)
    await installHooks(paths)
    const status = await hooksStatus(paths)
    expect(status.outdated).toBe(false)
    expect(status.commands).toHaveLength(1)
  })
})

describe('refreshInstalledHandler', () => {
  it('installs nothing where hooks were never installed', async () => {
    expect(await refreshInstalledHandler(paths)).toBe(false)
    await expect(stat(naviFiles(paths).hookHandler)).rejects.toThrow(/ENOENT/)
  })

  it('replaces an older handler copy with this Navi’s, once, keeping it executable', async () => {
    await installHooks(paths)
    const handler = naviFiles(paths).hookHandler
    const shipped = await readFile(handler)
    await writeFile(handler, '#!/bin/sh\n# an older Navi\'s handler\nexit 0\n')

    expect(await refreshInstalledHandler(paths)).toBe(true)
    expect((await readFile(handler)).equals(shipped)).toBe(true)
    expect((await stat(handler)).mode & 0o111).not.toBe(0)
    expect(await refreshInstalledHandler(paths)).toBe(false)
  })
})

describe('settings files Navi must not break', () => {
  const original =
    '{\r\n\t"cleanupPeriodDays": 12345678901234567890,\r\n\t"temperature": 1.0\r\n}\r\n'

  it('edits the target of a symlink and keeps the link', async () => {
    const real = join(root, 'dotfiles-settings.json')
    await writeFile(real, original)
    await symlink(real, settingsPath)
    await installHooks(paths)
    expect((await lstat(settingsPath)).isSymbolicLink()).toBe(true)
    const edited = await readFile(real, 'utf8')
    expect(
      edited.startsWith(
        '{\r\n\t"cleanupPeriodDays": 12345678901234567890,\r\n\t"temperature": 1.0,',
      ),
    ).toBe(true)
    await uninstallHooks(paths)
    expect(await readFile(real, 'utf8')).toBe(original)
    expect((await lstat(settingsPath)).isSymbolicLink()).toBe(true)
  })

  it('refuses a symlink to nothing, leaving the link as it is', async () => {
    await symlink(join(root, 'missing-target.json'), settingsPath)
    await expect(installHooks(paths)).rejects.toThrow(/symbolic link .*does not exist/)
    expect((await lstat(settingsPath)).isSymbolicLink()).toBe(true)
  })

  it('refuses a read-only file (even as root), leaving it and making no backup', async () => {
    await writeFile(settingsPath, original, { mode: 0o444 })
    await expect(installHooks(paths)).rejects.toThrow(/read-only \(mode 444\)/)
    expect(await readFile(settingsPath, 'utf8')).toBe(original)
    expect(await backups()).toEqual([])
  })

  it('refuses a FIFO at once instead of waiting for a writer', async () => {
    execFileSync('mkfifo', [settingsPath])
    await expect(installHooks(paths)).rejects.toThrow(HooksSettingsError)
    await expect(installHooks(paths)).rejects.toThrow(/a FIFO, not a regular file/)
    expect((await stat(settingsPath)).isFIFO()).toBe(true)
    const status = await hooksStatus(paths)
    expect(status.settingsError).toMatch(/FIFO/)
  })

  it('finds its handler from any working directory', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'navi-elsewhere-'))
    const cwd = process.cwd()
    try {
      process.chdir(elsewhere)
      const result = await installHooks(paths)
      expect(result.changed).toBe(true)
      expect((await stat(naviFiles(paths).hookHandler)).isFile()).toBe(true)
    } finally {
      process.chdir(cwd)
      rmSync(elsewhere, { recursive: true, force: true })
    }
  })
})
