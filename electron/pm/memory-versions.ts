/**
 * Versions of the PM's memory directory under `$NAVI_HOME/pm/memory-versions/<id>/`, where the id
 * is `<ISO stamp, ':' → '-'>_<reason>` (e.g. `2025-06-02T12-00-00.000Z_pre-run`), so names sort in
 * creation order. A version is copied into a dot-named temp dir and renamed into place, so a crash
 * never leaves a half version listed. Snapshots are taken before each run, by the safety valve
 * before it trims (`pre-trim`) and before a restore (`pre-restore`), so a restore can be undone.
 */
import { randomBytes } from 'node:crypto'
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { EnginePaths } from '../engine/core/paths.ts'
import { naviFiles } from '../engine/core/paths.ts'

export type MemoryVersionReason = 'pre-run' | 'pre-trim' | 'pre-restore' | 'manual'

export interface MemoryVersion {
  /** Directory name, also what `navi memory restore <id>` takes. */
  id: string
  /** ISO timestamp of the snapshot. */
  createdAt: string
  reason: MemoryVersionReason
  /** Absolute path of the version's copy of the memory dir. */
  dir: string
}

export interface SnapshotOptions {
  /** Versions kept after this snapshot (older ones are deleted); `Infinity` keeps all. @default 20 */
  keep?: number
  /** @default 'pre-run' */
  reason?: MemoryVersionReason
  /** @default new Date() */
  now?: Date
}

export const DEFAULT_VERSIONS_KEPT = 20

const REASONS: readonly MemoryVersionReason[] = ['pre-run', 'pre-trim', 'pre-restore', 'manual']
const VERSION_ID = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})Z_([a-z-]+)$/
const RESTORE_STAGING = '.memory-restore-'
const RESTORE_OLD = '.memory-old-'

/** A restore that cannot be done (unknown version, nothing to restore). */
export class MemoryVersionError extends Error {
  override name = 'MemoryVersionError'
}

/** Versions, oldest first. Entries that are not versions (temp dirs, stray files) are ignored. */
export async function listMemoryVersions(paths: EnginePaths): Promise<MemoryVersion[]> {
  const dir = naviFiles(paths).memoryVersionsDir
  let entries: string[]
  try {
    entries = await readdir(dir)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw err
  }
  const versions: MemoryVersion[] = []
  for (const id of entries.sort()) {
    const version = parseVersionId(id, dir)
    if (version && (await isDirectory(version.dir))) versions.push(version)
  }
  return versions
}

/** Parses a version directory name; null when `id` is not one. */
export function parseVersionId(id: string, versionsDir: string): MemoryVersion | null {
  const match = VERSION_ID.exec(id)
  if (!match) return null
  const [, date, hh, mm, ss, ms, reason] = match
  const known = REASONS.find((r) => r === reason)
  if (!known) return null
  const createdAt = `${date}T${hh}:${mm}:${ss}.${ms}Z`
  if (Number.isNaN(Date.parse(createdAt))) return null
  return { id, createdAt, reason: known, dir: join(versionsDir, id) }
}

/**
 * Copies the whole memory dir to a new version, then prunes to the newest `keep`. Returns null
 * when there is no memory dir yet. Only regular files and directories are copied (symlinks and
 * other special files are skipped: the PM never makes them, and following one could copy files
 * from outside the memory dir).
 */
export async function snapshotMemory(
  paths: EnginePaths,
  opts: SnapshotOptions = {},
): Promise<MemoryVersion | null> {
  const files = naviFiles(paths)
  if (!(await isDirectory(files.memoryDir))) return null
  const existing = await listMemoryVersions(paths)
  const id = `${versionStamp(opts.now ?? new Date(), existing.at(-1))}_${opts.reason ?? 'pre-run'}`
  const staging = join(files.memoryVersionsDir, `.tmp-${randomBytes(6).toString('hex')}`)
  await mkdir(files.memoryVersionsDir, { recursive: true })
  try {
    await copyTree(files.memoryDir, staging)
    await rename(staging, join(files.memoryVersionsDir, id))
  } catch (err) {
    await rm(staging, { recursive: true, force: true })
    throw err
  }
  await pruneMemoryVersions(paths, opts.keep ?? DEFAULT_VERSIONS_KEPT)
  const version = parseVersionId(id, files.memoryVersionsDir)
  if (!version) throw new Error(`internal: bad memory version id ${id}`)
  return version
}

/** Deletes all but the newest `keep` versions; returns the ids deleted. */
export async function pruneMemoryVersions(paths: EnginePaths, keep: number): Promise<string[]> {
  if (!(keep >= 1)) throw new RangeError(`keep must be at least 1, got ${keep}`)
  const versions = await listMemoryVersions(paths)
  const doomed = versions.slice(0, Math.max(0, versions.length - keep))
  for (const version of doomed) await rm(version.dir, { recursive: true, force: true })
  return doomed.map((v) => v.id)
}

export interface RestoreOptions {
  /** A version id from {@link listMemoryVersions}. @default the latest version */
  version?: string
  /** @default 20 */
  keep?: number
  /** @default new Date() */
  now?: Date
}

export interface RestoreResult {
  restored: MemoryVersion
  /** Snapshot of the memory as it was before the restore (null when there was no memory dir). */
  undo: MemoryVersion | null
}

/**
 * Replaces the memory dir with a version (default: the latest). The current memory is snapshotted
 * first (`pre-restore`), the version is copied next to `memory/`, and the two are swapped with
 * renames; the old dir is deleted only after the swap. Don't call it during a PM run.
 */
export async function restoreMemory(
  paths: EnginePaths,
  opts: RestoreOptions = {},
): Promise<RestoreResult> {
  const { pmDir, memoryDir } = naviFiles(paths)
  await recoverInterruptedRestore(pmDir, memoryDir)
  const versions = await listMemoryVersions(paths)
  const target = opts.version ? versions.find((v) => v.id === opts.version) : versions.at(-1)
  if (!target) {
    throw new MemoryVersionError(
      opts.version ? `no memory version ${opts.version}` : 'no memory versions yet',
    )
  }
  // Pruning waits until the end so it cannot delete the version being restored.
  const undo = await snapshotMemory(paths, { reason: 'pre-restore', keep: Infinity, now: opts.now })

  const suffix = randomBytes(6).toString('hex')
  const staging = join(pmDir, `${RESTORE_STAGING}${suffix}`)
  const old = join(pmDir, `${RESTORE_OLD}${suffix}`)
  try {
    await copyTree(target.dir, staging)
  } catch (err) {
    await rm(staging, { recursive: true, force: true })
    throw err
  }
  const hadMemory = await isDirectory(memoryDir)
  if (hadMemory) await rename(memoryDir, old)
  try {
    await rename(staging, memoryDir)
  } catch (err) {
    if (hadMemory) await rename(old, memoryDir)
    await rm(staging, { recursive: true, force: true })
    throw err
  }
  if (hadMemory) await rm(old, { recursive: true, force: true })
  await pruneMemoryVersions(paths, opts.keep ?? DEFAULT_VERSIONS_KEPT)
  return { restored: target, undo }
}

/**
 * Repairs what a crash in the middle of {@link restoreMemory} left: when `memory/` is missing but
 * the renamed old dir exists, it is put back. Leftover staging and old dirs are then removed.
 * Returns the dir put back, or null.
 */
export async function recoverInterruptedRestore(
  pmDir: string,
  memoryDir: string,
): Promise<string | null> {
  let entries: string[]
  try {
    entries = await readdir(pmDir)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
  let recovered: string | null = null
  const olds = entries.filter((name) => name.startsWith(RESTORE_OLD)).sort()
  const newestOld = olds.pop()
  if (newestOld !== undefined && !(await isDirectory(memoryDir))) {
    recovered = join(pmDir, newestOld)
    await rename(recovered, memoryDir)
  } else if (newestOld !== undefined) {
    olds.push(newestOld)
  }
  // An old dir exists only after its pre-restore snapshot was complete, so it is a duplicate.
  const leftovers = [...olds, ...entries.filter((name) => name.startsWith(RESTORE_STAGING))]
  for (const name of leftovers) await rm(join(pmDir, name), { recursive: true, force: true })
  return recovered
}

/** Stamp for a new version: `now`, or 1 ms after the newest version so ids stay in order. */
function versionStamp(now: Date, newest: MemoryVersion | undefined): string {
  const newestMs = newest ? Date.parse(newest.createdAt) : -Infinity
  const ms = Math.max(now.getTime(), newestMs + 1)
  return new Date(ms).toISOString().replaceAll(':', '-')
}

async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true })
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name)
    const target = join(to, entry.name)
    if (entry.isDirectory()) await copyTree(source, target)
    else if (entry.isFile()) await copyFile(source, target)
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    // Missing (no memory yet, a version pruned meanwhile) is the answer asked for.
    return false
  }
}
