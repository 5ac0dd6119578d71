/**
 * `navi hooks install|uninstall|status`: puts Navi's hook handler into Claude Code's user settings
 * (`$CLAUDE_CONFIG_DIR/settings.json`) and takes it out again. The edits themselves are pure
 * (`core/hooks-settings.ts`); this module owns the files.
 *
 * Preserving the user's file:
 * - Only Navi's entries change: the edits are text edits (`core/hooks-settings-text.ts`), so every other
 *   byte (numbers as written, key order, indentation, CRLF, BOM) stays. The result is written atomically
 *   to the file a symlink points at. A file that is not JSON, a link to nothing, a read-only file and
 *   anything but a regular file are refused and never touched.
 * - Before any change to an existing file, its bytes are copied to
 *   `settings.json.navi-backup-<timestamp>`.
 * - Uninstall restores a backup byte for byte when the backup parses to exactly what the removal
 *   produced (same keys, same order): nothing else changed since install, so the user's own
 *   formatting comes back even where re-serializing would differ. Otherwise the removal is written.
 * - The handler copy in `$NAVI_HOME/bin/` is left on uninstall: sessions that started with the
 *   hooks keep calling it until they end, and a missing file would show them hook errors.
 */
import { existsSync } from 'node:fs'
import { mkdir, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  buildNaviHookCommand,
  countNaviEntries,
  HooksSettingsShapeError,
  naviHooksStatus,
  removeNaviHooks,
  shellQuote,
} from '../core/hooks-settings.ts'
import { addNaviHooksToText, removeNaviHooksFromText } from '../core/hooks-settings-text.ts'
import { naviFiles, type EnginePaths } from '../core/paths.ts'
import { readRegularFile, SMALL_FILE_MAX_BYTES } from './safe-read.ts'
import {
  commitSettings,
  findMatchingBackup,
  HooksSettingsError,
  readSettings,
  sameJson,
} from './claude-settings-file.ts'
import { writeFileSafely } from './safe-write.ts'

export { HooksSettingsError }

export interface HooksInstallOptions {
  /** The handler to copy. Default: `resources/hooks/navi-hook.sh` of this checkout. */
  handlerSource?: string
  /** @default () => new Date() */
  now?: () => Date
}

export interface HooksInstallResult {
  /** Whether settings.json was written. */
  changed: boolean
  settingsPath: string
  handlerPath: string
  /** Copy of the settings taken before the change, when the file existed. */
  backupPath: string | null
}

export interface HooksUninstallResult extends HooksInstallResult {
  /** Navi hook entries taken out (0: none were installed). */
  removed: number
  /** The backup the file was restored from byte for byte, rather than re-serialized. */
  restoredFrom: string | null
}

export interface HooksStatus {
  /** Every event Navi needs has a Navi entry. */
  installed: boolean
  events: string[]
  missing: string[]
  /** Navi entries point at another handler than this NAVI_HOME's, or at several. */
  outdated: boolean
  commands: string[]
  handlerPath: string
  settingsPath: string
  handlerPresent: boolean
  inboxPath: string
  inboxLastWrite?: string
  /** Why settings.json could not be read, when it could not. */
  settingsError?: string
}

/**
 * The handler shipped with this Navi, wherever this code runs from: the sources
 * (`electron/engine/adapters/`), the CLI bundle (`out/cli/`), the Electron main bundle (`out/main/`) or a
 * packaged app (`<resources>/hooks/`, electron-builder's extraResources). Never the working directory: a
 * command run from elsewhere must find the same file.
 */
function defaultHandlerSource(): string {
  const here = dirname(fileURLToPath(import.meta.url))
  const candidates: string[] = []
  for (let dir = here, up = 0; up < 6; up++, dir = dirname(dir)) {
    candidates.push(join(dir, 'resources', 'hooks', HANDLER_NAME))
  }
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath
  if (resourcesPath) candidates.push(join(resourcesPath, 'hooks', HANDLER_NAME))
  const found = candidates.find((path) => existsSync(path))
  if (!found) {
    throw new HooksSettingsError(
      `Navi's hook handler (resources/hooks/${HANDLER_NAME}) was not found near ${here}; reinstall Navi`,
    )
  }
  return found
}

const HANDLER_NAME = 'navi-hook.sh'

/** The shell runs the handler: no Node at hook time, so nothing depends on which node (if any) is found. */
function hookCommand(paths: EnginePaths): string {
  return buildNaviHookCommand({
    handlerPath: naviFiles(paths).hookHandler,
    naviHome: paths.naviHome,
  })
}

/** Writes `source` to `target` unless it holds the same bytes already; true when it wrote. */
async function copyHandler(source: string, target: string): Promise<boolean> {
  const content = await readRegularFile(source, { maxBytes: SMALL_FILE_MAX_BYTES })
  // A copy that cannot be read is written anew; the write reports any real trouble with it.
  const existing = await readRegularFile(target, { maxBytes: SMALL_FILE_MAX_BYTES }).catch(
    () => null,
  )
  if (existing && existing.equals(content)) return false
  await mkdir(dirname(target), { recursive: true })
  await writeFileSafely(target, content, { mode: 0o755 })
  return true
}

/**
 * Brings an installed handler copy up to this Navi's (a new Navi may ship a fixed handler, and the
 * settings keep pointing at the copy): rewritten when it differs, left alone when equal or when hooks
 * were never installed here (no copy: nothing is installed behind the user's back). True when rewritten.
 */
export async function refreshInstalledHandler(
  paths: EnginePaths,
  source: string = defaultHandlerSource(),
): Promise<boolean> {
  const target = naviFiles(paths).hookHandler
  if (!existsSync(target)) return false
  return copyHandler(source, target)
}

function toSettingsError(error: unknown, path: string): unknown {
  if (error instanceof HooksSettingsShapeError) {
    return new HooksSettingsError(`${path}: ${error.message}; Navi left it unchanged.`)
  }
  return error
}

/** Copies the handler to `$NAVI_HOME/bin/navi-hook.sh` (and makes the hooks folder) for any CLI's hooks. */
export async function installHooksHandler(
  paths: EnginePaths,
  handlerSource = defaultHandlerSource(),
): Promise<void> {
  const files = naviFiles(paths)
  await copyHandler(handlerSource, files.hookHandler)
  await mkdir(files.hooksDir, { recursive: true })
}

/**
 * Copies the handler to `$NAVI_HOME/bin/navi-hook.sh` and adds Navi's hooks to settings.json.
 * Idempotent: a second install writes nothing.
 * @throws HooksSettingsError when settings.json is not JSON or has a shape Navi will not edit.
 */
export async function installHooks(
  paths: EnginePaths,
  opts: HooksInstallOptions = {},
): Promise<HooksInstallResult> {
  const files = naviFiles(paths)
  const settingsPath = files.claudeSettings
  const before = await readSettings(settingsPath)
  let content: string
  try {
    content = addNaviHooksToText(before.raw, hookCommand(paths))
  } catch (error) {
    throw toSettingsError(error, settingsPath)
  }
  await installHooksHandler(paths, opts.handlerSource ?? defaultHandlerSource())
  const result = { changed: false, settingsPath, handlerPath: files.hookHandler }
  if (before.exists && content === before.raw) return { ...result, backupPath: null }
  const now = (opts.now ?? (() => new Date()))()
  const backupPath = await commitSettings(settingsPath, before, content, now)
  return { ...result, changed: true, backupPath }
}

/**
 * Removes exactly Navi's entries from settings.json (see the module comment for the backup rule).
 * @throws HooksSettingsError when settings.json is not JSON or has a shape Navi will not edit.
 */
export async function uninstallHooks(
  paths: EnginePaths,
  opts: Pick<HooksInstallOptions, 'now'> = {},
): Promise<HooksUninstallResult> {
  const files = naviFiles(paths)
  const settingsPath = files.claudeSettings
  const before = await readSettings(settingsPath)
  const result = { settingsPath, handlerPath: files.hookHandler }
  let next: unknown
  try {
    next = removeNaviHooks(before.value)
  } catch (error) {
    throw toSettingsError(error, settingsPath)
  }
  if (!before.exists || sameJson(next, before.value)) {
    return { ...result, changed: false, backupPath: null, removed: 0, restoredFrom: null }
  }
  const removed = countNaviEntries(before.value)
  const backup = await findMatchingBackup(settingsPath, next)
  let content: string
  try {
    content = backup?.raw ?? removeNaviHooksFromText(before.raw)
  } catch (error) {
    throw toSettingsError(error, settingsPath)
  }
  const now = (opts.now ?? (() => new Date()))()
  const backupPath = await commitSettings(settingsPath, before, content, now)
  return { ...result, changed: true, backupPath, removed, restoredFrom: backup?.path ?? null }
}

/** What is installed, for `navi hooks status` and `navi doctor`. Never throws on a bad file. */
export async function hooksStatus(paths: EnginePaths): Promise<HooksStatus> {
  const files = naviFiles(paths)
  let settings: unknown = {}
  let settingsError: string | undefined
  try {
    settings = (await readSettings(files.claudeSettings)).value
  } catch (error) {
    settingsError = error instanceof Error ? error.message : String(error)
  }
  const status = naviHooksStatus(settings)
  const handlerPresent = existsSync(files.hookHandler)
  const inboxMtime = await stat(files.hookInbox).then(
    (s) => s.mtime,
    () => null,
  )
  const quotedHandler = shellQuote(files.hookHandler)
  const outdated =
    status.commands.length > 1 ||
    status.commands.some((cmd) => !cmd.includes(quotedHandler)) ||
    status.staleEvents.length > 0
  return {
    installed: status.missingEvents.length === 0,
    events: status.installedEvents,
    missing: status.missingEvents,
    outdated,
    commands: status.commands,
    handlerPath: files.hookHandler,
    settingsPath: files.claudeSettings,
    handlerPresent,
    inboxPath: files.hookInbox,
    ...(inboxMtime ? { inboxLastWrite: inboxMtime.toISOString() } : {}),
    ...(settingsError ? { settingsError } : {}),
  }
}
