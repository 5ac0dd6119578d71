/**
 * Durability: nothing the engine derived is lost. The event log and the snapshot store are made to fail
 * (their paths become directories: the same EISDIR/ENOTDIR a full or broken disk gives) while commits land
 * in a real repository; then they recover. Every commit must be logged exactly once and reach the
 * engine's listeners exactly once; the failure must show in the state's errors meanwhile.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { engineEventSchema, type EngineEvent } from '../../shared/schemas/event.ts'
import { naviFiles } from '../../electron/engine/core/paths.ts'
import { createEngine, type Engine } from '../../electron/engine/index.ts'
import { snapshotFileName } from '../../electron/engine/adapters/snapshot-store.ts'
import { createSessionSources, type SessionSources } from '../../electron/engine/sources.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'
import { useTempPaths } from '../support/temp-paths.ts'
import { waitUntil } from '../support/wait.ts'

const temp = useTempPaths('navi-durability-')
let repo: RepoFixture
const engines: Engine[] = []

beforeEach(async () => {
  repo = await createRepoFixture({ prefix: 'durable-' })
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

/** An engine that polls nothing by itself (cycles run on `refresh`) and remembers what it emitted. */
function startEngine(retryMs = 60_000): { engine: Engine; heard: EngineEvent[]; errors: string[] } {
  const heard: EngineEvent[] = []
  const errors: string[] = []
  const engine = createEngine({
    paths: temp.paths,
    watch: false,
    retryMs,
    onError: (m) => errors.push(m),
  })
  engine.subscribe((events) => heard.push(...events))
  engines.push(engine)
  return { engine, heard, errors }
}

async function logged(): Promise<EngineEvent[]> {
  const text = await readFile(naviFiles(temp.paths).eventLog, 'utf8')
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => engineEventSchema.parse(JSON.parse(line)))
}

const commitShas = (events: EngineEvent[]) =>
  events.filter((e) => e.type === 'commit').map((e) => e.details.sha)

/** Makes `file` unusable by putting a directory in its place; returns the undo. */
async function breakPath(file: string): Promise<() => Promise<void>> {
  const aside = `${file}.aside`
  await rename(file, aside).catch(() => undefined)
  await mkdir(file, { recursive: true })
  return async () => {
    await rm(file, { recursive: true, force: true })
    await rename(aside, file).catch(() => undefined)
  }
}

describe('a failing event log', () => {
  it('loses no commit: they are logged and heard once the log is writable again', async () => {
    const { engine, heard } = startEngine()
    await engine.refresh() // baseline
    const a = await repo.commit('a')
    await engine.refresh()
    expect(commitShas(heard)).toEqual([a])

    const repair = await breakPath(naviFiles(temp.paths).eventLog)
    const b = await repo.commit('b')
    const broken = await engine.refresh()
    expect(broken.errors.join('\n')).toMatch(/event log: .*kept and logged once it is writable/)
    const c = await repo.commit('c')
    await engine.refresh()
    expect(commitShas(heard)).toEqual([a])

    await repair()
    const healed = await engine.refresh()
    expect(healed.errors.filter((e) => e.startsWith('event log'))).toEqual([])
    expect(commitShas(heard)).toEqual([a, b, c])
    expect(commitShas(await logged())).toEqual([a, b, c])
  })

  it('retries by itself, and a restart while it is broken loses nothing either', async () => {
    const first = startEngine(50)
    await first.engine.refresh()
    const log = naviFiles(temp.paths).eventLog
    await breakPath(log)
    const b = await repo.commit('b')
    await first.engine.refresh()
    await first.engine.stop()

    const second = startEngine(50)
    await second.engine.refresh()
    const c = await repo.commit('c')
    // One step (the retry runs meanwhile): the folder goes and the engine starts a new log. The empty
    // log set aside stays aside; putting it back could race the retry's write.
    await rm(log, { recursive: true })
    // No refresh: the engine's own retry (50 ms, doubling) must log them.
    await waitUntil(async () => commitShas(second.heard).length === 2, 15_000, 'the retry')
    expect(commitShas(second.heard)).toEqual([b, c])
    expect(commitShas(await logged())).toEqual([b, c])
  })
})

describe('a failing snapshot store', () => {
  it('still delivers the logged events, saves the snapshot later, and a restart duplicates nothing', async () => {
    const { engine, heard } = startEngine()
    await engine.refresh()
    const snapshots = naviFiles(temp.paths).snapshotsDir
    await rm(snapshots, { recursive: true, force: true })
    await writeFile(snapshots, 'not a directory')
    const d = await repo.commit('d')
    const state = await engine.refresh()
    expect(state.errors.join('\n')).toMatch(/snapshots: 1 could not be saved/)
    expect(commitShas(heard)).toEqual([d])
    expect(commitShas(await logged())).toEqual([d])

    await rm(snapshots, { force: true })
    const saved = await engine.refresh()
    expect(saved.errors.filter((e) => e.startsWith('snapshots'))).toEqual([])
    await engine.stop()

    const again = startEngine()
    await again.engine.refresh()
    const e = await repo.commit('e')
    await again.engine.refresh()
    expect(commitShas(again.heard)).toEqual([e])
    expect(commitShas(await logged())).toEqual([d, e])
  })

  it('a snapshot file without a seal (an older Navi’s) is written again sealed by the next start', async () => {
    const first = startEngine()
    await first.engine.refresh()
    await first.engine.stop()
    const dir = naviFiles(temp.paths).snapshotsDir
    const [name] = (await readdir(dir)).filter((n) => n.startsWith('apollo-'))
    const file = join(dir, name ?? '')
    const sealed = await readFile(file, 'utf8')
    expect(sealed.startsWith('{\n  "$navi": "')).toBe(true)

    // As a Navi before seals wrote it: the same snapshot, plain (core/snapshot-seal.ts).
    const { $navi: _seal, ...plain } = JSON.parse(sealed) as Record<string, unknown>
    await writeFile(file, `${JSON.stringify(plain, null, 2)}\n`)
    const next = startEngine()
    await next.engine.refresh()
    await next.engine.stop()
    const again = await readFile(file, 'utf8')
    expect(again.startsWith('{\n  "$navi": "')).toBe(true)
    const { $navi: _again, ...resealed } = JSON.parse(again) as Record<string, unknown>
    expect(resealed.name).toBe('apollo')
    expect(resealed.project_dir).toBe(plain.project_dir)
    expect(next.heard).toEqual([])
  })

  it('so is one of a project no session names any more (else its cycle stayed pending for good)', async () => {
    const first = startEngine()
    await first.engine.refresh()
    await first.engine.stop()
    const dir = naviFiles(temp.paths).snapshotsDir
    const [name] = (await readdir(dir)).filter((n) => n.startsWith('apollo-'))
    const { $navi: _seal, ...plain } = JSON.parse(
      await readFile(join(dir, name ?? ''), 'utf8'),
    ) as Record<string, unknown>
    // Its sessions are long gone: only the snapshot an older Navi wrote is left.
    const retired = { ...plain, name: 'retired', project_dir: '/nowhere/retired' }
    const gone = join(dir, snapshotFileName(retired))
    await writeFile(gone, `${JSON.stringify(retired, null, 2)}\n`)

    const next = startEngine()
    const state = await next.engine.refresh()
    await next.engine.stop()
    const again = await readFile(gone, 'utf8')
    expect(again.startsWith('{\n  "$navi": "')).toBe(true)
    expect(JSON.parse(again)).toMatchObject({ name: 'retired', project_dir: '/nowhere/retired' })
    expect(state.projects.map((p) => p.name)).toContain('apollo')
    expect(state.errors).toEqual([])
  })
})

describe('a cycle that throws', () => {
  it('keeps the engine alive, shows the failure, and recovers by itself', async () => {
    // Sources that fail in a way no guard expects (a bug), twice, then work again.
    const real = createSessionSources(temp.paths)
    let failures = 2
    const sources: SessionSources = {
      ...real,
      collect: (now, hints, opts) => {
        if (failures-- > 0) return Promise.reject(new TypeError('a bug in a source'))
        return real.collect(now, hints, opts)
      },
    }
    const errors: string[] = []
    const engine = createEngine({
      paths: temp.paths,
      watch: false,
      retryMs: 50,
      sources,
      onError: (m) => errors.push(m),
    })
    engines.push(engine)
    const failed = await engine.refresh()
    expect(failed.errors).toContain('cycle failed: a bug in a source')
    expect(errors).toContain('cycle failed: a bug in a source')
    await waitUntil(
      async () => engine.getState().projects.some((p) => p.name === 'apollo'),
      15_000,
      'the retry',
    )
    expect(engine.getState().errors.filter((e) => e.startsWith('cycle failed'))).toEqual([])
  })

  it('a listener that throws neither silences the others nor stops the engine', async () => {
    const { engine, heard, errors } = startEngine()
    engines.pop()
    const unsubscribe = engine.subscribe(() => {
      throw new Error('listener bug')
    })
    engines.push(engine)
    await engine.refresh()
    const f = await repo.commit('f')
    await engine.refresh()
    unsubscribe()
    expect(commitShas(heard)).toEqual([f])
    expect(errors.join('\n')).toMatch(/a listener failed: listener bug/)
  })
})
