/**
 * Saving the snapshots of many projects (the first cycle after a start with thousands of registered or
 * recently seen projects). Each save used to list the whole snapshot folder to clean up renamed files,
 * so n saves cost n listings of n files (4,000 projects: 22.9 s). Measured against a reference in the
 * same run: the same n files written with write-file-atomic alone, no store.
 *
 * `node bin/run-ts.mjs bench/snapshot-save.ts [--projects N]` — writes bench/results/snapshot-save.json.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import {
  createSnapshotStore,
  snapshotFileName,
} from '../electron/engine/adapters/snapshot-store.ts'
import { makeProject } from '../tests/support/pm-events-fixture.ts'
import { isMain, numberOption, printTable, round, writeResult } from './lib/report.ts'

export async function benchSnapshotSave(projects: number) {
  const root = await mkdtemp(join(tmpdir(), 'navi-bench-snapshots-'))
  try {
    const snapshots = Array.from({ length: projects }, (_, i) =>
      makeProject({ name: `project-${i}` }),
    )
    const referenceDir = join(root, 'reference')
    const started = performance.now()
    await mkdir(referenceDir, { recursive: true })
    for (const snapshot of snapshots) {
      await writeFileAtomic(
        join(referenceDir, snapshotFileName(snapshot)),
        `${JSON.stringify(snapshot, null, 2)}\n`,
      )
    }
    const referenceMs = performance.now() - started

    const store = createSnapshotStore(join(root, 'store'))
    await store.loadAll()
    const first = performance.now()
    for (const snapshot of snapshots) await store.save(snapshot)
    const storeMs = performance.now() - first
    // A second round over files that exist: the cycle after, every project changed.
    const second = performance.now()
    for (const snapshot of snapshots)
      await store.save({ ...snapshot, captured_at: new Date().toISOString() })
    const againMs = performance.now() - second

    printTable(
      `Saving ${projects} snapshots`,
      ['what', 'ms', '× reference'],
      [
        ['reference: write-file-atomic alone', round(referenceMs), 1],
        ['snapshot store, new files', round(storeMs), round(storeMs / referenceMs, 2)],
        ['snapshot store, over existing files', round(againMs), round(againMs / referenceMs, 2)],
      ],
    )
    await writeResult('snapshot-save', {
      projects,
      referenceMs: round(referenceMs),
      storeMs: round(storeMs),
      storeOverExistingMs: round(againMs),
      ratio: round(storeMs / referenceMs, 2),
    })
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

if (isMain(import.meta.url)) {
  await benchSnapshotSave(numberOption(process.argv.slice(2), 'projects', 4000))
}
