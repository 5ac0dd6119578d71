/**
 * The PM's attention items outside the PM view (`navi status` ends with them): read from the cached
 * briefing the last PM run left, without starting the PM.
 */
import { readCachedBriefing } from '../pm/run-state-files.ts'
import { naviFiles, type EnginePaths } from '../engine/core/paths.ts'

/** How many attention items the latest briefing holds; 0 when there is none yet. */
export async function pmAttentionCount(paths: EnginePaths): Promise<number> {
  const cached = await readCachedBriefing(naviFiles(paths).lastOutput)
  return cached?.output.attention_items.length ?? 0
}
