/**
 * Runs every benchmark, each in its own process (so one's memory and timers never touch another's
 * numbers), then prints one combined table and writes bench/results/summary.json.
 *
 * `npm run bench [-- --quick] [-- --keep] [-- --only commit-latency,idle-repos]`
 * --quick: 100 MiB corpus, 10 commits, 20 s idle sample, hook spawn cost only (no real claude),
 *   15 scripted PM runs instead of 50.
 * --keep: keep the generated corpus and the ccusage install in the temp dir for the next run.
 */
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { hasFlag, printTable, RESULTS_DIR, writeResult } from './lib/report.ts'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const quick = hasFlag(args, '--quick')
const keep = hasFlag(args, '--keep')
const onlyArg =
  args.find((a) => a.startsWith('--only='))?.slice(7) ?? args[args.indexOf('--only') + 1]
const only =
  args.some((a) => a.startsWith('--only')) && onlyArg ? new Set(onlyArg.split(',')) : null

const BENCHES: { name: string; args: string[] }[] = [
  { name: 'commit-latency', args: quick ? ['--quick'] : [] },
  { name: 'idle-repos', args: quick ? ['--quick'] : [] },
  { name: 'active-session', args: quick ? ['--quick'] : [] },
  { name: 'hook-overhead', args: quick ? ['20', '--no-claude'] : [] },
  { name: 'index-corpus', args: [...(quick ? ['--quick'] : []), ...(keep ? ['--keep'] : [])] },
  { name: 'cli-latency', args: [...(quick ? ['--quick'] : []), ...(keep ? ['--keep'] : [])] },
  { name: 'scale', args: quick ? ['--quick'] : [] },
  { name: 'pm-inbox', args: [] },
  { name: 'pm-burst', args: [] },
  { name: 'pm-memory', args: quick ? ['--runs', '15'] : [] },
  { name: 'commit-notification', args: quick ? ['--commits', '10'] : [] },
  { name: 'popover-paint', args: quick ? ['--runs', '3'] : [] },
  { name: 'bad-inputs', args: [] },
  { name: 'snapshot-save', args: quick ? ['--projects', '1000'] : [] },
  { name: 'task-run', args: quick ? ['--runs', '3'] : [] },
]

function runBench(
  name: string,
  benchArgs: string[],
): Promise<{ exitCode: number | null; seconds: number }> {
  const started = performance.now()
  console.log(`\n=== ${name} ${benchArgs.join(' ')}`.trimEnd())
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/run-ts.mjs', `bench/${name}.ts`, ...benchArgs], {
      cwd: REPO,
      stdio: 'inherit',
    })
    child.on('error', reject)
    child.on('close', (exitCode) =>
      resolve({ exitCode, seconds: (performance.now() - started) / 1000 }),
    )
  })
}

/** A result file as loose JSON: the benchmarks own their shapes, this only reads a few fields. */
type Json = Record<string, unknown>
async function readResult(name: string): Promise<Json | null> {
  try {
    return JSON.parse(await readFile(join(RESULTS_DIR, `${name}.json`), 'utf8')) as Json
  } catch {
    return null
  }
}
const at = (value: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>(
    (node, key) => (typeof node === 'object' && node !== null ? (node as Json)[key] : undefined),
    value,
  )
const show = (value: unknown, unit = ''): string =>
  typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean'
    ? `${String(value)}${unit}`
    : '-'

const outcomes: Record<string, { exitCode: number | null; seconds: number }> = {}
for (const bench of BENCHES) {
  if (only && !only.has(bench.name)) continue
  outcomes[bench.name] = await runBench(bench.name, bench.args)
}

const [
  latency,
  idle,
  hooks,
  corpus,
  active,
  pmInbox,
  pmBurst,
  pmMemory,
  notify,
  paint,
  cli,
  scale,
] = await Promise.all(
  [
    'commit-latency',
    'idle-repos',
    'hook-overhead',
    'index-corpus',
    'active-session',
    'pm-inbox',
    'pm-burst',
    'pm-memory',
    'commit-notification',
    'popover-paint',
    'cli-latency',
    'scale',
  ].map((n) => (outcomes[n]?.exitCode === 0 ? readResult(n) : Promise.resolve(null))),
)
const rows: string[][] = []
if (latency) {
  const poll = at(latency, 'poll', 'pollIntervalS')
  rows.push(
    [
      'commit → event, watching',
      `p50 ${show(at(latency, 'watch', 'p50Ms'), ' ms')} / p95 ${show(at(latency, 'watch', 'p95Ms'), ' ms')}`,
      '< 1 s (incl. 75 + 100 ms debounce; cycles ≥ 400 ms apart)',
    ],
    [
      `commit → event, polling only (${show(poll)} s)`,
      `p50 ${show(at(latency, 'poll', 'p50Ms'), ' ms')} / p95 ${show(at(latency, 'poll', 'p95Ms'), ' ms')}`,
      '≈ interval/2; 30 s default ≈ 15 s',
    ],
  )
}
if (corpus) {
  const size = `${show(at(corpus, 'corpus', 'megabytes'))} MiB/${show(at(corpus, 'corpus', 'sessions'))} sessions`
  rows.push(
    [
      `ccusage session --json --offline, ${size}`,
      `${show(at(corpus, 'ccusage', 'wallS'), ' s')}, ${show(at(corpus, 'ccusage', 'peakRssMb'), ' MB')}`,
      `ccusage@${show(at(corpus, 'ccusageVersion'))}`,
    ],
    [
      'navi cold index (wall, peak RSS)',
      `${show(at(corpus, 'naviCold', 'wallS'), ' s')}, ${show(at(corpus, 'naviCold', 'peakRssMb'), ' MB')}`,
      `×ccusage: wall ${show(at(corpus, 'ratios', 'coldWallVsCcusage'))}, RSS ${show(at(corpus, 'ratios', 'coldRssVsCcusage'))}`,
    ],
    [
      'navi warm restart (wall, peak RSS)',
      `${show(at(corpus, 'naviWarm', 'wallS'), ' s')}, ${show(at(corpus, 'naviWarm', 'peakRssMb'), ' MB')}`,
      `×ccusage: wall ${show(at(corpus, 'ratios', 'warmWallVsCcusage'))}, RSS ${show(at(corpus, 'ratios', 'warmRssVsCcusage'))}`,
    ],
    [
      'navi process start-up, nothing to index',
      `${show(at(corpus, 'naviBaselineEmpty', 'wallS'), ' s')}, ${show(at(corpus, 'naviBaselineEmpty', 'peakRssMb'), ' MB')}`,
      'bundled engine load floor',
    ],
    [
      'absorb a 1 KiB append (running engine: its thread on a CPU; its cycle, wall)',
      `${show(at(corpus, 'append', 'engineCpuMsMedian'), ' ms')} CPU median; cycle ${show(at(corpus, 'append', 'engineMsMedian'), ' ms')} median, max ${show(at(corpus, 'append', 'engineMsMax'), ' ms')}`,
      `per cycle ${show(at(corpus, 'append', 'bytesReadMedian'), ' B')} read, ${show(at(corpus, 'append', 'statsMedian'))} stat calls`,
    ],
  )
}
if (idle) {
  rows.push(
    [
      `git spawns per idle cycle, ${show(at(idle, 'repos'))} repos`,
      `max ${show(at(idle, 'maxGitSpawnsPerCycle'))} over ${show((at(idle, 'cycles') as unknown[] | undefined)?.length)} cycles`,
      'target 0',
    ],
    [
      `navi watch idle CPU, ${show(at(idle, 'repos'))} repos`,
      `${show(at(idle, 'watch', 'cpuPercent'), ' %')}, ${show(at(idle, 'watch', 'cpuMsPerMinute'), ' ms/min')}`,
      `over ${show(at(idle, 'watch', 'sampledSeconds'), ' s')}`,
    ],
  )
}
if (active) {
  rows.push([
    `engine CPU while an agent writes, ${show(at(active, 'sessions'))} transcripts`,
    `${show(at(active, 'cpu_percent_of_one_core'), ' %')} of a core, ${show(at(active, 'cycles'))} cycles`,
    `one line every 100 ms for ${show(at(active, 'seconds'), ' s')}`,
  ])
}
if (hooks) {
  const navi = (at(hooks, 'claude') as Json[] | null | undefined)?.find((r) => r.variant === 'navi')
  rows.push([
    'hook handler, one blocking hook (p50)',
    `${show(at(hooks, 'spawn', 'perHookBlockingMsP50'), ' ms')}`,
    navi
      ? `real claude: +${show(navi.addedPerToolCallMs, ' ms')} per tool call`
      : 'real claude not run',
  ])
}
if (pmInbox) {
  const sizes = (at(pmInbox, 'rows') as Json[] | undefined) ?? []
  rows.push([
    `PM inbox tokens, ${sizes.map((r) => show(r.events)).join('/')} events`,
    sizes.map((r) => show(r.tokens)).join(' / '),
    `≤ ${show(at(pmInbox, 'budget'))}; in full ${sizes.map((r) => show(r.fullEvents)).join('/')}, rest summarized`,
  ])
}
if (pmBurst) {
  const main = at(pmBurst, 'results', 0)
  rows.push([
    `PM runs/hour, ${show(at(pmBurst, 'commits'))} commits in ${show(at(pmBurst, 'minutes'))} min`,
    `${show(at(main, 'runsPerHour'))} runs`,
    'target ≤ 5 (batched)',
  ])
}
if (pmMemory) {
  const file = (key: string, field: string) => at(pmMemory, 'files', key, field)
  rows.push([
    `PM memory after ${show(at(pmMemory, 'runs'))} runs (short/long tokens)`,
    `${show(file('shortTerm', 'finalTokens'))} / ${show(file('longTerm', 'finalTokens'))}, ` +
      `max ${show(file('shortTerm', 'maxTokens'))} / ${show(file('longTerm', 'maxTokens'))}, ` +
      `${show(at(pmMemory, 'trims'))} trims`,
    `budgets ${show(file('shortTerm', 'budget'))} / ${show(file('longTerm', 'budget'))} (+10 %); ` +
      `model wrote up to ${show(file('shortTerm', 'maxWrittenTokens'))} / ${show(file('longTerm', 'maxWrittenTokens'))}; ` +
      `valve notes seen ${show(at(pmMemory, 'valveNotes', 'delivered'))}/${show(at(pmMemory, 'valveNotes', 'afterTrims'))}`,
  ])
}
if (notify) {
  rows.push([
    `commit → notification decision (window ${show(at(notify, 'window'))})`,
    `p50 ${show(at(notify, 'decision', 'p50Ms'), ' ms')} / p95 ${show(at(notify, 'decision', 'p95Ms'), ' ms')}`,
    `engine event p50 ${show(at(notify, 'event', 'p50Ms'), ' ms')}; handleEvents p50 ${show(at(notify, 'decideCallUs', 'p50'), ' µs')}`,
  ])
}
if (paint) {
  rows.push(
    [
      `popover FP / FCP (navi serve, ${show(at(paint, 'events'))} events)`,
      `${show(at(paint, 'summary', 'firstPaintMs'), ' ms')} / ${show(at(paint, 'summary', 'firstContentfulPaintMs'), ' ms')}`,
      `median of ${show(at(paint, 'runs'))} cold loads, Debian Chromium`,
    ],
    [
      `popover: ${show(at(paint, 'events'))} events held, scrolled through (frame p95)`,
      `${show(at(paint, 'summary', 'eventRowsMs'), ' ms')}, frame p95 ${show(at(paint, 'summary', 'scrollFrameP95Ms'), ' ms')}`,
      `JS heap ${show(at(paint, 'summary', 'jsHeapUsedMb'), ' MiB')}, renderer RSS ${show(at(paint, 'summary', 'rendererRssMb'), ' MiB')}`,
    ],
  )
}
if (cli) {
  for (const r of (at(cli, 'results') as Json[] | undefined) ?? []) {
    if (String(r.command).startsWith('node')) continue
    rows.push([
      `${show(r.command)} (${show(r.mode)})`,
      `p50 ${show(r.p50Ms, ' ms')} / p95 ${show(r.p95Ms, ' ms')}, ×${show(r.xBareNode)} bare node`,
      `target met: ${show(r.met)}`,
    ])
  }
}
if (scale) {
  for (const r of (at(scale, 'rows') as Json[] | undefined) ?? []) {
    rows.push([
      `scale: ${show(r.sessions)} sessions, ${show(r.repos)} repos`,
      `cold ${show(r.coldS, ' s')}, warm ${show(r.warmS, ' s')}, status ${show(r.statusAloneMs, ' ms')}, idle ${show(r.idleCpuPercent, ' %')}`,
      `watch RSS ${show(r.watchRssMb, ' MB')}, idle spawns ${show(r.idleProcessesStarted)}, append ${show(r.appendCycleMs, ' ms')}`,
    ])
  }
}
printTable(
  `Navi benchmarks${quick ? ' (--quick)' : ''}`,
  ['measure', 'result', 'target / note'],
  rows,
)
for (const [name, outcome] of Object.entries(outcomes)) {
  if (outcome.exitCode !== 0) console.log(`FAILED: ${name} (exit ${outcome.exitCode})`)
}
await writeResult('summary', {
  quick,
  command: `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`,
  outcomes,
  results: {
    commitLatency: latency,
    idleRepos: idle,
    hookOverhead: hooks,
    indexCorpus: corpus,
    pmInbox,
    pmBurst,
    pmMemory,
    commitNotification: notify,
    popoverPaint: paint,
    cliLatency: cli,
    scale,
  },
})
process.exitCode = Object.values(outcomes).every((o) => o.exitCode === 0) ? 0 : 1
