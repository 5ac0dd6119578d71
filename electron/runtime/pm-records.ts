/** What the PM keeps on disk, for `navi usage` and `navi memory`: its costs and its memory versions. */
import { naviFiles, type EnginePaths } from '../engine/core/paths.ts'
import {
  isMissingFileError,
  PM_FILE_MAX_BYTES,
  readRegularText,
} from '../engine/adapters/safe-read.ts'
import { summarizeUsage, type UsageReport } from '../pm/core/usage.ts'

export { listMemoryVersions, restoreMemory } from '../pm/memory-versions.ts'
export type { UsageReport, UsageTotals } from '../pm/core/usage.ts'

/**
 * The PM's runs, tokens, cost and time today and over 7 days, from `usage.jsonl` (no file yet: zeros).
 * @throws when the file is there but cannot be read (the caller says so; it is never shown as zero).
 */
export async function readUsage(paths: EnginePaths, now = new Date()): Promise<UsageReport> {
  const text = await readRegularText(naviFiles(paths).usageLog, {
    maxBytes: PM_FILE_MAX_BYTES,
  }).catch((error: unknown) => {
    if (isMissingFileError(error)) return ''
    throw error
  })
  return summarizeUsage(text, now)
}
