/**
 * The PM's attention items outside the PM view (`navi status` ends with them): read from the cached
 * briefing the last PM run left, without starting the PM.
 */
import { readCachedBriefing } from '../pm/run-state-files.ts'
import { visibleItems, withDismissal } from '../pm/core/dismissals.ts'
import { readDismissals, writeDismissals } from '../pm/dismissals-file.ts'
import { naviFiles, type EnginePaths } from '../engine/core/paths.ts'

/** How many attention items the latest briefing holds and the user did not dismiss; 0 before any. */
export async function pmAttentionCount(paths: EnginePaths): Promise<number> {
  const files = naviFiles(paths)
  const cached = await readCachedBriefing(files.lastOutput)
  if (!cached) return 0
  const dismissals = await readDismissals(files.dismissed)
  return visibleItems(cached.output.attention_items, dismissals, Date.now()).length
}

/**
 * Hides an attention item or a suggestion (its project and title) for as long as it is listed, or until
 * `until`; what a running PM shows next reads the same file.
 */
export async function dismissItem(
  paths: EnginePaths,
  item: { project: string; title: string },
  until: string | null,
): Promise<void> {
  const file = naviFiles(paths).dismissed
  await writeDismissals(file, withDismissal(await readDismissals(file), item, until))
}
