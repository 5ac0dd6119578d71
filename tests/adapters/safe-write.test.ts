/**
 * Atomic writes (safe-write.ts), through the thread pool and with blocking calls alike: a missing file is
 * created, a regular one replaced, and anything else (a directory, a link to one) refused, left as it was.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeFileSafely, writeSmallFileSafely } from '../../electron/engine/adapters/safe-write.ts'
import { useTempDirs } from '../support/temp-paths.ts'

const scratch = useTempDirs('navi-safe-write-')

describe.each([
  ['through the thread pool', writeFileSafely],
  ['with blocking calls', writeSmallFileSafely],
])('an atomic write %s', (_how, write) => {
  it('creates a missing file and replaces a regular one', async () => {
    const file = join(scratch(), 'state.json')
    await write(file, '{"a":1}\n', { fsync: false })
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n')
    await write(file, '{"a":2}\n', { fsync: false })
    expect(readFileSync(file, 'utf8')).toBe('{"a":2}\n')
  })

  it('refuses a directory, and a link to one, leaving them as they were', async () => {
    const dir = scratch()
    const folder = join(dir, 'folder.json')
    mkdirSync(folder)
    writeFileSync(join(folder, 'inside'), 'kept')
    const link = join(dir, 'link.json')
    symlinkSync(folder, link)
    for (const path of [folder, link]) {
      await expect(write(path, 'x', { fsync: false })).rejects.toThrow(/not a regular file/)
    }
    expect(readFileSync(join(folder, 'inside'), 'utf8')).toBe('kept')
  })
})
