/** `navi hooks status codex` and `navi hooks uninstall codex`. */
import { CODEX_TRUST_HINT, codexHooksStatus, uninstallCodexHooks } from '../runtime/hooks.ts'
import type { EnginePaths } from '../runtime/index.ts'
import type { Print } from './output.ts'

export async function codexHooksCommand(
  paths: EnginePaths,
  sub: 'status' | 'uninstall',
  print: Print,
): Promise<number> {
  if (sub === 'uninstall') {
    const result = await uninstallCodexHooks(paths)
    print(
      result,
      result.removed > 0
        ? `Removed Navi's hook from ${result.hooksPath}`
        : `Navi's hook was not in ${result.hooksPath}.`,
    )
    return 0
  }
  const status = await codexHooksStatus(paths)
  const lines =
    status.installedEvents.length === 0
      ? [`not installed in ${status.hooksPath}. Run: navi hooks install codex`]
      : [
          `installed: ${status.installedEvents.join(', ')} in ${status.hooksPath}`,
          ...(status.missingEvents.length > 0
            ? [`missing: ${status.missingEvents.join(', ')}. Run: navi hooks install codex`]
            : []),
          ...(status.outdated
            ? ["OUTDATED: another Navi's handler. Run: navi hooks install codex"]
            : []),
          status.untrusted.length > 0
            ? `not trusted by Codex yet (${status.untrusted.join(', ')}). ${CODEX_TRUST_HINT}`
            : "trusted: Codex's config.toml records it",
        ]
  if (status.error) lines.push(`cannot read: ${status.error}`)
  print(status, lines.join('\n'))
  return 0
}
