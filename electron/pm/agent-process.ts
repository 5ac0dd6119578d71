/**
 * One agent CLI process (`claude` for a PM run; `claude` or `codex` for a delegated task): stdin from a
 * string, stdout line by line as it arrives, a hard timeout (or a cancel) that kills the whole process
 * group, and a result that never rejects. The CLI is started in its own process group (`detached`), so a
 * timeout, a cancel, or Navi exiting, also ends anything it spawned.
 */
import { loadExeca } from '../engine/adapters/execa-lazy.ts'
import { descendantsOf } from '../engine/adapters/process.ts'

export interface AgentProcessOptions {
  bin: string
  args: string[]
  cwd: string
  /** The complete environment (nothing of Navi's is added). */
  env: Record<string, string>
  /** Written to stdin, which is then closed. */
  input: string
  /** The group gets SIGTERM after this long, then SIGKILL after `killGraceMs`. */
  timeoutMs: number
  /** @default 2000 */
  killGraceMs?: number
  /** Each stdout line as soon as it is complete. */
  onLine?: (line: string) => void
  /** The pid, right after the spawn. */
  onSpawn?: (pid: number) => void
  /** Aborting ends the group as the timeout does (SIGTERM, then SIGKILL); the result says `cancelled`. */
  signal?: AbortSignal
}

export interface AgentProcessResult {
  pid: number | undefined
  /** Undefined when killed by a signal or never started. */
  exitCode: number | undefined
  signal: string | undefined
  stdout: string
  stderr: string
  timedOut: boolean
  /** Ended by `signal`. */
  cancelled: boolean
  /** Set when the binary could not be started at all (ENOENT, EACCES, …). */
  spawnError: string | null
  durationMs: number
}

const MAX_OUTPUT_BYTES = 64 * 1024 * 1024

/** Runs the CLI to completion (or to its timeout); never rejects. */
export async function runAgentProcess(opts: AgentProcessOptions): Promise<AgentProcessResult> {
  const started = Date.now()
  const onLine = opts.onLine
  const { execa } = await loadExeca()
  const subprocess = execa(opts.bin, opts.args, {
    cwd: opts.cwd,
    env: opts.env,
    extendEnv: false,
    input: opts.input,
    reject: false,
    detached: true,
    // execa's cleanup does not apply to detached processes; `exitHook` below does it.
    cleanup: false,
    maxBuffer: MAX_OUTPUT_BYTES,
    stdout: onLine
      ? {
          transform: function* (line: unknown) {
            if (typeof line === 'string') onLine(line)
            yield line
          },
        }
      : 'pipe',
  })
  const pid = subprocess.pid
  if (pid !== undefined) opts.onSpawn?.(pid)

  const killGroup = (signal: NodeJS.Signals): void => {
    if (pid === undefined) return
    try {
      // A negative pid signals the whole process group the detached CLI leads.
      process.kill(-pid, signal)
    } catch {
      // No such group (already gone, or the CLI did not lead one): signal the child itself instead.
      subprocess.kill(signal)
    }
  }
  let timedOut = false
  let cancelled = false
  let graceTimer: NodeJS.Timeout | undefined
  /**
   * The group, and every descendant found before the signal: the CLI runs its shell commands in sessions
   * of their own, which a group signal misses, and which outlive a CLI that is SIGKILLed first.
   */
  let tree: number[] = []
  const endGroup = (): void => {
    if (graceTimer !== undefined) return
    tree = pid === undefined ? [] : descendantsOf(pid)
    killGroup('SIGTERM')
    signalEach(tree, 'SIGTERM')
    graceTimer = setTimeout(() => {
      killGroup('SIGKILL')
      signalEach(tree, 'SIGKILL')
    }, opts.killGraceMs ?? 2000)
  }
  const timer = setTimeout(() => {
    timedOut = true
    endGroup()
  }, opts.timeoutMs)
  const onAbort = (): void => {
    cancelled = true
    endGroup()
  }
  if (opts.signal?.aborted) onAbort()
  else opts.signal?.addEventListener('abort', onAbort, { once: true })
  const exitHook = (): void => {
    const left = pid === undefined ? [] : descendantsOf(pid)
    killGroup('SIGKILL')
    signalEach(left, 'SIGKILL')
  }
  process.once('exit', exitHook)

  try {
    const result = await subprocess
    const spawnError =
      result.failed &&
      result.exitCode === undefined &&
      result.signal === undefined &&
      !timedOut &&
      !cancelled
        ? (result.shortMessage ?? 'claude could not be started')
        : null
    return {
      pid,
      exitCode: result.exitCode,
      signal: result.signal,
      stdout: String(result.stdout ?? ''),
      stderr: String(result.stderr ?? ''),
      timedOut,
      cancelled,
      spawnError,
      durationMs: Date.now() - started,
    }
  } finally {
    clearTimeout(timer)
    opts.signal?.removeEventListener('abort', onAbort)
    // Leftovers of the group get the SIGKILL too.
    if (graceTimer !== undefined) {
      clearTimeout(graceTimer)
      if (pid !== undefined && groupExists(pid)) killGroup('SIGKILL')
      // The CLI is gone; what it started and left behind goes with it.
      signalEach(tree, 'SIGKILL')
    }
    process.off('exit', exitHook)
  }
}

function signalEach(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const target of pids) {
    try {
      process.kill(target, signal)
    } catch {
      // Already gone.
    }
  }
}

function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    // ESRCH is the answer asked for: nothing of the group is left.
    return false
  }
}
