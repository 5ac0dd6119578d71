/** Directory watchers over folders that may not exist yet: ensure() says which it began to watch. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createDirWatchers, type DirWatchers } from '../../electron/engine/adapters/dir-watcher.ts'
import { waitUntil } from '../support/wait.ts'

let root = ''
let watchers: DirWatchers | null = null
afterEach(async () => {
  watchers?.close()
  await rm(root, { recursive: true, force: true })
})

describe('createDirWatchers', () => {
  it('ensure() returns the folders it began to watch, none when nothing new could be watched', async () => {
    root = await mkdtemp(join(tmpdir(), 'navi-dir-watcher-'))
    const later = join(root, 'later')
    const changes: string[] = []
    watchers = createDirWatchers([{ path: later, recursive: false }], (_dir, file) => {
      if (file) changes.push(file)
    })
    expect(watchers.ensure()).toEqual([]) // not there yet
    await mkdir(later)
    expect(watchers.ensure()).toEqual([later]) // begun: what it holds was never told
    expect(watchers.ensure()).toEqual([]) // already watched
    await writeFile(join(later, 'a.txt'), 'a')
    await waitUntil(() => changes.includes('a.txt'), 5_000, 'the change in the new folder')
  })
})
