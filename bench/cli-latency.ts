/**
 * How long the `navi` commands a terminal user types all day take, from spawn to exit, against a bare
 * `node -e 0` measured in the same rounds (the machine's own floor): `--help`, and `status`, `sessions`
 * and `events` over the 1 GiB / 500-session corpus with a warm index and a day of events (2,000): with no
 * Navi running and nothing changed since the last command (each answers from the answers the last one
 * kept: electron/runtime/answer-cache/), with no Navi running and each computing its answer (what any
 * change costs, NAVI_NO_ANSWER_CACHE=1), and with `navi watch` running (each asks it through the query
 * socket). Each runs as a user runs `navi`: `bin/navi.cjs` (what `npm link` puts on PATH, with its check
 * that the bundle is fresh) over the bundle `npm run build:cli` writes (with the code cache the first
 * command wrote; one row without it, for reference), in rounds that alternate the commands so a noisy
 * moment hits all of them alike. `status` is also timed as users meet it beyond a quiet corpus: the first
 * command after a pause (the event log's prune due), and while an agent works (a 1 KiB prompt appended to
 * its session just before), computed and, as users have it, answered by the background runtime the first
 * computing command started (electron/cli/background.ts; every other row runs with NAVI_BACKGROUND=0).
 * What that runtime costs while nobody asks it anything is sampled after its rounds, in two windows of
 * `--idle-seconds` (60): the first holds the tail of the agent's writes, the second is idle. CPU of one
 * core (utime + stime from /proc, with its children), resident memory, and any process it spawned.
 *
 * `node bin/run-ts.mjs bench/cli-latency.ts [--quick] [--keep] [--runs N] [--idle-seconds S]`
 * --quick: 100 MiB / 100 sessions, 7 runs, 5 s idle. Writes bench/results/cli-latency.json.
 */
import { spawn } from 'node:child_process'
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createEventLog } from '../electron/engine/adapters/event-log.ts'
import { engineEventSchema, type EngineEvent } from '../shared/schemas/event.ts'
import { bundleNaviCli } from '../scripts/cli-bundle.ts'
import { appendedPromptLine, encodeCwd, ensureCorpus } from './lib/corpus.ts'
import { measuredEnv, measuredEnvNote } from './lib/measured-env.ts'
import { startNaviWatch, stopNaviWatch } from './lib/navi-watch.ts'
import {
  hasFlag,
  isMain,
  numberOption,
  percentile,
  printTable,
  round,
  writeResult,
} from './lib/report.ts'
import { sampleProcessCpu } from './lib/process-stats.ts'

const REPO = fileURLToPath(new URL('..', import.meta.url))
/** Where bin/navi.cjs finds the bundle (`npm run build:cli` writes the same). */
const CLI_DIR = join(REPO, 'out', 'cli')
const NAVI_BIN = join(REPO, 'bin', 'navi.cjs')
const WARMUP = 2
const EVENTS = 2000

/** Targets of issue 11, against bare node in the same run. */
const TARGET_MS = 150
const TARGET_X_NODE = 3
const HELP_TARGET_X_NODE = 2
/** A reference row: the code cache turned off (electron/cli/launcher.ts). */
const UNCACHED_NAME = 'no code cache (reference)'

/** Wall time of one process, spawn to exit; rejects when it fails. */
function timeRun(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`))
      else resolve(Number(process.hrtime.bigint() - started) / 1e6)
    })
  })
}

/** A day of commit events, so `navi events` has a real log to page. */
export function dayOfEvents(now: number): EngineEvent[] {
  const events: EngineEvent[] = []
  for (let i = 0; i < EVENTS; i++) {
    const event: EngineEvent = engineEventSchema.parse({
      id: `bench-${i}`,
      timestamp: new Date(now - (EVENTS - i) * 40_000).toISOString(),
      type: 'commit',
      project: `project-${i % 20}`,
      details: {
        sha: i.toString(16).padStart(40, '0'),
        message: `commit number ${i}`,
        branch: 'main',
      },
    })
    events.push(event)
  }
  return events
}

/** Runs `args` until it says its answers were kept for the next command (at most 40 runs). */
async function untilAnswersKept(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  for (let run = 0; run < 40; run++) {
    const stderr = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, args, {
        env: { ...env, NAVI_ANSWER_CACHE_TRACE: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      let text = ''
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()))
      child.on('error', reject)
      child.on('close', () => resolve(text))
    })
    if (stderr.includes('answers kept for the next command')) return
  }
  throw new Error(`navi ${args.slice(1).join(' ')}: its answers were never kept`)
}

interface Timed {
  name: string
  samples: number[]
}

/** `rounds` rounds of every command in turn; returns the samples of each. */
async function measureRounds(
  commands: {
    name: string
    args: string[]
    env?: NodeJS.ProcessEnv
    /** Done before and after each run of the command, outside its time. */
    before?: () => Promise<void>
    after?: () => Promise<void>
  }[],
  env: NodeJS.ProcessEnv,
  rounds: number,
): Promise<Timed[]> {
  const timed = commands.map((c) => ({ name: c.name, samples: [] as number[] }))
  for (let round = 0; round < WARMUP + rounds; round++) {
    for (const [i, command] of commands.entries()) {
      await command.before?.()
      const ms = await timeRun(command.args, command.env ?? env)
      await command.after?.()
      if (round >= WARMUP) timed[i]?.samples.push(ms)
    }
  }
  return timed
}

/** The background runtime's pid once it serves (it writes its pid file after opening the socket). */
async function backgroundPid(home: string): Promise<number> {
  const file = join(home, 'run', 'background.pid')
  for (let waited = 0; waited < 60_000; waited += 100) {
    const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim())
    if (pid > 0) return pid
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the background runtime never served')
}

interface IdleSample {
  seconds: number
  cpuMs: number
  cpuPercent: number
  rssMb: number | null
  /** The most processes below it seen at one poll (git, a shell…); 0 expected. */
  childProcesses: number
  /** CPU ms of each second sampled: a timer's cycle or a collection stands out. */
  perSecondCpuMs: number[]
}

/** CPU (its tree's utime + stime), resident memory and children of `pid`, polled each second. */
async function sampleIdle(pid: number, seconds: number): Promise<IdleSample> {
  const { wallMs, cpuMs, rssMb, maxChildProcesses, perSecondCpuMs } = await sampleProcessCpu(
    pid,
    seconds,
  )
  return {
    seconds: round(wallMs / 1000, 1),
    cpuMs: round(cpuMs, 0),
    cpuPercent: round((cpuMs / wallMs) * 100, 2),
    rssMb: rssMb === null ? null : round(rssMb, 0),
    childProcesses: maxChildProcesses,
    perSecondCpuMs,
  }
}

const idleRow = (window: string, sample: IdleSample) => [
  window,
  sample.cpuPercent,
  sample.cpuMs,
  sample.rssMb ?? '-',
  sample.childProcesses,
]

/** SIGTERM, then waits (bounded) until the process is gone. */
async function stopProcess(pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }
  if (alive()) process.kill(pid, 'SIGTERM')
  for (let waited = 0; waited < 30_000 && alive(); waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100))
}

export async function benchCliLatency(opts: {
  quick: boolean
  keep: boolean
  runs: number
  idleSeconds: number
}) {
  const megabytes = opts.quick ? 100 : 1024
  const sessions = opts.quick ? 100 : 500
  const root = join(tmpdir(), `navi-bench-corpus-${megabytes}m-${sessions}s`)
  const scratch = await mkdtemp(join(tmpdir(), 'navi-bench-cli-'))
  let activeDir: string | null = null
  try {
    const corpus = await ensureCorpus({
      root,
      totalBytes: megabytes * 1024 * 1024,
      sessions,
      projects: 40,
    })
    await rm(CLI_DIR, { recursive: true, force: true })
    await bundleNaviCli({
      outdir: CLI_DIR,
      logLevel: 'silent',
    })
    const cli = NAVI_BIN
    const envNote = measuredEnvNote()
    if (envNote) console.log(envNote)
    const home = join(scratch, 'navi')
    const env = measuredEnv({
      HOME: scratch,
      NAVI_HOME: home,
      CLAUDE_CONFIG_DIR: corpus.claudeConfigDir,
      CODEX_HOME: join(scratch, 'codex'),
      // Each row says which runtime answers: none starts by itself but in its own phase below.
      NAVI_BACKGROUND: '0',
    })
    await mkdir(join(scratch, 'codex'), { recursive: true })
    const coldMs = await timeRun([cli, 'sessions'], env)
    await mkdir(join(home, 'pm'), { recursive: true })
    // Written as the engine writes them: through the event log (its lock, its verified marker).
    const log = createEventLog(join(home, 'pm', 'events.jsonl'))
    await log.append(dayOfEvents(Date.now()))
    await log.close()

    const bare = { name: 'node -e 0 (bare node)', args: ['-e', '0'] }
    const reads = ['status', 'sessions', 'events'].map((c) => ({
      name: `navi ${c}`,
      args: [cli, c],
    }))
    console.log(`cold index first (navi sessions): ${(coldMs / 1000).toFixed(2)} s`)
    // What a user meets who runs a command again with nothing changed since the last one: its answers
    // kept (electron/runtime/answer-cache/). They are kept once the files the command read are older than
    // the cache's racy margin; the events were just written.
    for (const read of reads) await untilAnswersKept(read.args, env)
    console.log(`measuring ${opts.runs} rounds with no Navi running, nothing changed…`)
    const alone = await measureRounds(
      [bare, { name: 'navi --help', args: [cli, '--help'] }, ...reads],
      env,
      opts.runs,
    )
    console.log(`measuring ${opts.runs} rounds with no Navi running, answers computed…`)
    // Each command computing its answer, as when something it reads changed: what it cost before
    // answers were kept, and what it costs after any change.
    const computing = { ...env, NAVI_NO_ANSWER_CACHE: '1' }
    const computed = reads.map((r) => ({ ...r, name: `${r.name}, computed`, env: computing }))
    // The same command compiling the whole CLI again, as without the launcher's code cache.
    const uncached = {
      name: `navi status, computed, ${UNCACHED_NAME}`,
      args: [cli, 'status'],
      env: { ...computing, NAVI_NO_CODE_CACHE: '1' },
    }
    // What a user who runs `navi status` now and then meets: the event log's prune is due (every 5
    // minutes), here by a marker that says the last one was long ago (a changed file: computed).
    const pruneDue = {
      name: 'navi status, a prune due',
      args: [cli, 'status'],
      before: () => writeFile(join(home, 'pm', 'events.pruned'), '0\n'),
      // As a prune a moment ago would leave it: the other rows are timed with none due.
      after: () => writeFile(join(home, 'pm', 'events.pruned'), `${String(Date.now())}\n`),
    }
    const changed = await measureRounds([bare, ...computed, pruneDue, uncached], env, opts.runs)
    console.log(`measuring ${opts.runs} rounds with navi watch running…`)
    const watch = await startNaviWatch(cli, env, 120_000)
    let asked: Timed[]
    try {
      asked = await measureRounds([bare, ...reads], env, opts.runs)
    } finally {
      await stopNaviWatch(watch)
    }
    // Last, so that no other row has a session at work: one of the bench's own beside the corpus (whose
    // files must keep their sizes), a 1 KiB prompt appended to it before each run; it goes at the end.
    console.log(`measuring ${opts.runs} rounds with an agent writing, no Navi running…`)
    const activeCwd = '/home/dev/workspace/navi-bench-active'
    activeDir = join(corpus.claudeConfigDir, 'projects', encodeCwd(activeCwd))
    const activeId = '00000000-0000-4000-8000-00000000be7c'
    const activeFile = join(activeDir, `${activeId}.jsonl`)
    const appendPrompt = () =>
      appendFile(activeFile, appendedPromptLine(activeId, activeCwd, new Date()))
    await mkdir(activeDir, { recursive: true })
    const writing = await measureRounds(
      [
        bare,
        { name: 'navi status, an agent just wrote', args: [cli, 'status'], before: appendPrompt },
      ],
      env,
      opts.runs,
    )
    // As users have it: the first command that computes starts the background runtime
    // (electron/cli/background.ts), which answers the next ones while the agent goes on writing.
    console.log(
      `measuring ${opts.runs} rounds with an agent writing, the background runtime answering…`,
    )
    const withBackground = { ...env, NAVI_BACKGROUND: '1', NAVI_NO_ANSWER_CACHE: '1' }
    await timeRun([cli, 'status'], withBackground)
    const background = await backgroundPid(home)
    let served: Timed[]
    let backgroundIdle: { afterRounds: IdleSample; idle: IdleSample }
    try {
      served = await measureRounds(
        [
          bare,
          ...reads.map((r) => ({
            ...r,
            name: `${r.name}, an agent just wrote`,
            before: appendPrompt,
          })),
        ],
        withBackground,
        opts.runs,
      )
      console.log(`sampling the background runtime idle for ${opts.idleSeconds} s…`)
      // Two windows: the first holds the agent's tail (its session going quiet, the index and the
      // snapshot written after the last append); the second is the runtime with nothing to do.
      backgroundIdle = {
        afterRounds: await sampleIdle(background, opts.idleSeconds),
        idle: await sampleIdle(background, opts.idleSeconds),
      }
    } finally {
      await stopProcess(background)
    }

    const rows: (string | number)[][] = []
    const results: Record<string, unknown>[] = []
    const report = (timed: Timed[], mode: string) => {
      const node = percentile(timed[0]?.samples ?? [], 50)
      for (const t of timed) {
        const p50 = percentile(t.samples, 50)
        const ratio = p50 / node
        const isReference = t === timed[0] || t.name.endsWith(UNCACHED_NAME)
        const target = t.name === 'navi --help' ? HELP_TARGET_X_NODE : TARGET_X_NODE
        const met = isReference ? '' : p50 <= TARGET_MS && ratio <= target ? 'yes' : 'no'
        rows.push([
          mode,
          t.name,
          round(p50),
          round(percentile(t.samples, 95)),
          round(ratio, 2),
          met,
        ])
        results.push({
          mode,
          command: t.name,
          p50Ms: round(p50),
          p95Ms: round(percentile(t.samples, 95)),
          xBareNode: round(ratio, 2),
          targetXBareNode: isReference ? null : target,
          met: isReference ? null : met === 'yes',
        })
      }
    }
    report(alone, 'no Navi running')
    report(changed, 'no Navi, computed')
    report(asked, 'navi watch running')
    report(writing, 'an agent writing')
    report(served, 'background runtime')
    printTable(
      `CLI latency, ${corpus.files.length} sessions / ${Math.round(corpus.bytes / 1048576)} MiB, warm index, ${EVENTS} events; ${opts.runs} rounds (target: p50 <= ${TARGET_MS} ms and <= ${TARGET_X_NODE}x bare node; --help <= ${HELP_TARGET_X_NODE}x)`,
      ['mode', 'command', 'p50 ms', 'p95 ms', 'x bare node', 'target met'],
      rows,
    )
    printTable(
      `The background runtime after its rounds, nobody asking, ${opts.idleSeconds} s each (navi watch's idle target: <= 0.3 % of a core, 0 processes)`,
      ['window', 'CPU % of one core', 'CPU ms', 'RSS MB at its end', 'processes spawned'],
      [
        idleRow('first (the agent just stopped)', backgroundIdle.afterRounds),
        idleRow('second (idle)', backgroundIdle.idle),
      ],
    )
    return {
      corpus: { megabytes, sessions },
      events: EVENTS,
      runs: opts.runs,
      coldIndexMs: round(coldMs),
      results,
      backgroundIdle,
    }
  } finally {
    if (activeDir) await rm(activeDir, { recursive: true, force: true })
    await rm(scratch, { recursive: true, force: true })
    if (!opts.keep) await rm(root, { recursive: true, force: true })
  }
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2)
  const quick = hasFlag(args, '--quick')
  const result = await benchCliLatency({
    quick,
    keep: hasFlag(args, '--keep'),
    runs: numberOption(args, 'runs', quick ? 7 : 15),
    idleSeconds: numberOption(args, 'idle-seconds', quick ? 5 : 60),
  })
  await writeResult('cli-latency', result)
}
