/**
 * The settings store over a JSON file object such as electron-store's (or `conf`'s, which it extends): the
 * logic of `electron-settings.ts` without the electron import, so tests run it on plain Node.
 */
import { isDeepStrictEqual } from 'node:util'
import {
  parseSettings,
  settingPatchSchema,
  type SettingPatch,
  type Settings,
} from '../../../shared/schemas/settings.ts'
import { mergeSettingPatch } from '../../../shared/schemas/settings.ts'
import type { SettingsStore } from '../../services/settings-store.ts'
import { describeIssues } from '../../services/dispatch.ts'

/** What the store needs of electron-store (a `conf` instance has the same shape, which tests use). */
export interface JsonFileBacking {
  /** The whole file: reading re-reads it, assigning writes it atomically. */
  store: Record<string, unknown>
  onDidAnyChange(callback: (value?: Record<string, unknown>) => void): () => void
}

export interface ElectronSettingsStore extends SettingsStore {
  /** What was wrong with the file when it was opened (each bad key fell back to its default). */
  readonly problems: string[]
  /** Stops watching the file and drops the listeners. */
  dispose(): void
}

/**
 * The `SettingsStore` over any JSON file backing. On open the file is normalised by `parseSettings` and
 * written back if that changed it; `set` validates the patch, merges it into what is on disk now and writes.
 * Listeners hear every change, whether made here or by another process writing the file.
 */
export function createSettingsStoreOver(backing: JsonFileBacking): ElectronSettingsStore {
  const problems: string[] = []
  let current = open(backing, problems)
  const listeners = new Set<(settings: Settings) => void>()

  const notify = (next: Settings) => {
    for (const listener of listeners) {
      try {
        listener(next)
      } catch {
        // One broken listener must not fail a write nor starve the others.
      }
    }
  }

  // Fires for our own writes too (electron-store dispatches synchronously); `current` is already equal then.
  const unwatch = backing.onDidAnyChange((value) => {
    const next = parseSettings(value ?? {}).settings
    if (isDeepStrictEqual(next, current)) return
    current = next
    notify(next)
  })

  return {
    problems,
    get: () => current,
    async set(patch: SettingPatch): Promise<Settings> {
      const checked = settingPatchSchema.safeParse(patch)
      if (!checked.success) throw new Error(`invalid setting: ${describeIssues(checked.error)}`)
      const next = mergeSettingPatch(parseSettings(backing.store).settings, checked.data)
      const previous = current
      current = next
      try {
        backing.store = next
      } catch (error) {
        current = previous
        throw error
      }
      notify(next)
      return next
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    dispose() {
      unwatch()
      listeners.clear()
    },
  }
}

/** Reads and normalises the file, writing the normalised form back when it differs. Never throws. */
function open(backing: JsonFileBacking, problems: string[]): Settings {
  let raw: unknown = {}
  try {
    raw = backing.store
  } catch (error) {
    problems.push(`cannot read settings.json: ${messageOf(error)}; using the defaults`)
    return parseSettings({}).settings
  }
  const parsed = parseSettings(raw)
  problems.push(...parsed.problems)
  // electron-store hands out a null-prototype object; compare contents, not prototypes.
  if (!isDeepStrictEqual({ ...(raw as object) }, parsed.settings)) {
    try {
      backing.store = parsed.settings
    } catch (error) {
      problems.push(`cannot write settings.json: ${messageOf(error)}`)
    }
  }
  return parsed.settings
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error)
