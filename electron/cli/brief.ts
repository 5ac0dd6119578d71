/** `navi brief` (one PM run now) and the PM half of `navi watch`'s printing. */
import { createNaviRuntime, type EnginePaths, type Pm } from '../runtime/index.ts'
import { formatBriefing } from './format-briefing.ts'
import { printErr, printJson, printOut, type Print } from './output.ts'

/**
 * Exit code 0 with a fresh briefing; 1 when the run failed (a cached briefing is still printed, marked
 * stale) or `claude` is missing, so scripts can tell.
 */
export async function briefCommand(paths: EnginePaths, print: Print): Promise<number> {
  const runtime = await createNaviRuntime({ paths, mode: 'once', pm: true })
  try {
    await runtime.start()
    const pm = runtime.pm as Pm
    pm.onStatus((status) => {
      if (process.stderr.isTTY) process.stderr.write(`\rPM: ${status.phase.replace('_', ' ')}…   `)
    })
    const state = await pm.runNow()
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K')
    print(state, formatBriefing(state, Date.now()))
    return state.briefing && !state.is_stale && !state.claude_missing ? 0 : 1
  } finally {
    await runtime.stop()
  }
}

/** Prints each PM status and briefing of `navi watch` (a `{"kind":"briefing"}` line with --json). */
export function printPmForWatch(pm: Pm, json: boolean): void {
  pm.onStatus((status) => {
    if (json) printJson({ kind: 'pm_status', ...status }, 0)
    else if (status.phase === 'starting') printErr(`PM: updating (${status.trigger})…`)
  })
  pm.onBriefing((state) => {
    if (json) printJson({ kind: 'briefing', ...state }, 0)
    else printOut(`\n${formatBriefing(state, Date.now())}\n`)
  })
}
