/**
 * bin/cli-sources.cjs: bin/navi.cjs runs the built CLI only while it is newer than every source, by the
 * list the build writes (a directory listed again only when its time moved) or, without one, by a walk.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const { bundleIsFresh, writeSourceList } = createRequire(import.meta.url)(
  '../../bin/cli-sources.cjs',
) as {
  bundleIsFresh(root: string, bundle: string, listFile: string): boolean
  writeSourceList(root: string, file: string): void
}

let root: string
let bundle: string
let list: string
const SOURCES = ['electron/cli/navi.ts', 'electron/engine/core/a.ts', 'shared/b.ts']
const DIRS = ['electron', 'electron/cli', 'electron/engine', 'electron/engine/core', 'shared']
/** Seconds since the epoch: the sources are older than the bundle, which is older than now. */
const now = Math.floor(Date.now() / 1000)
const SOURCE_TIME = now - 200
const BUILD_TIME = now - 100

const age = (path: string, seconds = SOURCE_TIME) => utimesSync(join(root, path), seconds, seconds)
const fresh = () => bundleIsFresh(root, bundle, list)

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'navi-cli-sources-'))
  for (const dir of DIRS) mkdirSync(join(root, dir), { recursive: true })
  for (const file of SOURCES) writeFileSync(join(root, file), 'export {}\n')
  mkdirSync(join(root, 'out', 'cli'), { recursive: true })
  bundle = join(root, 'out', 'cli', 'navi.cjs')
  list = join(root, 'out', 'cli', 'sources.json')
  writeFileSync(bundle, '')
  writeSourceList(root, list)
  for (const path of [...SOURCES, ...DIRS]) age(path)
  utimesSync(bundle, BUILD_TIME, BUILD_TIME)
})

afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('bin/cli-sources.cjs', () => {
  it('is fresh while no source is newer than the bundle, and stale once one is edited', () => {
    expect(fresh()).toBe(true)
    age('electron/engine/core/a.ts', now)
    expect(fresh()).toBe(false)
  })

  it('is stale when a source file comes or goes, whatever its time', () => {
    writeFileSync(join(root, 'electron/engine/core/new.ts'), 'export {}\n')
    age('electron/engine/core/new.ts')
    expect(fresh()).toBe(false)
    unlinkSync(join(root, 'electron/engine/core/new.ts'))
    unlinkSync(join(root, 'shared/b.ts'))
    expect(fresh()).toBe(false)
  })

  it('is stale when a directory comes, and fresh when only other files came (a swap file)', () => {
    writeFileSync(join(root, 'electron/cli/.navi.ts.swp'), '')
    expect(fresh()).toBe(true)
    mkdirSync(join(root, 'shared/more'))
    expect(fresh()).toBe(false)
  })

  it('walks the sources when there is no list, or one it did not write', () => {
    rmSync(list)
    expect(fresh()).toBe(true)
    writeFileSync(list, '{"format":"something else"}\n')
    expect(fresh()).toBe(true)
    writeFileSync(join(root, 'shared/new.ts'), 'export {}\n')
    expect(fresh()).toBe(false)
  })

  it('is stale when there is no bundle', () => {
    rmSync(bundle)
    expect(fresh()).toBe(false)
  })
})
