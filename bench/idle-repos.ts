/**
 * 50 idle registered repositories (real git repos in temp dirs):
 * 1. git processes spawned per engine cycle after the first (`refresh({ force: false })`, K = 10
 *    cycles; target 0), from `diagnostics().gitSpawns`, with each cycle's duration;
 * 2. CPU of `navi watch --json` left idle for 60 s: utime + stime of the process and of the children
 *    it reaped (git), from /proc/<pid>/stat, as CPU % of one core and ms of CPU per minute.
 *
 * `node bin/run-ts.mjs bench/idle-repos.ts [--quick] [--repos N] [--cycles K] [--idle-seconds S]`
 * Writes bench/results/idle-repos.json.
 */
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createEngine } from '../electron/engine/index.ts'
import { createRepoFixture, type RepoFixture } from '../tests/support/repo-fixture.ts'
import { sampleProcessCpu } from './lib/process-stats.ts'
import {
  hasFlag,
  isMain,
  mean,
  numberOption,
  printTable,
  round,
  sleep,
  writeResult,
} from './lib/report.ts'

const REPO = fileURLToPath(new URL('..', import.meta.url))

export interface IdleReposOptions {
  repos: number
  cycles: number
  idleSeconds: number
}

async function createRepos(count: number): Promise<RepoFixture[]> {
  const repos: RepoFixture[] = []
  // Two at a time: each fixture spawns a handful of git processes and the machine has 2 cores.
  for (let i = 0; i < count; i += 2) {
    const batch = Array.from({ length: Math.min(2, count - i) }, () =>
      createRepoFixture({ prefix: 'navi-bench-idle-' }),
    )
    repos.push(...(await Promise.all(batch)))
  }
  return repos
}

async function measureCycles(paths: Parameters<typeof createEngine>[0]['paths'], cycles: number) {
  const engine = createEngine({ paths, watch: false })
  try {
    const first = await engine.refresh({ force: false })
    const firstDiag = engine.diagnostics()
    const rows: { cycle: number; gitSpawns: number; durationMs: number }[] = []
    for (let i = 1; i <= cycles; i++) {
      await engine.refresh({ force: false })
      const d = engine.diagnostics()
      rows.push({ cycle: i, gitSpawns: d.gitSpawns, durationMs: round(d.durationMs) })
    }
    return {
      projects: first.projects.length,
      firstCycle: { gitSpawns: firstDiag.gitSpawns, durationMs: round(firstDiag.durationMs) },
      cycles: rows,
      maxGitSpawnsPerCycle: Math.max(...rows.map((r) => r.gitSpawns)),
      meanCycleMs: round(mean(rows.map((r) => r.durationMs))),
    }
  } finally {
    await engine.stop()
  }
}

/** Starts `navi watch --json`, waits for its ready line, samples its CPU for `seconds`. */
async function measureWatchCpu(env: NodeJS.ProcessEnv, seconds: number) {
  const child = spawn(process.execPath, ['bin/navi.cjs', 'watch', '--json'], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const pid = child.pid
  if (pid === undefined) throw new Error('navi watch did not start')
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  const startedAt = performance.now()
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 120_000)
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
      if (stderr.includes('"ready":true')) {
        clearTimeout(timer)
        resolve(true)
      }
    })
    child.on('exit', () => resolve(false))
  })
  if (!ready) {
    child.kill('SIGTERM')
    throw new Error(`navi watch never became ready: ${stderr.slice(-2000)}`)
  }
  const readyMs = performance.now() - startedAt
  // Let the first cycle's aftermath (watchers settling) pass before sampling.
  await sleep(1000)
  const sample = await sampleProcessCpu(pid, seconds)
  const { wallMs, cpuMs, rssMb } = sample
  const perSecondMs = sample.perSecondCpuMs
  child.kill('SIGINT')
  const exitCode = await new Promise<number | null>((resolve) =>
    child.on('exit', (code) => resolve(code)),
  )
  return {
    readyMs: round(readyMs, 0),
    sampledSeconds: round(wallMs / 1000, 1),
    cpuMs: round(cpuMs, 0),
    cpuPercent: round((cpuMs / wallMs) * 100, 2),
    cpuMsPerMinute: round((cpuMs / wallMs) * 60_000, 0),
    maxCpuMsInOneSecond: Math.max(...perSecondMs),
    /** CPU ms of each second sampled: the poll cycles stand out. */
    perSecondCpuMs: perSecondMs,
    maxChildProcessesSeen: sample.maxChildProcesses,
    rssMbAtEnd: rssMb === null ? null : round(rssMb, 0),
    eventsPrinted: stdout.split('\n').filter(Boolean).length,
    exitCode,
  }
}

export async function benchIdleRepos(opts: IdleReposOptions) {
  const root = await mkdtemp(join(tmpdir(), 'navi-bench-idle-home-'))
  const repos = await createRepos(opts.repos)
  try {
    const naviHome = join(root, 'navi')
    const claudeConfigDir = join(root, 'claude')
    const codexHome = join(root, 'codex')
    await Promise.all([naviHome, claudeConfigDir, codexHome].map((d) => mkdir(d)))
    const config = `projects:\n${repos.map((r) => `  - path: ${r.dir}\n`).join('')}poll_interval: 30s\n`
    await writeFile(join(naviHome, 'config.yaml'), config)
    const cycles = await measureCycles({ naviHome, claudeConfigDir, codexHome }, opts.cycles)
    printTable(
      `git processes per cycle, ${opts.repos} idle registered repos (refresh({ force: false }))`,
      ['cycle', 'git spawns', 'duration ms'],
      [
        ['first', cycles.firstCycle.gitSpawns, cycles.firstCycle.durationMs],
        ...cycles.cycles.map((c) => [String(c.cycle), c.gitSpawns, c.durationMs]),
      ],
    )
    // A fresh NAVI_HOME for `navi watch`, so its first cycle is a real first sight too.
    const watchHome = join(root, 'navi-watch')
    await mkdir(watchHome)
    await writeFile(join(watchHome, 'config.yaml'), config)
    const watch = await measureWatchCpu(
      {
        ...process.env,
        NAVI_HOME: watchHome,
        CLAUDE_CONFIG_DIR: claudeConfigDir,
        CODEX_HOME: codexHome,
      },
      opts.idleSeconds,
    )
    printTable(
      `navi watch --json idle, ${opts.repos} repos, poll 30 s, sampled ${watch.sampledSeconds} s after ready`,
      ['metric', 'value'],
      [
        ['ready after (ms, incl. start-up)', watch.readyMs],
        ['CPU % of one core', watch.cpuPercent],
        ['CPU ms per minute', watch.cpuMsPerMinute],
        ['max CPU ms in one second', watch.maxCpuMsInOneSecond],
        ['RSS MB at end', watch.rssMbAtEnd ?? '-'],
        ['events printed while idle', watch.eventsPrinted],
      ],
    )
    return { repos: opts.repos, ...cycles, watch }
  } finally {
    await Promise.all(repos.map((r) => r.cleanup()))
    await rm(root, { recursive: true, force: true })
  }
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2)
  const quick = hasFlag(args, '--quick')
  const result = await benchIdleRepos({
    repos: numberOption(args, 'repos', 50),
    cycles: numberOption(args, 'cycles', 10),
    idleSeconds: numberOption(args, 'idle-seconds', quick ? 20 : 60),
  })
  await writeResult('idle-repos', result)
}
