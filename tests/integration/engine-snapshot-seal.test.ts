/**
 * Snapshots are sealed (core/snapshot-seal.ts) so that a start reads them without zod: a file an older Navi
 * wrote, or one edited by hand, is validated, and the engine's first cycle writes it again sealed.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { naviFiles } from '../../electron/engine/core/paths.ts'
import { createEngine, type Engine } from '../../electron/engine/index.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'
import { useTempPaths } from '../support/temp-paths.ts'

const temp = useTempPaths('navi-seal-')
let repo: RepoFixture
const engines: Engine[] = []

beforeEach(async () => {
  repo = await createRepoFixture({ prefix: 'sealed-' })
  await mkdir(temp.paths.naviHome, { recursive: true })
  await writeFile(
    join(temp.paths.naviHome, 'config.yaml'),
    `projects:\n  - path: ${repo.dir}\n    name: apollo\n`,
  )
})

afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.stop()
  await repo.cleanup()
})

async function refreshOnce(): Promise<void> {
  const engine = createEngine({ paths: temp.paths, watch: false })
  engines.push(engine)
  await engine.refresh()
  await engine.stop()
}

it('a snapshot file without a seal is written again sealed by the next start, and read the same', async () => {
  await refreshOnce()
  const dir = naviFiles(temp.paths).snapshotsDir
  const [name] = (await readdir(dir)).filter((n) => n.startsWith('apollo-'))
  const file = join(dir, name ?? '')
  const sealed = await readFile(file, 'utf8')
  expect(sealed.startsWith('{\n  "$navi": "')).toBe(true)

  // As a Navi before seals wrote it: the same snapshot, plain.
  const { $navi: _seal, ...plain } = JSON.parse(sealed) as Record<string, unknown>
  await writeFile(file, `${JSON.stringify(plain, null, 2)}\n`)
  await refreshOnce()
  const again = await readFile(file, 'utf8')
  expect(again.startsWith('{\n  "$navi": "')).toBe(true)
  const { $navi: _again, ...resealed } = JSON.parse(again) as Record<string, unknown>
  expect(resealed.name).toBe('apollo')
  expect(resealed.project_dir).toBe(plain.project_dir)
})
