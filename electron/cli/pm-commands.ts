/** `navi usage` and `navi memory …`: the PM's costs and its memory versions. */
import type { EnginePaths } from '../runtime/index.ts'
import {
  listMemoryVersions,
  readUsage,
  restoreMemory,
  type UsageTotals,
} from '../runtime/pm-records.ts'
import { printErr, type Print } from './output.ts'

export async function usageCommand(paths: EnginePaths, print: Print): Promise<number> {
  const report = await readUsage(paths)
  const row = (label: string, t: UsageTotals) =>
    `${label.padEnd(8)} ${String(t.runs).padStart(4)} runs${t.failed ? ` (${t.failed} failed)` : ''}  ` +
    `${t.input_tokens} in / ${t.output_tokens} out tokens  $${t.cost_usd.toFixed(4)}  ` +
    `${(t.duration_ms / 1000).toFixed(1)} s`
  const note = report.corrupt ? `\n(${report.corrupt} unreadable line(s) skipped)` : ''
  print(report, `${row('today', report.today)}\n${row('7 days', report.week)}${note}`)
  return 0
}

/**
 * `navi memory list` shows the versions; `navi memory restore [ID]` restores one. Without an id it
 * rolls back the last run: the newest snapshot taken before a run.
 */
export async function memoryCommand(
  paths: EnginePaths,
  sub: string | undefined,
  id: string | undefined,
  print: Print,
): Promise<number> {
  const versions = await listMemoryVersions(paths)
  if (sub === 'list' || sub === undefined) {
    const human = versions.length
      ? versions.map((v) => `${v.id}  ${v.reason}`).join('\n')
      : 'No memory versions yet: one is taken before each PM run.'
    print({ versions }, human)
    return 0
  }
  if (sub !== 'restore') {
    printErr('usage: navi memory list | navi memory restore [VERSION]')
    return 2
  }
  const target = id ?? [...versions].reverse().find((v) => v.reason === 'pre-run')?.id
  if (!target) {
    printErr('navi: no memory version to restore yet (one is taken before each PM run)')
    return 1
  }
  const result = await restoreMemory(paths, { version: target })
  print(
    { restored: result.restored, undo: result.undo },
    `Restored PM memory from ${result.restored.id}.` +
      (result.undo ? `\nUndo with: navi memory restore ${result.undo.id}` : ''),
  )
  return 0
}
