/**
 * Navi's Claude Code hooks as the faces use them: `navi hooks install|uninstall|status`, the Settings
 * view's "Install hooks" button and `navi doctor`; a running Navi keeps the installed handler current.
 */
import type { CommandResult } from '../../shared/ipc-contract.ts'
import { installHooks, type HooksInstallOptions } from '../engine/adapters/hooks-install.ts'
export {
  CODEX_TRUST_HINT,
  codexHooksStatus,
  installCodexHooks,
  uninstallCodexHooks,
} from '../engine/adapters/codex-hooks-install.ts'
import type { EnginePaths } from '../engine/core/paths.ts'

export {
  hooksStatus,
  installHooks,
  refreshInstalledHandler,
  uninstallHooks,
} from '../engine/adapters/hooks-install.ts'

/** `navi hooks install` as a command result: what was written, or why not. */
export async function installHooksCommand(
  paths: EnginePaths,
  opts: HooksInstallOptions = {},
): Promise<CommandResult> {
  try {
    const result = await installHooks(paths, opts)
    const backup = result.backupPath ? ` (backup: ${result.backupPath})` : ''
    return {
      done: true,
      message: result.changed
        ? `Navi hooks installed in ${result.settingsPath}${backup}`
        : `Navi hooks were already installed in ${result.settingsPath}`,
    }
  } catch (error) {
    return { done: false, message: error instanceof Error ? error.message : String(error) }
  }
}
