import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import Conf from 'conf'
import { describe, expect, it } from 'vitest'
import { readSettingsFile } from '../../electron/services/settings-store.ts'
import { createSettingsStoreOver } from '../../electron/main/settings/settings-store-over.ts'
import { settingsSchema, type Settings } from '../../shared/schemas/settings.ts'
import { useTempPaths } from '../support/temp-paths.ts'

const temp = useTempPaths('navi-electron-settings-')
const defaults = settingsSchema.parse({})

/** electron-store is `conf` plus Electron's default paths; with an explicit cwd they behave the same. */
function openStore(watch = false) {
  const conf = new Conf<Record<string, unknown>>({
    cwd: temp.paths.naviHome,
    configName: 'settings',
    clearInvalidConfig: true,
    watch,
    serialize: (value) => `${JSON.stringify(value, null, 2)}\n`,
  })
  return createSettingsStoreOver(conf)
}

const settingsFile = () => join(temp.paths.naviHome, 'settings.json')
const onDisk = async () => JSON.parse(await readFile(settingsFile(), 'utf8')) as unknown

async function writeRaw(text: string): Promise<void> {
  const { mkdir } = await import('node:fs/promises')
  await mkdir(temp.paths.naviHome, { recursive: true })
  await writeFile(settingsFile(), text)
}

describe('settings store over electron-store', () => {
  it('a missing file opens as the defaults and is written as $NAVI_HOME/settings.json', async () => {
    const store = openStore()
    expect(store.get()).toEqual(defaults)
    expect(store.problems).toEqual([])
    expect(await onDisk()).toEqual(defaults)
  })

  it('normalises the file on open: bad keys fall back alone, unknown keys go', async () => {
    await writeRaw(JSON.stringify({ launch_at_login: 'yes', global_shortcut: 'Alt+N', stray: 1 }))
    const store = openStore()
    expect(store.get()).toEqual({ ...defaults, global_shortcut: 'Alt+N' })
    expect(store.problems).toEqual([expect.stringContaining('launch_at_login')])
    expect(await onDisk()).toEqual({ ...defaults, global_shortcut: 'Alt+N' })
  })

  it('invalid JSON starts from the defaults', async () => {
    await writeRaw('{ not json')
    expect(openStore().get()).toEqual(defaults)
  })

  it('set validates, merges toggle by toggle, writes and notifies', async () => {
    const store = openStore()
    const heard: Settings[] = []
    const unsubscribe = store.onChange((s) => heard.push(s))
    const next = await store.set({ notifications: { commits: false }, model: 'opus' })
    expect(next.notifications).toEqual({ ...defaults.notifications, commits: false })
    expect(next.model).toBe('opus')
    expect(store.get()).toEqual(next)
    expect(heard).toEqual([next])
    expect(await onDisk()).toEqual(next)
    // The Node store (navi serve, CLI) reads the same file the same way.
    expect((await readSettingsFile(temp.paths)).settings).toEqual(next)

    await store.set({ model: null })
    expect(store.get().model).toBeUndefined()
    unsubscribe()
    await store.set({ launch_at_login: true })
    expect(heard).toHaveLength(2)
  })

  it.each<[string, unknown]>([
    ['a wrong type', { launch_at_login: 'yes' }],
    ['an unknown key', { colour: 'red' }],
    ['a bad duration', { commit_group_window: 'soon' }],
  ])('set rejects %s and leaves the file alone', async (_name, patch) => {
    const store = openStore()
    const before = await onDisk()
    await expect(store.set(patch as never)).rejects.toThrow(/invalid setting/)
    expect(await onDisk()).toEqual(before)
    expect(store.get()).toEqual(defaults)
  })

  it('set keeps what another process wrote in the meantime', async () => {
    const store = openStore()
    await writeRaw(JSON.stringify({ ...defaults, model: 'haiku' }))
    const next = await store.set({ launch_at_login: true })
    expect(next).toMatchObject({ model: 'haiku', launch_at_login: true })
  })

  it('hears changes written by another process, once, and not its own writes twice', async () => {
    // electron-store polls the file (about every 5 s, debounced 5 s): a fake backing fires the change now.
    let fire: (value?: Record<string, unknown>) => void = () => undefined
    let file: Record<string, unknown> = { ...defaults }
    const backing = {
      get store() {
        return file
      },
      set store(value: Record<string, unknown>) {
        file = value
        fire(value)
      },
      onDidAnyChange(callback: (value?: Record<string, unknown>) => void) {
        fire = callback
        return () => {
          fire = () => undefined
        }
      },
    }
    const store = createSettingsStoreOver(backing)
    const heard: Settings[] = []
    store.onChange((s) => heard.push(s))

    file = { ...defaults, paused_until: '2030-01-01T00:00:00.000Z' }
    fire(file)
    fire(file)
    expect(heard.map((s) => s.paused_until)).toEqual(['2030-01-01T00:00:00.000Z'])
    expect(store.get().paused_until).toBe('2030-01-01T00:00:00.000Z')

    await store.set({ paused_until: null })
    expect(heard.map((s) => s.paused_until)).toEqual(['2030-01-01T00:00:00.000Z', null])

    store.dispose()
    fire({ ...defaults, model: 'opus' })
    expect(heard).toHaveLength(2)
  })
})
