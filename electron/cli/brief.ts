/** `navi brief` (one PM run now) and the PM half of `navi watch`. */
import { loadConfig } from '../engine/adapters/config-file.ts'
import type { EnginePaths } from '../engine/core/paths.ts'
import { createEngine, type Engine } from '../engine/index.ts'
import { createPm, type Pm } from '../pm/index.ts'
import { formatBriefing } from './format-briefing.ts'
import { printErr, printJson, printOut, type Print } from './output.ts'

/**
 * Exit code 0 with a fresh briefing; 1 when the run failed (a cached briefing is still printed, marked
 * stale) or `claude` is missing, so scripts can tell.
 */
export async function briefCommand(paths: EnginePaths, print: Print): Promise<number> {
  const { config } = await loadConfig(paths)
  const engine = createEngine({ paths, watch: false })
  await engine.refresh()
  const pm = createPm({ paths, engine, settings: config.pm })
  pm.onStatus((status) => {
    if (process.stderr.isTTY) process.stderr.write(`\rPM: ${status.phase.replace('_', ' ')}…   `)
  })
  const state = await pm.runNow()
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K')
  await engine.stop()
  print(state, formatBriefing(state, Date.now()))
  return state.briefing && !state.is_stale && !state.claude_missing ? 0 : 1
}

/** Runs the PM beside a watching engine; each briefing is printed (a `{"kind":"briefing"}` line with --json). */
export async function startPmForWatch(
  paths: EnginePaths,
  engine: Engine,
  json: boolean,
): Promise<Pm> {
  const { config } = await loadConfig(paths)
  const pm = createPm({
    paths,
    engine,
    settings: config.pm,
    reloadSettings: async () => (await loadConfig(paths)).config.pm,
  })
  pm.onStatus((status) => {
    if (json) printJson({ kind: 'pm_status', ...status }, 0)
    else if (status.phase === 'starting') printErr(`PM: updating (${status.trigger})…`)
  })
  pm.onBriefing((state) => {
    if (json) printJson({ kind: 'briefing', ...state }, 0)
    else printOut(`\n${formatBriefing(state, Date.now())}\n`)
  })
  await pm.start()
  return pm
}
