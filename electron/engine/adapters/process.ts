import { readdirSync, readFileSync } from 'node:fs'
import { errorText } from '../../../shared/log.ts'
import { childProcess } from './lazy-builtins.ts'

/** Where a failed listing is told; a cleanup that cannot see the processes must say so. */
export type ProcessListingError = (message: string) => void

/** Whether a process exists; EPERM means it exists but belongs to someone else. */
export function isPidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Every descendant of `pid` (children, their children, …), read from one `ps` listing (Linux and macOS).
 * An agent starts its shell commands in sessions of their own, out of its process group: ending the group
 * alone would leave them running once the agent is gone. Empty (and `onError` told) when `ps` cannot run.
 */
export function descendantsOf(pid: number, onError?: ProcessListingError): number[] {
  let listing: string
  try {
    listing = childProcess().execFileSync('ps', ['-A', '-o', 'pid=,ppid='], {
      encoding: 'utf8',
      timeout: 5_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
  } catch (error) {
    onError?.(`ps could not list the processes: ${errorText(error)}`)
    return []
  }
  const children = new Map<number, number[]>()
  for (const line of listing.split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number)
    if (!child || !parent) continue
    const list = children.get(parent) ?? []
    list.push(child)
    children.set(parent, list)
  }
  const found: number[] = []
  const queue = [pid]
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() ?? 0) ?? []) {
      if (found.includes(child)) continue
      found.push(child)
      queue.push(child)
    }
  }
  return found
}

/** The environment variable that marks every process of one agent run (see `processesMarked`). */
export const RUN_MARKER_VAR = 'NAVI_AGENT_RUN'

/**
 * Every process (of this user) whose environment carries `NAVI_AGENT_RUN=<runId>`. An agent's children
 * inherit it, so this finds what the agent started even after it left the agent's tree: a daemon that
 * double-forked, or a command whose shell was ended between a `ps` listing and its exec. Linux reads
 * /proc; elsewhere `ps eww` prints each process's environment after its command.
 */
export function processesMarked(runId: string, onError?: ProcessListingError): number[] {
  const entry = `${RUN_MARKER_VAR}=${runId}`
  if (process.platform === 'linux') return markedInProc(entry, onError)
  let listing: string
  try {
    listing = childProcess().execFileSync('ps', ['eww', '-A', '-o', 'pid=,command='], {
      encoding: 'utf8',
      timeout: 5_000,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
  } catch (error) {
    onError?.(`ps could not list the processes' environments: ${errorText(error)}`)
    return []
  }
  const found: number[] = []
  for (const line of listing.split('\n')) {
    // The id is a random UUID: a command line that merely mentions the variable cannot hold it.
    if (!line.includes(entry)) continue
    const pid = Number(line.trim().split(/\s+/, 1)[0])
    if (pid > 0 && pid !== process.pid) found.push(pid)
  }
  return found
}

function markedInProc(entry: string, onError?: ProcessListingError): number[] {
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch (error) {
    onError?.(`/proc could not be listed: ${errorText(error)}`)
    return []
  }
  const found: number[] = []
  for (const name of names) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue
    let environ: string
    try {
      environ = readFileSync(`/proc/${name}/environ`, 'latin1')
    } catch {
      // Another user's process (EACCES) or one that has just ended (ENOENT): not ours to end.
      continue
    }
    if (environ.startsWith(`${entry}\0`) || environ.includes(`\0${entry}\0`)) found.push(pid)
  }
  return found
}

/** The descendants of `pid` and (given the run's id) every process marked with it, once each. */
export function processesOfRun(
  pid: number,
  runId: string | undefined,
  onError?: ProcessListingError,
): number[] {
  const marked = runId === undefined ? [] : processesMarked(runId, onError)
  return [...new Set([...descendantsOf(pid, onError), ...marked])]
}

/**
 * SIGTERM to the process group `pgid` leads, to every descendant found now, and (given the run's id) to
 * every process marked with it; then SIGKILL to whatever of them is left after `graceMs`. For a process
 * this Navi did not start (an agent that outlived its Navi).
 */
export function endProcessGroup(
  pgid: number,
  opts: { graceMs?: number; runId?: string; onError?: ProcessListingError } = {},
): void {
  const { graceMs = 2_000, runId, onError } = opts
  const tree = processesOfRun(pgid, runId, onError)
  const signal = (name: NodeJS.Signals) => {
    for (const target of [-pgid, ...tree]) {
      try {
        process.kill(target, name)
      } catch {
        // Gone already.
      }
    }
  }
  signal('SIGTERM')
  setTimeout(() => signal('SIGKILL'), graceMs).unref()
}
