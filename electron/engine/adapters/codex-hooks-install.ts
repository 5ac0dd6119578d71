/**
 * `navi hooks install codex`: Navi's handler in `$CODEX_HOME/hooks.json` (core/hooks-settings.ts
 * `addNaviCodexHooks`), so a Codex permission request can be held and answered from Navi like Claude
 * Code's. Codex runs a hook only once the user trusted it (its `/hooks` review; an untrusted hook is
 * skipped without a word), so the result says so. The file is rewritten atomically; another hook, and
 * any other key, stays.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  codexTrustedEvents,
  naviCodexHooksStatus,
  type CodexHooksStatus,
  type NaviCodexHookEvent,
} from '../core/codex-hook-status.ts'
import {
  addNaviCodexHooks,
  buildNaviHookCommand,
  countNaviEntries,
  removeNaviHooks,
  shellQuote,
} from '../core/hooks-settings.ts'
import { naviFiles, type EnginePaths } from '../core/paths.ts'
import { installHooksHandler } from './hooks-install.ts'
import { writeFileSafely } from './safe-write.ts'

export interface CodexHooksInstallResult {
  changed: boolean
  hooksPath: string
  /** What the user still has to do for Codex to run it. */
  trust: string
}

export const CODEX_TRUST_HINT =
  "Codex runs it once you trust it: start codex, type /hooks, and trust Navi's hook (navi-hook)."

export async function installCodexHooks(paths: EnginePaths): Promise<CodexHooksInstallResult> {
  const hooksPath = join(paths.codexHome, 'hooks.json')
  const raw = await readOptional(hooksPath)
  let current: unknown = undefined
  if (raw !== null && raw.trim() !== '') {
    try {
      current = JSON.parse(raw)
    } catch (error) {
      throw new Error(`${hooksPath} is not JSON (${String(error)}); Navi leaves it alone`)
    }
  }
  await installHooksHandler(paths)
  const command = buildNaviHookCommand({
    handlerPath: naviFiles(paths).hookHandler,
    naviHome: paths.naviHome,
  })
  const next = `${JSON.stringify(addNaviCodexHooks(current, command), null, 2)}\n`
  if (next === raw) return { changed: false, hooksPath, trust: CODEX_TRUST_HINT }
  await writeFileSafely(hooksPath, next)
  return { changed: true, hooksPath, trust: CODEX_TRUST_HINT }
}

export interface CodexHooksState extends CodexHooksStatus {
  hooksPath: string
  /** Every Codex event Navi listens to has Navi's entry. */
  installed: boolean
  /** Another handler or shape than this Navi's (an older Navi's, or another NAVI_HOME's). */
  outdated: boolean
  /** Installed events Codex recorded a trust for in config.toml, and those it did not. */
  trusted: NaviCodexHookEvent[]
  untrusted: NaviCodexHookEvent[]
  /** hooks.json or config.toml could not be read or parsed. */
  error?: string
}

/** Navi's hook in `$CODEX_HOME/hooks.json` and Codex's trust of it (`navi doctor`, `navi hooks status codex`). */
export async function codexHooksStatus(paths: EnginePaths): Promise<CodexHooksState> {
  const hooksPath = join(paths.codexHome, 'hooks.json')
  const errors: string[] = []
  const hooksFile = await readOptional(hooksPath).then(
    (raw) => (raw === null || raw.trim() === '' ? {} : (JSON.parse(raw) as unknown)),
    (error: unknown) => {
      errors.push(`${hooksPath}: ${error instanceof Error ? error.message : String(error)}`)
      return {}
    },
  )
  const status = naviCodexHooksStatus(hooksFile, hooksPath)
  const configPath = join(paths.codexHome, 'config.toml')
  const config = await readOptional(configPath).then(
    async (raw) => (raw === null ? {} : (await import('smol-toml')).parse(raw)),
    (error: unknown) => {
      errors.push(`${configPath}: ${error instanceof Error ? error.message : String(error)}`)
      return {}
    },
  )
  const quotedHandler = shellQuote(naviFiles(paths).hookHandler)
  return {
    ...status,
    ...codexTrustedEvents(config, status.trustKeys),
    hooksPath,
    installed: status.missingEvents.length === 0,
    outdated:
      status.commands.length > 1 ||
      status.commands.some((cmd) => !cmd.includes(quotedHandler)) ||
      status.staleEvents.length > 0,
    ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
  }
}

/** `navi hooks uninstall codex`: Navi's entries out of hooks.json; every other hook and key stays. */
export async function uninstallCodexHooks(
  paths: EnginePaths,
): Promise<{ removed: number; hooksPath: string }> {
  const hooksPath = join(paths.codexHome, 'hooks.json')
  const raw = await readOptional(hooksPath)
  if (raw === null || raw.trim() === '') return { removed: 0, hooksPath }
  let current: unknown
  try {
    current = JSON.parse(raw)
  } catch (error) {
    throw new Error(`${hooksPath} is not JSON (${String(error)}); Navi leaves it alone`)
  }
  const removed = countNaviEntries(current)
  if (removed > 0) {
    await writeFileSafely(hooksPath, `${JSON.stringify(removeNaviHooks(current), null, 2)}\n`)
  }
  return { removed, hooksPath }
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}
