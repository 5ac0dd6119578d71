/**
 * One agent CLI process (`claude` for a PM run; `claude` or `codex` for a delegated task): stdin from a
 * string, stdout line by line as it arrives, a hard timeout (or a cancel) that kills the whole process
 * group, and a result that never rejects. The CLI is started in its own process group (`detached`), so a
 * timeout, a cancel, or Navi exiting, also ends anything it spawned.
 */
import { randomUUID } from 'node:crypto'
import type { Log } from '../../shared/log.ts'
import { loadExeca } from '../engine/adapters/execa-lazy.ts'
import { processesMarked, processesOfRun, RUN_MARKER_VAR } from '../engine/adapters/process.ts'

export interface AgentProcessOptions {
  bin: string
  args: string[]
  cwd: string
  /**
   * The complete environment. Navi adds one variable, `NAVI_AGENT_RUN=<runId>`: every process the CLI
   * starts inherits it, so an end finds them even once they have left the CLI's process tree.
   */
  env: Record<string, string>
  /** Marks this run's processes. @default a random UUID */
  runId?: string
  /** Where a cleanup that could not list the processes says so. */
  log?: Pick<Log, 'error'>
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
  const runId = opts.runId ?? randomUUID()
  const subprocess = execa(opts.bin, opts.args, {
    cwd: opts.cwd,
    env: { ...opts.env, [RUN_MARKER_VAR]: runId },
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
   * Besides the group: every descendant found before the signal, and every process carrying the run's
   * mark. The CLI runs its shell commands in sessions of their own, which a group signal misses and which
   * outlive a CLI that is SIGKILLed first; the mark also finds a command whose shell was between fork and
   * exec when the descendants were listed, and one that daemonised.
   */
  let tree: number[] = []
  const tell = (message: string): void => opts.log?.error(`ending run ${runId}: ${message}`)
  const runProcesses = (): number[] => (pid === undefined ? [] : processesOfRun(pid, runId, tell))
  const endGroup = (): void => {
    if (graceTimer !== undefined) return
    tree = runProcesses()
    killGroup('SIGTERM')
    signalEach(tree, 'SIGTERM')
    graceTimer = setTimeout(() => {
      killGroup('SIGKILL')
      // Whatever is left, including what started since the listing (the CLI may be gone by now).
      signalEach([...new Set([...tree, ...processesMarked(runId, tell)])], 'SIGKILL')
      process.off('exit', exitHook)
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
    const left = runProcesses()
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
    // Ended by us: what the CLI left behind keeps the rest of its grace to finish on the SIGTERM (a shell
    // running its exit trap, a server removing its pid file); the grace timer then SIGKILLs what is left,
    // and the exit hook stays until then. The result does not wait for it.
    if (graceTimer === undefined) process.off('exit', exitHook)
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
