import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  createSettingsFileStore,
  readSettingsOverrides,
} from '../../electron/runtime/settings-store.ts'
import { settingsSchema } from '../../shared/schemas/settings.ts'
import { useTempPaths } from '../support/temp-paths.ts'
import { waitUntil } from '../support/wait.ts'

const temp = useTempPaths('navi-settings-')
const file = () => join(temp.paths.naviHome, 'settings.json')
const onDisk = async (): Promise<unknown> => JSON.parse(await readFile(file(), 'utf8'))
const defaults = settingsSchema.parse({})

describe('createSettingsFileStore', () => {
  it('starts from the defaults without a file, and writes none until a change', async () => {
    const store = await createSettingsFileStore(temp.paths)
    expect(store.get()).toEqual(defaults)
    await expect(readdir(temp.paths.naviHome)).rejects.toThrow()
  })

  it('writes each change, keeping what earlier ones set', async () => {
    const store = await createSettingsFileStore(temp.paths)
    await store.set({ launch_at_login: true })
    await store.set({ notifications: { commits: false } })
    const last = await store.set({ notifications: { needs_human: false }, poll_interval: '10s' })
    const expected = {
      ...defaults,
      launch_at_login: true,
      poll_interval: '10s',
      notifications: { ...defaults.notifications, commits: false, needs_human: false },
    }
    expect(last).toEqual(expected)
    expect(store.get()).toEqual(expected)
    expect(await onDisk()).toEqual(expected)
    // Atomic writes leave no temp files behind.
    expect(await readdir(temp.paths.naviHome)).toEqual(['settings.json'])
    expect((await createSettingsFileStore(temp.paths)).get()).toEqual(expected)
  })

  it('refuses a bad patch with a readable message and leaves the file alone', async () => {
    const store = await createSettingsFileStore(temp.paths)
    await store.set({ model: 'opus' })
    const before = await readFile(file(), 'utf8')
    await expect(store.set({ poll_interval: 'soon' })).rejects.toThrow(
      /invalid setting: poll_interval: expected a duration/,
    )
    await expect(store.set({ bogus: 1 } as never)).rejects.toThrow(/invalid setting/)
    expect(await readFile(file(), 'utf8')).toBe(before)
  })

  it('serializes concurrent changes so none is lost', async () => {
    const store = await createSettingsFileStore(temp.paths)
    await Promise.all([
      store.set({ model: 'opus' }),
      store.set({ launch_at_login: true }),
      store.set({ notifications: { commits: false } }),
      store.set({ batch_window: '1m' }),
    ])
    expect(await onDisk()).toMatchObject({
      model: 'opus',
      launch_at_login: true,
      batch_window: '1m',
      notifications: { commits: false },
    })
  })

  it('keeps what another process wrote since it started', async () => {
    const store = await createSettingsFileStore(temp.paths)
    await mkdir(temp.paths.naviHome, { recursive: true })
    await writeFile(file(), JSON.stringify({ model: 'haiku' }))
    await store.set({ launch_at_login: true })
    expect(await onDisk()).toMatchObject({ model: 'haiku', launch_at_login: true })
  })

  it('refresh() sees what another process wrote, after its own queued writes', async () => {
    const store = await createSettingsFileStore(temp.paths)
    await mkdir(temp.paths.naviHome, { recursive: true })
    await writeFile(file(), JSON.stringify({ model: 'haiku' }))
    expect(store.get().model).toBeUndefined()
    const writing = store.set({ launch_at_login: true })
    const refreshed = await store.refresh?.()
    await writing
    expect(refreshed).toMatchObject({ model: 'haiku', launch_at_login: true })
    expect(store.get()).toEqual(refreshed)
  })

  it('reads a file with bad keys key by key', async () => {
    await mkdir(temp.paths.naviHome, { recursive: true })
    await writeFile(file(), JSON.stringify({ model: '', launch_at_login: true, x: 1 }))
    const store = await createSettingsFileStore(temp.paths)
    expect(store.get()).toEqual({ ...defaults, launch_at_login: true })
  })

  it('tells its listeners after each change; a throwing one does not break the write', async () => {
    const store = await createSettingsFileStore(temp.paths)
    const seen: (string | undefined)[] = []
    store.onChange(() => {
      throw new Error('boom')
    })
    const off = store.onChange((s) => seen.push(s.model))
    await store.set({ model: 'opus' })
    off()
    await store.set({ model: 'haiku' })
    expect(seen).toEqual(['opus'])
  })
})

describe('createSettingsFileStore with watch', () => {
  it('reads back what another writer changed (an editor, another Navi) and tells each change once', async () => {
    const store = await createSettingsFileStore(temp.paths, { watch: true })
    try {
      const seen: [string | undefined, boolean][] = []
      store.onChange((s) => seen.push([s.model, s.launch_at_login]))
      // A text editor saving the file in place.
      await writeFile(file(), JSON.stringify({ model: 'opus' }))
      await waitUntil(() => store.get().model === 'opus', 10_000, 'the edit to be read back')
      // Another Navi process writing through its own store (an atomic rename).
      const other = await createSettingsFileStore(temp.paths)
      await other.set({ launch_at_login: true })
      await waitUntil(() => store.get().launch_at_login, 10_000, 'the other store’s write')
      expect(seen).toEqual([
        ['opus', false],
        ['opus', true],
      ])
      // Its own writes are told once, not again when the watcher sees the file change.
      await store.set({ model: 'haiku' })
      await writeFile(join(temp.paths.naviHome, 'unrelated.txt'), 'x')
      await store.refresh()
      expect(seen.at(-1)).toEqual(['haiku', true])
      expect(seen).toHaveLength(3)
    } finally {
      store.dispose()
    }
  })

  it('keeps the last good settings when the file turns bad, and says what is wrong', async () => {
    const store = await createSettingsFileStore(temp.paths, { watch: true })
    try {
      await store.set({ model: 'opus' })
      await writeFile(file(), '{ nope')
      await waitUntil(() => store.problems().length > 0, 10_000, 'the bad file to be noticed')
      expect(store.problems()[0]).toMatch(/^invalid JSON: /)
      expect(store.get().model).toBe('opus')
      // A change made over the broken file keeps what the store knew, instead of resetting the rest.
      await store.set({ launch_at_login: true })
      expect(await onDisk()).toMatchObject({ model: 'opus', launch_at_login: true })
      expect(store.problems()).toEqual([])
    } finally {
      store.dispose()
    }
  })
})

describe('readSettingsOverrides', () => {
  it('gives the override keys that are set', async () => {
    const store = await createSettingsFileStore(temp.paths)
    await store.set({ model: 'opus', launch_at_login: true, claude_path: '~/bin/claude' })
    expect(await readSettingsOverrides(temp.paths)).toEqual({
      overrides: { model: 'opus', claude_path: '~/bin/claude' },
      errors: [],
    })
  })

  it('reports a file that is not JSON, naming it', async () => {
    await mkdir(temp.paths.naviHome, { recursive: true })
    await writeFile(file(), '{ nope')
    const { overrides, errors } = await readSettingsOverrides(temp.paths)
    expect(overrides).toEqual({})
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ file: file(), line: 0 })
    expect(errors[0]?.message).toMatch(/^invalid JSON: /)
  })
})
