/** `navi brief` (one PM run now) and the PM half of `navi watch`'s printing. */
import type { EnginePaths, Pm } from '../runtime/index.ts'
import { createCliRuntime } from './cli-runtime.ts'
import { formatAnswer, formatBriefing } from './format-briefing.ts'
import { printErr, printJson, printOut, printProgress, type Print } from './output.ts'

/**
 * Exit code 0 with a fresh briefing; 1 when the run failed (a cached briefing is still printed, marked
 * stale) or `claude` is missing, so scripts can tell.
 */
export async function briefCommand(paths: EnginePaths, print: Print): Promise<number> {
  const runtime = await createCliRuntime({ paths, mode: 'once', pm: true })
  try {
    await runtime.start()
    const pm = runtime.pm as Pm
    pm.onStatus((status) => {
      if (process.stderr.isTTY) printProgress(`\rPM: ${status.phase.replace('_', ' ')}…   `)
    })
    const state = await pm.runNow()
    if (process.stderr.isTTY) printProgress('\r\x1b[K')
    print(state, formatBriefing(state, Date.now()))
    return state.briefing && !state.is_stale && !state.claude_missing ? 0 : 1
  } finally {
    await runtime.stop()
  }
}

/**
 * `navi ask "…"`: the PM answers one question (pm/ask.ts); exit 1 when it could not (claude missing, the
 * API failing, no valid answer), with the reason on stderr.
 */
export async function askCommand(
  paths: EnginePaths,
  question: string,
  json: boolean,
  print: Print,
): Promise<number> {
  const runtime = await createCliRuntime({ paths, mode: 'once', pm: true })
  try {
    await runtime.start()
    if (process.stderr.isTTY) printProgress('PM: thinking…')
    const result = await (runtime.pm as Pm).ask(question)
    if (process.stderr.isTTY) printProgress('\r\x1b[K')
    if (!result.answer) {
      // The JSON still says why; the text says it on stderr, where a failure belongs.
      printErr(`navi: the PM could not answer: ${result.error ?? 'no answer'}`)
      if (json) printJson(result)
      return 1
    }
    print(result, formatAnswer(result.answer))
    return 0
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
