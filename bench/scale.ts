/**
 * How Navi's costs grow with what it watches: 50 / 500 / 2,000 sessions in 10 / 50 / 200 registered git
 * repositories (the sessions' cwds are in them), each row in a fresh home:
 * - cold: a first index (the bundled engine child of index-corpus: one process, wall, CPU, peak RSS);
 * - warm: the same again with its index (0 transcript bytes should be read);
 * - `navi status`, computing it (no Navi running) and asked of `navi watch`;
 * - `navi watch --no-pm` idle for S seconds, 30 s after it is ready: CPU % of a core, resident memory, and, in a
 *   second window under `strace -f -c`, the processes it started and the file-system calls it made;
 * - a 1 KiB append to one transcript absorbed by a running engine (lib/append-child.ts: median of 5 of
 *   its own cycle timings, with the file-system calls of that cycle).
 * Transcripts are 256 KiB on average (the 1 GiB corpus of index-corpus is the big-history case).
 *
 * `node bin/run-ts.mjs bench/scale.ts [--quick] [--idle-seconds S]`
 * --quick: the 50 and 500 rows only, 20 s idle. Writes bench/results/scale.json.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundleCli, bundleNaviCli, NAVI_CLI_FILE } from '../scripts/cli-bundle.ts'
import { FIXTURE_GIT_ENV } from '../tests/support/repo-fixture.ts'
import { ensureCorpus } from './lib/corpus.ts'
import { measuredEnv, measuredEnvNote } from './lib/measured-env.ts'
import { parseChild } from './lib/index-report.ts'
import { startNaviWatch, stopNaviWatch } from './lib/navi-watch.ts'
import { cpuTicks, processTree, residentMb, runMeasured, ticksToMs } from './lib/process-stats.ts'
import {
  hasFlag,
  isMain,
  numberOption,
  printTable,
  round,
  sleep,
  writeResult,
} from './lib/report.ts'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const OUT = join(REPO, 'out', 'bench-scale')
const SESSION_BYTES = 256 * 1024
/** Between `navi watch` being ready and its idle being measured. */
const SETTLE_MS = 30_000

interface Row {
  sessions: number
  repos: number
}

const ROWS: Row[] = [
  { sessions: 50, repos: 10 },
  { sessions: 500, repos: 50 },
  { sessions: 2000, repos: 200 },
]

async function git(dir: string, ...args: string[]): Promise<void> {
  execFileSync('git', args, {
    cwd: dir,
    env: { ...process.env, ...FIXTURE_GIT_ENV },
    stdio: 'ignore',
  })
}

/** `count` small real repositories under `root` (reused when already there). */
async function ensureRepos(root: string, count: number): Promise<string[]> {
  const dirs = Array.from({ length: count }, (_, i) =>
    join(root, `repo-${String(i).padStart(3, '0')}`),
  )
  for (const dir of dirs) {
    if (existsSync(join(dir, '.git', 'HEAD'))) continue
    await mkdir(dir, { recursive: true })
    await git(dir, 'init', '-q', '-b', 'main')
    await writeFile(join(dir, 'README.md'), `# ${dir}\n`)
    await git(dir, 'add', '-A')
    await git(dir, 'commit', '-q', '-m', 'initial commit')
  }
  return dirs
}

/** Runs `navi <args>` (bundled) and returns its wall time; throws when it fails. */
async function timeNavi(cli: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const run = await runMeasured(process.execPath, [cli, ...args], { env })
  if (run.exitCode !== 0)
    throw new Error(`navi ${args.join(' ')} exited ${run.exitCode}: ${run.stderr}`)
  return run.wallMs
}

/** CPU % of one core used by the process tree over `seconds`, sampled from /proc. */
async function idleCpu(pid: number, seconds: number): Promise<number> {
  const ticks = () => processTree(pid).reduce((sum, p) => sum + cpuTicks(p), 0)
  const t0 = performance.now()
  const before = ticks()
  await sleep(seconds * 1000)
  return (ticksToMs(ticks() - before) / (performance.now() - t0)) * 100
}

/** What `strace -f -c` saw of the process for `seconds`: processes started and file-system calls. */
async function straceWindow(
  pid: number,
  seconds: number,
): Promise<{ execve: number; fileCalls: number } | null> {
  const out = join(tmpdir(), `navi-bench-strace-${pid}.txt`)
  const tracer = spawn(
    'strace',
    ['-f', '-c', '-e', 'trace=%file,%process', '-p', String(pid), '-o', out],
    {
      stdio: 'ignore',
    },
  )
  await sleep(seconds * 1000)
  tracer.kill('SIGINT')
  await new Promise((resolve) => tracer.once('exit', resolve))
  try {
    const text = await readFile(out, 'utf8')
    const count = (name: string) =>
      Number(new RegExp(`\\s(\\d+)\\s+(?:\\d+\\s+)?${name}$`, 'm').exec(text)?.[1] ?? 0)
    const total = Number(/\s(\d+)\s+(?:\d+\s+)?total$/m.exec(text)?.[1] ?? Number.NaN)
    const processCalls = [
      'execve',
      'clone',
      'clone3',
      'fork',
      'vfork',
      'wait4',
      'exit_group',
      'kill',
    ]
    return {
      execve: count('execve'),
      fileCalls: total - processCalls.reduce((sum, name) => sum + count(name), 0),
    }
  } catch {
    return null
  } finally {
    await rm(out, { force: true })
  }
}

/** What a running engine spends on a 1 KiB append (lib/append-child.ts), the file put back after. */
async function appendCycles(
  childFile: string,
  file: { path: string; sessionId: string; cwd: string },
  env: NodeJS.ProcessEnv,
) {
  const original = await stat(file.path)
  try {
    const run = await runMeasured(
      process.execPath,
      [childFile, file.path, file.sessionId, file.cwd, '5'],
      { env },
    )
    if (run.exitCode !== 0) throw new Error(`append child exited ${run.exitCode}: ${run.stderr}`)
    return JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as {
      medianMs: number
      medianCpuMs: number
      medianBytesRead: number
      medianStats: number
    }
  } finally {
    await truncate(file.path, original.size)
    await utimes(file.path, original.atime, original.mtime)
  }
}

export async function benchScale(opts: { quick: boolean; idleSeconds: number }) {
  const envNote = measuredEnvNote()
  if (envNote) console.log(envNote)
  await rm(OUT, { recursive: true, force: true })
  await bundleNaviCli({
    outdir: join(OUT, 'cli'),
    logLevel: 'silent',
  })
  await bundleCli({
    entry: join(REPO, 'bench/lib/index-child.ts'),
    outdir: join(OUT, 'child'),
    logLevel: 'silent',
  })
  await bundleCli({
    entry: join(REPO, 'bench/lib/append-child.ts'),
    outdir: join(OUT, 'append'),
    logLevel: 'silent',
  })
  const appendChild = join(OUT, 'append', 'append-child.mjs')
  const cli = join(OUT, 'cli', NAVI_CLI_FILE)
  const child = join(OUT, 'child', 'index-child.mjs')
  const results: Record<string, unknown>[] = []
  for (const row of opts.quick ? ROWS.slice(0, 2) : ROWS) {
    const root = join(tmpdir(), `navi-bench-scale-${row.sessions}s-${row.repos}r`)
    const repos = await ensureRepos(join(root, 'repos'), row.repos)
    const corpus = await ensureCorpus({
      root: join(root, 'corpus'),
      totalBytes: row.sessions * SESSION_BYTES,
      sessions: row.sessions,
      projects: row.repos,
      projectDirs: repos,
    })
    const scratch = await mkdtemp(join(tmpdir(), 'navi-bench-scale-home-'))
    try {
      const home = join(scratch, 'navi')
      await mkdir(home, { recursive: true })
      await writeFile(
        join(home, 'config.yaml'),
        `projects:\n${repos.map((r) => `  - path: ${r}\n`).join('')}`,
      )
      const env = measuredEnv({
        HOME: scratch,
        NAVI_HOME: home,
        CLAUDE_CONFIG_DIR: corpus.claudeConfigDir,
        CODEX_HOME: join(scratch, 'codex'),
      })
      console.log(
        `\n${row.sessions} sessions, ${row.repos} repositories (${Math.round(corpus.bytes / 1048576)} MiB)`,
      )
      const cold = await runMeasured(process.execPath, [child], { env })
      const coldChild = parseChild(cold)
      const warm = await runMeasured(process.execPath, [child], { env })
      const warmChild = parseChild(warm)
      const statusAlone = await timeNavi(cli, ['status'], env)
      const watch = await startNaviWatch(cli, env)
      let idle: number
      let traced: Awaited<ReturnType<typeof straceWindow>>
      let rss: number | null
      let statusAsked: number
      try {
        const pid = watch.pid as number
        // Start-up settles first: V8 shrinks the heap the first cycle grew (a few collections in the
        // first half minute), which is not what an idle engine costs.
        await sleep(SETTLE_MS)
        idle = await idleCpu(pid, opts.idleSeconds)
        rss = residentMb(pid)
        traced = await straceWindow(pid, Math.min(40, opts.idleSeconds))
        statusAsked = await timeNavi(cli, ['status'], env)
      } finally {
        await stopNaviWatch(watch)
      }
      const target = [...corpus.files].sort((a, b) => a.bytes - b.bytes)[
        Math.floor(corpus.files.length / 2)
      ]
      const append = target ? await appendCycles(appendChild, target, env) : null
      const result = {
        ...row,
        corpusMb: round(corpus.bytes / 1048576, 0),
        projects: coldChild.projects,
        coldS: round(cold.wallMs / 1000, 2),
        coldPeakRssMb: round(cold.peakRssMb, 0),
        warmS: round(warm.wallMs / 1000, 2),
        warmPeakRssMb: round(warm.peakRssMb, 0),
        // Everything the warm refresh read: the indexes and snapshots (no transcript changed).
        warmMbRead: round(warmChild.bytesReadByRefresh / 1048576, 1),
        statusAloneMs: round(statusAlone, 0),
        statusAskedMs: round(statusAsked, 0),
        idleCpuPercent: round(idle, 2),
        idleSeconds: opts.idleSeconds,
        watchRssMb: rss === null ? null : round(rss, 0),
        idleProcessesStarted: traced?.execve ?? null,
        idleFileCalls: traced?.fileCalls ?? null,
        appendCycleMs: append === null ? null : round(append.medianMs, 1),
        appendCpuMs: append === null ? null : round(append.medianCpuMs, 1),
        appendBytesRead: append?.medianBytesRead ?? null,
        appendStats: append?.medianStats ?? null,
      }
      results.push(result)
      console.log(JSON.stringify(result))
    } finally {
      await rm(scratch, { recursive: true, force: true })
    }
  }
  printTable(
    'Scale: fresh home per row; transcripts ~256 KiB each; repositories registered',
    [
      'sessions',
      'repos',
      'MiB',
      'cold s',
      'cold RSS',
      'warm s',
      'warm RSS',
      'status ms',
      'asked ms',
      'idle CPU %',
      'watch RSS',
      'idle spawns',
      'idle fs calls',
      'append ms',
      'append CPU ms',
      'append stats',
    ],
    results.map((r) => [
      Number(r.sessions),
      Number(r.repos),
      Number(r.corpusMb),
      Number(r.coldS),
      Number(r.coldPeakRssMb),
      Number(r.warmS),
      Number(r.warmPeakRssMb),
      Number(r.statusAloneMs),
      Number(r.statusAskedMs),
      Number(r.idleCpuPercent),
      r.watchRssMb === null ? '-' : Number(r.watchRssMb),
      r.idleProcessesStarted === null ? '-' : Number(r.idleProcessesStarted),
      r.idleFileCalls === null ? '-' : Number(r.idleFileCalls),
      r.appendCycleMs === null ? '-' : Number(r.appendCycleMs),
      r.appendCpuMs === null ? '-' : Number(r.appendCpuMs),
      r.appendStats === null ? '-' : Number(r.appendStats),
    ]),
  )
  return { idleSeconds: opts.idleSeconds, sessionBytes: SESSION_BYTES, rows: results }
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2)
  const quick = hasFlag(args, '--quick')
  const result = await benchScale({
    quick,
    idleSeconds: numberOption(args, 'idle-seconds', quick ? 20 : 60),
  })
  await writeResult('scale', result)
}
