/**
 * `navi hooks install codex`: Navi's handler in `$CODEX_HOME/hooks.json` (core/hooks-settings.ts
 * `addNaviCodexHooks`), so a Codex permission request can be held and answered from Navi like Claude
 * Code's. Codex runs a hook only once the user trusted it (its `/hooks` review; an untrusted hook is
 * skipped without a word), so the result says so. The file is rewritten atomically; another hook, and
 * any other key, stays.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { addNaviCodexHooks, buildNaviHookCommand } from '../core/hooks-settings.ts'
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
  let raw: string | null = null
  try {
    raw = await readFile(hooksPath, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
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
