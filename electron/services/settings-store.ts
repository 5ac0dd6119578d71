/**
 * `$NAVI_HOME/settings.json`: what the Settings view changes, for the tray app and `navi serve` alike.
 * Writes are atomic and serialised; each one re-reads the file first, so a change written by another
 * Navi process in between is kept rather than overwritten with a stale copy.
 */
import { mkdir } from 'node:fs/promises'
import { readSettingsFile } from '../engine/adapters/navi-settings.ts'
import { naviFiles, type EnginePaths } from '../engine/core/paths.ts'
import {
  settingPatchSchema,
  type SettingPatch,
  type Settings,
} from '../../shared/schemas/settings.ts'
import { describeIssues } from './dispatch.ts'
import { mergeSettingPatch } from '../../shared/schemas/settings.ts'
import { writeFileSafely } from '../engine/adapters/safe-write.ts'

export { readSettingsFile, readSettingsOverrides } from '../engine/adapters/navi-settings.ts'

export interface SettingsStore {
  /** The settings as last read or written. */
  get(): Settings
  /**
   * Applies one change (validated by `settingPatchSchema`, notifications merged toggle by toggle) and
   * writes the file. @throws Error with a readable message when the patch is invalid or the write fails.
   */
  set(patch: SettingPatch): Promise<Settings>
  /** Called after every successful `set`; returns the unsubscribe function. */
  onChange(listener: (settings: Settings) => void): () => void
  /**
   * Reads the file again, for a store that does not watch it (another Navi process may have written it).
   * @default absent: `get()` is always current (electron-store watches the file)
   */
  refresh?(): Promise<Settings>
}

/** The store over `$NAVI_HOME/settings.json` (missing or bad file: the defaults; nothing is written until a `set`). */
export async function createSettingsFileStore(paths: EnginePaths): Promise<SettingsStore> {
  const file = naviFiles(paths).settings
  let current = (await readSettingsFile(paths)).settings
  const listeners = new Set<(settings: Settings) => void>()
  let queue: Promise<unknown> = Promise.resolve()

  const write = async (patch: SettingPatch): Promise<Settings> => {
    const onDisk = (await readSettingsFile(paths)).settings
    const next = mergeSettingPatch(onDisk, patch)
    await mkdir(paths.naviHome, { recursive: true })
    await writeFileSafely(file, `${JSON.stringify(next, null, 2)}\n`)
    current = next
    for (const listener of listeners) {
      try {
        listener(next)
      } catch {
        // One broken listener must not fail the write nor starve the others.
      }
    }
    return next
  }

  return {
    get: () => current,
    async refresh() {
      // Behind the queued writes, so a read never overtakes this process's own write.
      await queue
      current = (await readSettingsFile(paths)).settings
      return current
    },
    set(patch) {
      const checked = settingPatchSchema.safeParse(patch)
      if (!checked.success) {
        return Promise.reject(new Error(`invalid setting: ${describeIssues(checked.error)}`))
      }
      const result = queue.then(() => write(checked.data))
      queue = result.catch(() => undefined)
      return result
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
