/**
 * Reading `$NAVI_HOME/settings.json` (the app's Settings) for the engine and the CLI. Only reads; the
 * writer is `electron/runtime/settings-store.ts`. A bad file never breaks anything: the defaults apply
 * and the problems are reported.
 */
import { lstatSync } from 'node:fs'
import { parseSettings, type Settings } from '../../../shared/schemas/settings.ts'
import type { ConfigError } from '../core/config.ts'
import { naviFiles, type EnginePaths } from '../core/paths.ts'
import { pickOverrides, type SettingsOverrides } from '../core/settings-overlay.ts'
import { readRegularText, SMALL_FILE_MAX_BYTES } from './safe-read.ts'
import { errorText as messageOf } from '../../../shared/log.ts'

export interface LoadedSettings {
  settings: Settings
  /** Why (parts of) the file were ignored, each naming settings.json. */
  errors: ConfigError[]
  /** False when there is no settings.json: the defaults apply and that is not an error. */
  exists: boolean
  /** The file is there but could not be read or is not JSON at all (`settings` are then the defaults). */
  unreadable: boolean
}

/** The whole settings file, normalized by `parseSettings` (a bad key falls back to its default alone). */
export async function readSettingsFile(paths: EnginePaths): Promise<LoadedSettings> {
  const file = naviFiles(paths).settings
  let text: string
  try {
    text = await readRegularText(file, { maxBytes: SMALL_FILE_MAX_BYTES })
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const exists = code !== 'ENOENT'
    const errors = exists ? [settingsError(file, `cannot read the file: ${messageOf(err)}`)] : []
    return { settings: parseSettings({}).settings, errors, exists, unreadable: exists }
  }
  if (text.trim() === '') {
    return { settings: parseSettings({}).settings, errors: [], exists: true, unreadable: false }
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    return {
      settings: parseSettings({}).settings,
      errors: [settingsError(file, `invalid JSON: ${messageOf(err)}`)],
      exists: true,
      unreadable: true,
    }
  }
  const { settings, problems } = parseSettings(raw)
  return {
    settings,
    errors: problems.map((p) => settingsError(file, p)),
    exists: true,
    unreadable: false,
  }
}

/** The override keys (poll_interval, batch_window, model, claude_path) set in settings.json. */
export async function readSettingsOverrides(
  paths: EnginePaths,
): Promise<{ overrides: SettingsOverrides; errors: ConfigError[] }> {
  // Without the app there is no settings.json, and its defaults override nothing: every command would
  // build the settings schema only to learn that (a millisecond of each). Anything there at all (a link
  // that loops or leads nowhere included) is read as before, and reported as before.
  if (nothingAt(naviFiles(paths).settings)) return { overrides: {}, errors: [] }
  const { settings, errors } = await readSettingsFile(paths)
  return { overrides: pickOverrides(settings), errors }
}

function settingsError(file: string, message: string): ConfigError {
  return { file, line: 0, message }
}

/** True when there is no entry at `path` at all; anything else (an error included) says to look. */
function nothingAt(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) === undefined
  } catch {
    // Not answerable here (a folder in the way that cannot be read): the reader says what it is.
    return false
  }
}
