import { childProcess } from './lazy-builtins.ts'

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
 * alone would leave them running once the agent is gone. Empty when `ps` cannot run.
 */
export function descendantsOf(pid: number): number[] {
  let listing: string
  try {
    listing = childProcess().execFileSync('ps', ['-A', '-o', 'pid=,ppid='], {
      encoding: 'utf8',
      timeout: 5_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
  } catch {
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

/**
 * SIGTERM to the process group `pgid` leads and to every descendant found now, then SIGKILL to whatever of
 * them is left after `graceMs`. For a process this Navi did not start (an agent that outlived its Navi).
 */
export function endProcessGroup(pgid: number, graceMs = 2_000): void {
  const tree = descendantsOf(pgid)
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
