/**
 * Wall time, CPU time and peak memory of a child process and its descendants, from /proc (Linux).
 * `/usr/bin/time` is used when present for the exact CPU and max RSS of the process tree as the
 * kernel accounts it on exit; /proc is polled meanwhile for the resident memory of every process of the
 * tree alive at that moment, summed: what a wrapper that runs a native binary beside it really costs.
 * The peak is the larger of the two. (The sum of each process's own peak, kept as `treeHwmMb`, adds up
 * processes that never ran at once: a cold index's hundreds of short git runs counted as one tree of
 * 300 MB at 2,000 sessions, whose largest process peaked at 185.)
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const TIME_BIN = '/usr/bin/time'
const CLOCK_TICKS_PER_SECOND = 100

export interface ProcessRun {
  exitCode: number | null
  wallMs: number
  stdout: string
  stderr: string
  /** Peak resident memory: max of (kernel max RSS, the largest polled sum of the tree's live VmRSS). */
  peakRssMb: number
  /** The largest sum of the resident memory of the tree's processes alive at one poll. */
  treeRssMb: number
  /** Sum over the processes of the tree of their own VmHWM, whether or not they ran at once. */
  treeHwmMb: number
  /** The largest single process, as the kernel reports it (`/usr/bin/time` %M); null without it. */
  maxRssMb: number | null
  /** User + system CPU of the tree (from `/usr/bin/time`, else from polling). */
  cpuMs: number
  /** Each process seen in the tree: command name and its peak RSS. */
  processes: { pid: number; comm: string; hwmMb: number }[]
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv
  cwd?: string
  /** Poll interval for the process tree. @default 50 */
  pollMs?: number
  /** Called with each line the child writes to stderr (after the run stderr is also returned). */
  onStderrLine?: (line: string) => void
}

/** Runs `command args` to completion and measures it. Never rejects on a non-zero exit. */
export async function runMeasured(
  command: string,
  args: string[],
  options: RunOptions = {},
): Promise<ProcessRun> {
  const useTime = existsSync(TIME_BIN)
  const dir = await mkdtemp(join(tmpdir(), 'navi-bench-time-'))
  const timeFile = join(dir, 'time.txt')
  const [cmd, argv] = useTime
    ? [TIME_BIN, ['-f', '%e %U %S %M', '-o', timeFile, command, ...args]]
    : [command, args]
  const started = performance.now()
  const child = spawn(cmd, argv, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const out: Buffer[] = []
  const err: Buffer[] = []
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
  let pending = ''
  child.stderr.on('data', (chunk: Buffer) => {
    err.push(chunk)
    if (!options.onStderrLine) return
    pending += chunk.toString('utf8')
    const lines = pending.split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) options.onStderrLine(line)
  })
  const seen = new Map<number, { comm: string; hwmKb: number; cpuTicks: number }>()
  let treeRssKb = 0
  const rootPid = child.pid
  const poll = setInterval(() => {
    if (rootPid === undefined) return
    const pids = processTree(rootPid).filter((pid) => !(useTime && pid === rootPid))
    let liveKb = 0
    for (const pid of pids) {
      const sample = readProcess(pid)
      if (!sample) continue
      seen.set(pid, sample)
      liveKb += sample.rssKb
    }
    treeRssKb = Math.max(treeRssKb, liveKb)
  }, options.pollMs ?? 50)
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve(code))
  })
  const wallMs = performance.now() - started
  clearInterval(poll)

  const kernel = useTime ? parseTimeFile(await readFile(timeFile, 'utf8').catch(() => '')) : null
  await rm(dir, { recursive: true, force: true })
  const treeHwmKb = [...seen.values()].reduce((sum, p) => sum + p.hwmKb, 0)
  const polledCpuMs = ticksToMs([...seen.values()].reduce((sum, p) => sum + p.cpuTicks, 0))
  const maxRssKb = kernel?.maxRssKb ?? null
  return {
    exitCode,
    wallMs,
    stdout: Buffer.concat(out).toString('utf8'),
    stderr: Buffer.concat(err).toString('utf8'),
    // Without /usr/bin/time, the largest process's own peak as polled stands for the kernel's.
    peakRssMb:
      Math.max(treeRssKb, maxRssKb ?? Math.max(0, ...[...seen.values()].map((p) => p.hwmKb))) /
      1024,
    treeRssMb: treeRssKb / 1024,
    treeHwmMb: treeHwmKb / 1024,
    maxRssMb: maxRssKb === null ? null : maxRssKb / 1024,
    cpuMs: kernel ? kernel.cpuMs : polledCpuMs,
    processes: [...seen].map(([pid, p]) => ({ pid, comm: p.comm, hwmMb: p.hwmKb / 1024 })),
  }
}

function parseTimeFile(text: string): { cpuMs: number; maxRssKb: number } | null {
  // The last line: a non-zero exit adds "Command exited with non-zero status N" before it.
  const last = text.trim().split('\n').pop() ?? ''
  const [, user, sys, rss] = last.trim().split(/\s+/).map(Number)
  if (user === undefined || sys === undefined || rss === undefined) return null
  if (![user, sys, rss].every(Number.isFinite)) return null
  return { cpuMs: (user + sys) * 1000, maxRssKb: rss }
}

/** `pid` and every descendant, through /proc/<pid>/task/<tid>/children. */
export function processTree(pid: number): number[] {
  const found: number[] = []
  const visit = (p: number) => {
    found.push(p)
    for (const child of childrenOf(p)) visit(child)
  }
  visit(pid)
  return found
}

function childrenOf(pid: number): number[] {
  let tids: string[]
  try {
    tids = readdirSync(`/proc/${pid}/task`)
  } catch {
    return []
  }
  const children: number[] = []
  for (const tid of tids) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim()
      if (text) children.push(...text.split(/\s+/).map(Number))
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return children
}

/** Name, peak and current RSS (VmHWM, VmRSS, KiB) and CPU ticks (utime+stime+cutime+cstime) of one process. */
export function readProcess(
  pid: number,
): { comm: string; hwmKb: number; rssKb: number; cpuTicks: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const hwm = /^VmHWM:\s+(\d+)/m.exec(status)
    const rss = /^VmRSS:\s+(\d+)/m.exec(status)
    const comm = /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '?'
    return {
      comm,
      hwmKb: hwm ? Number(hwm[1]) : 0,
      rssKb: rss ? Number(rss[1]) : 0,
      cpuTicks: cpuTicks(pid),
    }
  } catch {
    return null
  }
}

/** utime + stime + cutime + cstime of `pid` in clock ticks (children only once reaped). */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command name (which may contain spaces) start at field 3 (state).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0)
}

export const ticksToMs = (ticks: number): number => (ticks * 1000) / CLOCK_TICKS_PER_SECOND

/** Current resident set of one process in MiB, or null when it is gone. */
export function residentMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const rss = /^VmRSS:\s+(\d+)/m.exec(status)
    return rss ? Number(rss[1]) / 1024 : null
  } catch {
    return null
  }
}

/** What `sampleProcessCpu` saw of a process and the processes below it. */
export interface CpuSample {
  wallMs: number
  /** utime + stime of the tree over the sample, with what its processes reaped. */
  cpuMs: number
  /** CPU ms of each second: a timer's cycle or a collection stands out. */
  perSecondCpuMs: number[]
  /** The most processes below `pid` seen at one poll (git, a shell…). */
  maxChildProcesses: number
  /** Resident memory of `pid` at the end. */
  rssMb: number | null
}

/** Samples the CPU of `pid` and the processes below it each second for `seconds` (Linux /proc). */
export async function sampleProcessCpu(pid: number, seconds: number): Promise<CpuSample> {
  const treeTicks = () => processTree(pid).reduce((sum, p) => sum + ticksOfLive(p), 0)
  const started = performance.now()
  const ticks0 = treeTicks()
  let last = ticks0
  let maxChildProcesses = 0
  const perSecondCpuMs: number[] = []
  for (let s = 0; s < seconds; s++) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const now = treeTicks()
    perSecondCpuMs.push(ticksToMs(now - last))
    last = now
    maxChildProcesses = Math.max(maxChildProcesses, processTree(pid).length - 1)
  }
  return {
    wallMs: performance.now() - started,
    cpuMs: ticksToMs(last - ticks0),
    perSecondCpuMs,
    maxChildProcesses,
    rssMb: residentMb(pid),
  }
}

/** `cpuTicks`, 0 for a process gone since it was listed (its CPU shows in its parent's once reaped). */
function ticksOfLive(pid: number): number {
  try {
    return cpuTicks(pid)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
    throw error
  }
}
