/**
 * CPU of the engine while one agent writes: 500 transcripts on disk, one line appended to one of them
 * every 100 ms for `--seconds` (default 20), with the engine watching (`start()`). Before watcher hints,
 * every append meant stat-ing all 500 files; now it reads the one file the watcher named.
 *
 * `node bin/run-ts.mjs bench/active-session.ts [--quick] [--sessions N] [--seconds S]`
 * Writes bench/results/active-session.json.
 */
import { appendFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEngine } from '../electron/engine/index.ts'
import { appendedPromptLine, ensureCorpus } from './lib/corpus.ts'
import {
  hasFlag,
  isMain,
  numberOption,
  printTable,
  round,
  sleep,
  writeResult,
} from './lib/report.ts'

export interface ActiveSessionOptions {
  sessions: number
  seconds: number
}

export async function benchActiveSession(opts: ActiveSessionOptions) {
  const root = await mkdtemp(join(tmpdir(), 'navi-bench-active-'))
  try {
    const corpus = await ensureCorpus({
      root,
      totalBytes: opts.sessions * 20_000,
      sessions: opts.sessions,
      projects: 40,
    })
    const paths = {
      naviHome: join(root, 'navi'),
      claudeConfigDir: corpus.claudeConfigDir,
      codexHome: join(root, 'codex'),
    }
    const engine = createEngine({ paths })
    let cycles = 0
    engine.subscribe(() => cycles++)
    await engine.start()
    await sleep(1000)
    const target = corpus.files[0]
    if (!target) throw new Error('empty corpus')
    cycles = 0
    const cpuBefore = process.cpuUsage()
    const started = performance.now()
    let appends = 0
    while (performance.now() - started < opts.seconds * 1000) {
      await appendFile(target.path, appendedPromptLine(target.sessionId, target.cwd, new Date()))
      appends++
      await sleep(100)
    }
    const wallMs = performance.now() - started
    const cpu = process.cpuUsage(cpuBefore)
    const cpuMs = (cpu.user + cpu.system) / 1000
    await engine.stop()
    const result = {
      sessions: opts.sessions,
      seconds: round(wallMs / 1000, 1),
      appends,
      cycles,
      cpu_ms: round(cpuMs, 0),
      cpu_percent_of_one_core: round((cpuMs / wallMs) * 100, 1),
      cpu_ms_per_cycle: cycles > 0 ? round(cpuMs / cycles, 1) : null,
    }
    printTable(
      'Engine CPU while one agent writes (one line every 100 ms)',
      ['transcripts', 'seconds', 'appends', 'cycles', 'CPU ms', 'CPU % of a core', 'CPU ms/cycle'],
      [
        [
          result.sessions,
          result.seconds,
          appends,
          cycles,
          result.cpu_ms,
          result.cpu_percent_of_one_core,
          result.cpu_ms_per_cycle ?? '-',
        ],
      ],
    )
    await writeResult('active-session', result)
    return result
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2)
  const quick = hasFlag(args, '--quick')
  await benchActiveSession({
    sessions: numberOption(args, '--sessions', 500),
    seconds: numberOption(args, '--seconds', quick ? 8 : 20),
  })
}
