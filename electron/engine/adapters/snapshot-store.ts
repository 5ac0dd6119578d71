/**
 * The last snapshot of every project, one JSON file each under `$NAVI_HOME/pm/snapshots/`, so a restart
 * diffs against what was true when Navi stopped (commits made meanwhile appear once). Files are named
 * `<safe name>-<hash of project_dir>.json`: names can collide, directories cannot.
 */
import { sha1Hex } from '../core/digest.ts'
import { newFileStamp } from '../core/file-stamp.ts'
import { mkdirSync } from 'node:fs'
import { mkdir, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import * as z from 'zod'
import { projectSnapshotSchema, type ProjectSnapshot } from '../../../shared/schemas/project.ts'
import { readRegularTextSync } from './safe-read.ts'
import { writeFileSafely, writeSmallFileSafely } from './safe-write.ts'
import { errorText } from '../../../shared/log.ts'
import { sealedSnapshotText, unsealedSnapshot } from '../core/snapshot-seal.ts'
import { lazySchema } from '../../../shared/schemas/lazy-schema.ts'

/** One project's snapshot is a few KB; anything this large is not one. @default 16 MiB */
const SNAPSHOT_MAX_BYTES = 16 * 1024 * 1024

export const snapshotMetaSchema = lazySchema(() =>
  z.object({
    /** When the engine completed its first cycle ever; null before. Events are only derived after it. */
    baselineAt: z.string().nullable(),
  }),
)
export type SnapshotMeta = z.infer<typeof snapshotMetaSchema>

export interface SnapshotStoreError {
  file: string
  message: string
}

export interface SnapshotStore {
  /** Every valid snapshot by `project_dir`. Invalid files are skipped (kept on disk) and reported. */
  loadAll(): Promise<Map<string, ProjectSnapshot>>
  /** Problems met by the last `loadAll` and the last `loadMeta`. */
  errors(): SnapshotStoreError[]
  /**
   * The projects whose file the last `loadAll` could not believe by its stamp: validated (an older
   * Navi's, or edited) or hashed (sealed before stamps). Saving them again seals and stamps them
   * (core/snapshot-seal.ts), so the next start reads them with JSON.parse alone, hashing nothing.
   */
  unstamped(): string[]
  /** Write one project's snapshot atomically (replacing its file even when the name changed). */
  save(snapshot: ProjectSnapshot): Promise<void>
  /** Forget a project. */
  remove(projectDir: string): Promise<void>
  /** `{ baselineAt: null }` when there is no (valid) meta file. */
  loadMeta(): Promise<SnapshotMeta>
  saveMeta(meta: SnapshotMeta): Promise<void>
}

const META_FILE = 'meta.json'
const SNAPSHOT_FILE = /-([0-9a-f]{12})\.json$/

/** 12 hex chars of SHA-1 of the project directory. */
export function projectDirHash(projectDir: string): string {
  return sha1Hex(projectDir).slice(0, 12)
}

/** `<safe name>-<hash>.json`: the name reduced to `[A-Za-z0-9._-]`, at most 40 chars. */
export function snapshotFileName(snapshot: Pick<ProjectSnapshot, 'name' | 'project_dir'>): string {
  const safe = snapshot.name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 40)
  return `${safe || 'project'}-${projectDirHash(snapshot.project_dir)}.json`
}

/** A snapshot store in `dir` (created on the first write). */
export function createSnapshotStore(dir: string): SnapshotStore {
  let lastErrors: SnapshotStoreError[] = []
  let lastUnstamped: string[] = []
  let metaError: SnapshotStoreError | null = null
  /**
   * File names by project-dir hash, listed once and then kept up to date by this store's own writes, so
   * saving n snapshots costs n writes, not n directory listings (4,000 projects took 23 s that way).
   */
  let namesByHash: Map<string, Set<string>> | null = null
  /** The one listing in progress: snapshots saved at the same time share it. */
  let listing: Promise<Map<string, Set<string>>> | null = null

  const listFiles = async (): Promise<string[]> => {
    try {
      return (await readdir(dir)).filter((name) => SNAPSHOT_FILE.test(name))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw err
    }
  }

  const names = async (): Promise<Map<string, Set<string>>> => {
    if (namesByHash) return namesByHash
    listing ??= listFiles().then(
      (files) => {
        const index = new Map<string, Set<string>>()
        for (const name of files) {
          const hash = SNAPSHOT_FILE.exec(name)?.[1]
          if (hash) index.set(hash, (index.get(hash) ?? new Set()).add(name))
        }
        namesByHash = index
        return index
      },
      (error: unknown) => {
        listing = null
        throw error
      },
    )
    return listing
  }

  const filesOf = async (projectDir: string): Promise<string[]> => [
    ...((await names()).get(projectDirHash(projectDir)) ?? []),
  ]

  /**
   * Read synchronously: small files, each four trips through the thread pool when read asynchronously
   * (dozens of snapshots were a tenth of a `navi status`); the engine loads them once per start.
   */
  const readText = (file: string): string =>
    readRegularTextSync(file, { maxBytes: SNAPSHOT_MAX_BYTES })
  const readJson = (file: string): unknown => JSON.parse(readText(file))

  /** A snapshot file: as it was sealed (core/snapshot-seal.ts), else validated. */
  const readSnapshot = (file: string) => {
    let mtimeMs = Number.NaN
    const text = readRegularTextSync(file, {
      maxBytes: SNAPSHOT_MAX_BYTES,
      stats: (stats) => (mtimeMs = stats.mtimeMs),
    })
    const sealed = unsealedSnapshot(text, mtimeMs)
    return sealed
      ? { success: true as const, data: sealed.snapshot, stamped: sealed.stamped }
      : { ...projectSnapshotSchema.safeParse(JSON.parse(text)), stamped: false }
  }

  return {
    errors: () => (metaError ? [...lastErrors, metaError] : lastErrors),
    unstamped: () => lastUnstamped,

    async loadAll() {
      namesByHash = null
      const errors: SnapshotStoreError[] = []
      const snapshots = new Map<string, ProjectSnapshot>()
      const unstamped = new Set<string>()
      let fileNames: string[] = []
      try {
        fileNames = await listFiles()
      } catch (err) {
        // The folder itself is unreadable (a file in its place): start from nothing, and say so.
        errors.push({ file: dir, message: `cannot list the snapshots: ${errorText(err)}` })
      }
      for (const name of fileNames.sort()) {
        const file = join(dir, name)
        let parsed: ReturnType<typeof readSnapshot>
        try {
          parsed = readSnapshot(file)
        } catch (err) {
          errors.push({ file, message: `unreadable snapshot: ${errorText(err)}` })
          continue
        }
        if (!parsed.success) {
          errors.push({ file, message: `invalid snapshot: ${z.prettifyError(parsed.error)}` })
          continue
        }
        if (!parsed.stamped) unstamped.add(parsed.data.project_dir)
        // Two files for one directory only after a crash between write and clean-up: newest wins.
        const previous = snapshots.get(parsed.data.project_dir)
        if (!previous || previous.captured_at < parsed.data.captured_at) {
          snapshots.set(parsed.data.project_dir, parsed.data)
        }
      }
      lastErrors = errors
      lastUnstamped = [...unstamped]
      return snapshots
    },

    async save(snapshot) {
      mkdirSync(dir, { recursive: true })
      const name = snapshotFileName(snapshot)
      // Atomic, not synced: a snapshot lost to a power cut (not to a crash: the page cache outlives the
      // process) only makes the next start diff from an older one, whose events the log already has.
      const stamp = newFileStamp()
      await writeSmallFileSafely(join(dir, name), sealedSnapshotText(snapshot, stamp), {
        fsync: false,
        stampMs: stamp,
      })
      const hash = projectDirHash(snapshot.project_dir)
      const index = await names()
      for (const stale of index.get(hash) ?? []) {
        if (stale !== name) await rm(join(dir, stale), { force: true })
      }
      index.set(hash, new Set([name]))
    },

    async remove(projectDir) {
      for (const name of await filesOf(projectDir)) await rm(join(dir, name), { force: true })
      namesByHash?.delete(projectDirHash(projectDir))
    },

    async loadMeta() {
      const file = join(dir, META_FILE)
      metaError = null
      try {
        const parsed = snapshotMetaSchema.safeParse(readJson(file))
        if (parsed.success) return parsed.data
        metaError = { file, message: 'invalid meta.json, treated as no baseline' }
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
          metaError = { file, message: `unreadable meta.json: ${errorText(err)}` }
        }
      }
      return { baselineAt: null }
    },

    async saveMeta(meta) {
      await mkdir(dir, { recursive: true })
      await writeFileSafely(
        join(dir, META_FILE),
        `${JSON.stringify(snapshotMetaSchema.parse(meta))}\n`,
      )
    },
  }
}
