/** `navi usage`, `navi memory …` and `navi dismiss`: the PM's costs, its memory versions, its items. */
import type { EnginePaths } from '../runtime/index.ts'
import { dismissItem } from '../runtime/pm-attention.ts'
import { parseDuration } from '../../shared/duration.ts'
import { inertLine } from '../../shared/text.ts'
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

/**
 * `navi dismiss PROJECT "TITLE" [--snooze 1h]`: hides an attention item or a suggestion, as the popover's
 * ✕ does (for as long as it is listed, or until the snooze ends); it stays hidden across restarts.
 */
export async function dismissCommand(
  paths: EnginePaths,
  args: string[],
  snooze: string | undefined,
  print: Print,
): Promise<number> {
  const [project, ...words] = args
  const title = words.join(' ').trim()
  const snoozeMs = snooze === undefined ? null : parseDuration(snooze)
  if (!project || title === '' || (snooze !== undefined && snoozeMs === null)) {
    printErr('usage: navi dismiss PROJECT "TITLE" [--snooze 1h]')
    return 2
  }
  const until = snoozeMs === null ? null : new Date(Date.now() + snoozeMs).toISOString()
  await dismissItem(paths, { project, title }, until)
  const result = { done: true, message: until ? `snoozed until ${until}` : 'dismissed' }
  print(result, `${result.message}: ${inertLine(project)}: ${inertLine(title)}`)
  return 0
}
