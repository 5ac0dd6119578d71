/**
 * `$NAVI_HOME/settings.json`: what the Settings view changes, for the tray app, `navi serve` and the CLI
 * alike (one implementation, one set of semantics). Writes are atomic and serialized; each one re-reads
 * the file first, so a change written by another Navi process in between is kept rather than overwritten
 * with a stale copy. With `watch`, a change made by anyone else (the CLI, another Navi, a text editor) is
 * read back and told to the listeners.
 */
import pLimit from 'p-limit'
import { mkdir } from 'node:fs/promises'
import { basename } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { createDirWatchers, type DirWatchers } from '../engine/adapters/dir-watcher.ts'
import { readSettingsFile } from '../engine/adapters/navi-settings.ts'
import { naviFiles, type EnginePaths } from '../engine/core/paths.ts'
import {
  settingPatchSchema,
  type SettingPatch,
  type Settings,
} from '../../shared/schemas/settings.ts'
import { describeIssues } from './describe-issues.ts'
import { mergeSettingPatch } from '../../shared/schemas/settings.ts'
import { writeFileSafely } from '../engine/adapters/safe-write.ts'
import { errorText } from '../../shared/log.ts'

export { readSettingsFile, readSettingsOverrides } from '../engine/adapters/navi-settings.ts'

/** How long a burst of file events (an editor's save, an atomic rename) is let settle before a re-read. */
const SETTLE_MS = 50

export interface SettingsStore {
  /** The settings as last read or written. */
  get(): Settings
  /**
   * Applies one change (validated by `settingPatchSchema`, notifications merged toggle by toggle) and
   * writes the file. @throws Error with a readable message when the patch is invalid or the write fails.
   */
  set(patch: SettingPatch): Promise<Settings>
  /** Called whenever the settings change, here or (with `watch`) in the file; returns the unsubscribe. */
  onChange(listener: (settings: Settings) => void): () => void
  /** Reads the file again now (listeners hear it if it changed). */
  refresh(): Promise<Settings>
  /** What was wrong with the file when last read (each bad key fell back to its default). */
  problems(): string[]
  /** Stops watching; listeners hear nothing more. */
  dispose(): void
}

export interface SettingsStoreOptions {
  /** Watch the file for changes made by others. @default false */
  watch?: boolean
  /**
   * Told when a re-read after a file change failed (the last good settings stay), when a listener threw,
   * or when the file cannot be watched. @default ignored
   */
  onError?: (message: string) => void
}

/** The store over `$NAVI_HOME/settings.json` (missing or bad file: the defaults; nothing is written until a `set`). */
export async function createSettingsFileStore(
  paths: EnginePaths,
  opts: SettingsStoreOptions = {},
): Promise<SettingsStore> {
  const file = naviFiles(paths).settings
  const first = await readSettingsFile(paths)
  let current = first.settings
  let problems = first.errors.map((e) => e.message)
  const listeners = new Set<(settings: Settings) => void>()
  /** Writes one at a time, in call order; reads wait behind them. */
  const queue = pLimit(1)
  let disposed = false
  let settle: NodeJS.Timeout | null = null
  let watchers: DirWatchers | null = null

  const adopt = (next: Settings) => {
    if (isDeepStrictEqual(next, current)) return
    current = next
    if (disposed) return
    for (const listener of [...listeners]) {
      try {
        listener(next)
      } catch (error) {
        // One broken listener must not fail the write nor starve the others; it is reported.
        opts.onError?.(`a settings listener failed: ${errorText(error)}`)
      }
    }
  }

  const write = async (patch: SettingPatch): Promise<Settings> => {
    const onDisk = await readSettingsFile(paths)
    // Over a broken file, the settings this store holds are the best account of what the user chose.
    const next = mergeSettingPatch(onDisk.unreadable ? current : onDisk.settings, patch)
    await mkdir(paths.naviHome, { recursive: true })
    await writeFileSafely(file, `${JSON.stringify(next, null, 2)}\n`)
    problems = []
    adopt(next)
    return next
  }

  const refresh = async (): Promise<Settings> => {
    // Behind the queued writes, so a read never overtakes this process's own write.
    await queue(async () => {})
    const read = await readSettingsFile(paths)
    problems = read.errors.map((e) => e.message)
    // A file caught half-saved by an editor, or broken by hand, is not a wish to reset every setting.
    if (!read.unreadable) adopt(read.settings)
    return current
  }

  if (opts.watch) {
    // The directory, not the file: an atomic write replaces the file, and it may not exist yet.
    await mkdir(paths.naviHome, { recursive: true })
    watchers = createDirWatchers(
      [{ path: paths.naviHome, recursive: false }],
      (_dir, name) => {
        if (name !== null && name !== basename(file)) return
        if (settle) clearTimeout(settle)
        settle = setTimeout(() => {
          settle = null
          refresh().catch((error: unknown) =>
            opts.onError?.(`${file}: ${error instanceof Error ? error.message : String(error)}`),
          )
        }, SETTLE_MS)
      },
      opts.onError,
    )
    watchers.ensure()
  }

  return {
    get: () => current,
    refresh,
    problems: () => problems,
    set(patch) {
      const checked = settingPatchSchema.safeParse(patch)
      if (!checked.success) {
        return Promise.reject(new Error(`invalid setting: ${describeIssues(checked.error)}`))
      }
      return queue(() => write(checked.data))
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    dispose() {
      disposed = true
      if (settle) clearTimeout(settle)
      watchers?.close()
      listeners.clear()
    },
  }
}
