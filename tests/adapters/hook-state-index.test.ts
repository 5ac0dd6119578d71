/**
 * The hook inbox's index file (hook-state-index.ts): written with a stamp, believed by it without hashing
 * while the file keeps it, by its hash otherwise, and not at all once its text and time both moved.
 */
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  loadHookIndex,
  saveHookIndex,
  type HookIndex,
} from '../../electron/engine/adapters/hook-state-index.ts'
import { useTempDirs } from '../support/temp-paths.ts'

const tempDir = useTempDirs('navi-hook-index-')

const index: HookIndex = { dev: 1, ino: 2, offset: 300, corrupt: 1, states: [] }

describe('the hook inbox index file', () => {
  it('is believed by its stamp while the file keeps it, by its hash once touched', async () => {
    const file = join(tempDir(), 'cache', 'hook-states.json')
    await saveHookIndex(file, index)
    const problems: string[] = []
    expect(await loadHookIndex(file, (m) => problems.push(m))).toEqual({ index, stamped: true })

    const text = readFileSync(file, 'utf8')
    const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as {
      stamp: number
      sha256: string
    }
    expect(Math.round(statSync(file).mtimeMs)).toBe(header.stamp)
    const later = header.stamp / 1000 + 2
    utimesSync(file, later, later)
    expect(await loadHookIndex(file, (m) => problems.push(m))).toEqual({ index, stamped: false })

    // A wrong hash goes unseen under its stamp, and is refused once the time moved.
    writeFileSync(file, text.replace(header.sha256, '0'.repeat(64)))
    utimesSync(file, header.stamp / 1000, header.stamp / 1000)
    expect(await loadHookIndex(file, (m) => problems.push(m))).toEqual({ index, stamped: true })
    utimesSync(file, later, later)
    expect(await loadHookIndex(file, (m) => problems.push(m))).toBeNull()
    expect(problems).toEqual([])
  })
})
