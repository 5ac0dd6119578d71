import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createSnapshotStore,
  projectDirHash,
  snapshotFileName,
} from '../../electron/engine/adapters/snapshot-store.ts'
import type { ProjectSnapshot } from '../../shared/schemas/project.ts'
import { sealedSnapshotText } from '../../electron/engine/core/snapshot-seal.ts'

const snapshot = (
  projectDir: string,
  name: string,
  capturedAt = '2025-06-02T12:00:00.000Z',
): ProjectSnapshot => ({
  name,
  project_dir: projectDir,
  is_git: true,
  registered: false,
  session_names: ['fix login'],
  head_sha: 'abc123',
  branch: 'main',
  commits_ahead: 0,
  dirty: false,
  has_pr: null,
  activity: { turns_last_hour: 0, last_turn: null },
  current_pbi: {
    id: 'PBI-8',
    title: 'Research',
    tasks: { done: 1, in_progress: 1, todo: 2, total: 4 },
  },
  session_status: 'working',
  session_status_reason: null,
  last_activity: '2025-06-02T11:59:00.000Z',
  captured_at: capturedAt,
  attention: 'active',
  git: null,
  sessions: [],
  task_lists: [],
  errors: [],
})

let root: string
let dir: string

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'navi-snapshots-'))
  dir = join(root, 'pm', 'snapshots')
})

afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('snapshot store', () => {
  it('is empty before anything was saved, without creating the directory', async () => {
    const store = createSnapshotStore(dir)
    expect((await store.loadAll()).size).toBe(0)
    expect(await store.loadMeta()).toEqual({ baselineAt: null })
    expect(store.errors()).toEqual([])
    await expect(readdir(dir)).rejects.toThrow()
  })

  it('saves one file per project and loads them back by project_dir', async () => {
    const store = createSnapshotStore(dir)
    const a = snapshot('/work/a/app', 'app')
    const b = snapshot('/work/b/app', 'app')
    await store.save(a)
    await store.save(b)
    const files = (await readdir(dir)).sort()
    expect(files).toHaveLength(2)
    expect(files).toEqual(
      [
        `app-${projectDirHash('/work/a/app')}.json`,
        `app-${projectDirHash('/work/b/app')}.json`,
      ].sort(),
    )
    const loaded = await createSnapshotStore(dir).loadAll()
    expect(loaded).toEqual(
      new Map([
        ['/work/a/app', a],
        ['/work/b/app', b],
      ]),
    )
  })

  it('replaces a snapshot, also when the project name changed', async () => {
    const store = createSnapshotStore(dir)
    await store.save(snapshot('/work/a/app', 'app'))
    const renamed = { ...snapshot('/work/a/app', 'app-2'), head_sha: 'def456' }
    await store.save(renamed)
    expect(await readdir(dir)).toEqual([snapshotFileName(renamed)])
    expect((await store.loadAll()).get('/work/a/app')).toEqual(renamed)
  })

  it('saves many at once, each replacing only its own project, with stale names from before removed', async () => {
    const old = createSnapshotStore(dir)
    await old.save(snapshot('/p/renamed', 'old-name'))
    const store = createSnapshotStore(dir)
    const projects = Array.from({ length: 20 }, (_, i) => snapshot(`/p/${i}`, `project-${i}`))
    await Promise.all([...projects, snapshot('/p/renamed', 'new-name')].map((s) => store.save(s)))
    const files = (await readdir(dir)).filter((f) => f.endsWith('.json'))
    expect(files.sort()).toEqual(
      [...projects, snapshot('/p/renamed', 'new-name')].map(snapshotFileName).sort(),
    )
    // The names this store keeps after saving at once still find the file to replace.
    await store.save(snapshot('/p/3', 'three-renamed'))
    const loaded = await createSnapshotStore(dir).loadAll()
    expect(loaded.size).toBe(21)
    expect(loaded.get('/p/3')?.name).toBe('three-renamed')
    expect((await readdir(dir)).filter((f) => f.startsWith('project-3-'))).toEqual([])
  })

  it('makes unsafe names safe', () => {
    expect(snapshotFileName({ name: '../../etc/passwd', project_dir: '/x' })).toMatch(
      /^etc_passwd-[0-9a-f]{12}\.json$/,
    )
    expect(snapshotFileName({ name: '???', project_dir: '/x' })).toMatch(
      /^project-[0-9a-f]{12}\.json$/,
    )
  })

  it('removes a project', async () => {
    const store = createSnapshotStore(dir)
    await store.save(snapshot('/work/a/app', 'app'))
    await store.save(snapshot('/work/b/lib', 'lib'))
    await store.remove('/work/a/app')
    await store.remove('/work/never/saved')
    expect([...(await store.loadAll()).keys()]).toEqual(['/work/b/lib'])
  })

  it('skips invalid files with an error and leaves them on disk', async () => {
    const store = createSnapshotStore(dir)
    await store.save(snapshot('/work/a/app', 'app'))
    const broken = join(dir, `broken-${projectDirHash('/work/broken')}.json`)
    const wrongShape = join(dir, `shape-${projectDirHash('/work/shape')}.json`)
    await writeFile(broken, '{"name": "brok')
    await writeFile(
      wrongShape,
      JSON.stringify({ ...snapshot('/work/shape', 'shape'), dirty: 'yes' }),
    )
    await writeFile(join(dir, 'notes.txt'), 'not a snapshot')

    const loaded = await store.loadAll()
    expect([...loaded.keys()]).toEqual(['/work/a/app'])
    expect(
      store
        .errors()
        .map((e) => e.file)
        .sort(),
    ).toEqual([broken, wrongShape].sort())
    expect(store.errors().find((e) => e.file === wrongShape)?.message).toContain('dirty')
    expect(await readFile(broken, 'utf8')).toBe('{"name": "brok')
  })

  it('validates a sealed file edited by hand, as any other', async () => {
    const store = createSnapshotStore(dir)
    await store.save(snapshot('/work/a/app', 'app'))
    await store.save(snapshot('/work/b/api', 'api'))
    const fileOf = (projectDir: string, name: string) =>
      join(dir, `${name}-${projectDirHash(projectDir)}.json`)
    const sealed = await readFile(fileOf('/work/a/app', 'app'), 'utf8')
    expect(sealed.startsWith('{\n  "$navi": "')).toBe(true)
    // Still a valid snapshot after the edit: loaded, as validated.
    await writeFile(fileOf('/work/a/app', 'app'), sealed.replace('"abc123"', '"def456"'))
    // No longer one: skipped with the reason, though its seal was once right.
    const api = await readFile(fileOf('/work/b/api', 'api'), 'utf8')
    await writeFile(fileOf('/work/b/api', 'api'), api.replace('"dirty": false', '"dirty": "no"'))

    const loaded = await createSnapshotStore(dir).loadAll()
    expect(loaded.get('/work/a/app')?.head_sha).toBe('def456')
    expect(loaded.get('/work/a/app')).not.toHaveProperty('$navi')
    expect(loaded.has('/work/b/api')).toBe(false)
    const reloaded = createSnapshotStore(dir)
    await reloaded.loadAll()
    expect(
      reloaded
        .errors()
        .map((e) => e.message)
        .join(),
    ).toContain('dirty')
  })

  it('names the projects whose file it could not believe by its stamp, which saving stamps', async () => {
    const store = createSnapshotStore(dir)
    await store.save(snapshot('/work/a/app', 'app'))
    const plain = join(dir, `api-${projectDirHash('/work/b/api')}.json`)
    await writeFile(plain, JSON.stringify(snapshot('/work/b/api', 'api'), null, 2))
    // Sealed before stamps: believed by its hash.
    const hashed = join(dir, `web-${projectDirHash('/work/c/web')}.json`)
    await writeFile(hashed, sealedSnapshotText(snapshot('/work/c/web', 'web')))
    expect(store.unstamped()).toEqual([])
    const loaded = await store.loadAll()
    expect([...loaded.keys()].sort()).toEqual(['/work/a/app', '/work/b/api', '/work/c/web'])
    expect(store.unstamped().sort()).toEqual(['/work/b/api', '/work/c/web'])
    await store.save(snapshot('/work/b/api', 'api'))
    await store.save(snapshot('/work/c/web', 'web'))
    expect((await readFile(plain, 'utf8')).startsWith('{\n  "$navi": "')).toBe(true)
    await store.loadAll()
    expect(store.unstamped()).toEqual([])

    // Touched since (the same bytes, a new time): believed by its hash again, and named.
    const later = new Date(Date.now() + 5_000)
    await utimes(hashed, later, later)
    expect((await store.loadAll()).get('/work/c/web')?.name).toBe('web')
    expect(store.unstamped()).toEqual(['/work/c/web'])
  })

  it('keeps the newest when two files name the same directory', async () => {
    await mkdir(dir, { recursive: true })
    const older = snapshot('/work/a/app', 'app', '2025-06-01T00:00:00.000Z')
    const newer = snapshot('/work/a/app', 'renamed', '2025-06-02T00:00:00.000Z')
    await writeFile(join(dir, snapshotFileName(newer)), JSON.stringify(newer))
    await writeFile(join(dir, snapshotFileName(older)), JSON.stringify(older))
    expect((await createSnapshotStore(dir).loadAll()).get('/work/a/app')).toEqual(newer)
  })

  it('stores the baseline time in meta.json, apart from the snapshots', async () => {
    const store = createSnapshotStore(dir)
    await store.saveMeta({ baselineAt: '2025-06-02T12:00:00.000Z' })
    expect(await createSnapshotStore(dir).loadMeta()).toEqual({
      baselineAt: '2025-06-02T12:00:00.000Z',
    })
    expect((await store.loadAll()).size).toBe(0)
    expect(store.errors()).toEqual([])
  })

  it('treats an invalid meta.json as no baseline, with an error', async () => {
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'meta.json'), '{"baselineAt": 42}')
    const store = createSnapshotStore(dir)
    expect(await store.loadMeta()).toEqual({ baselineAt: null })
    expect(store.errors()).toHaveLength(1)
  })
})
