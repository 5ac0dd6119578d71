/**
 * One run of a task's agent: the binary and arguments for its agent (core/agent-args.ts), the prompt on
 * stdin, the stream read line by line (core/claude-stream.ts, core/codex-stream.ts), and how it ended as
 * the reducer's `exited` input. Never throws: what prevents the run is its spawn error.
 */
import { existsSync } from 'node:fs'
import type { Task } from '../../shared/schemas/task.ts'
import { errorText } from '../../shared/log.ts'
import { runAgentProcess } from '../pm/agent-process.ts'
import { claudeTaskArgs, codexTaskArgs } from './core/agent-args.ts'
import { readClaudeStreamLine, type AgentStreamEvent } from './core/claude-stream.ts'
import { readCodexStreamLine } from './core/codex-stream.ts'
import type { TaskEffect, TaskInput } from './core/task-step.ts'

export type Exited = Extract<TaskInput, { type: 'exited' }>

export interface AgentRunDeps {
  claudeBin: () => Promise<string>
  codexBin: () => Promise<string>
  env: Readonly<Record<string, string | undefined>>
  timeoutMs: number
  /** Let Navi's hook hold the session's permission requests for an answer from Navi. */
  holdRequests?: (sessionId: string) => Promise<void>
  /** Where ending the agent says it could not list its processes. */
  log?: { error(message: string): void }
}

export const exitedWith = (how: Partial<Exited>): Exited => ({
  type: 'exited',
  exitCode: null,
  signal: null,
  timedOut: null,
  cancelled: false,
  spawnError: null,
  stderrTail: '',
  ...how,
})

export async function runTaskAgent(opts: {
  /** The task, its session id already chosen (claude) or learnt (codex, after its first run). */
  task: Task
  effect: Extract<TaskEffect, { kind: 'run' }>
  deps: AgentRunDeps
  signal: AbortSignal
  onSpawn: (pid: number) => void
  /** Each line as it came (for the log), with what it means. */
  onLine: (line: string, events: AgentStreamEvent[]) => void
}): Promise<Exited> {
  const { task, effect, deps } = opts
  const codex = task.agent === 'codex'
  let bin: string
  try {
    if (!existsSync(task.cwd)) throw new Error(`${task.cwd} does not exist`)
    bin = await (codex ? deps.codexBin() : deps.claudeBin())
    if (task.session_id !== null) await deps.holdRequests?.(task.session_id)
  } catch (error) {
    return exitedWith({ spawnError: errorText(error) })
  }
  const args = codex
    ? codexTaskArgs(task, {
        threadId: effect.resume ? task.session_id : null,
        planning: effect.planning,
      })
    : claudeTaskArgs(task, {
        sessionId: task.session_id ?? '',
        resume: effect.resume,
        planning: effect.planning,
      })
  const result = await runAgentProcess({
    bin,
    args,
    cwd: task.cwd,
    env: agentEnv(deps.env),
    runId: taskRunId(task.id),
    log: deps.log,
    input: effect.prompt,
    timeoutMs: deps.timeoutMs,
    signal: opts.signal,
    onSpawn: opts.onSpawn,
    onLine: (line) =>
      opts.onLine(line, codex ? readCodexStreamLine(line) : readClaudeStreamLine(line)),
  })
  return exitedWith({
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    timedOut: result.timedOut ? `timed out after ${formatDuration(deps.timeoutMs)}` : null,
    cancelled: result.cancelled,
    spawnError: result.spawnError,
    stderrTail: result.stderr.slice(-2000),
  })
}

/**
 * What marks the processes of a task's agent (`NAVI_AGENT_RUN`): the same for each of its runs, so a Navi
 * that cancels a task whose own Navi is gone finds them from the record alone.
 */
export const taskRunId = (taskId: string): string => `task-${taskId}`

/** The user's environment for the agent; a task's run never starts an update of the CLI under it. */
function agentEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value
  return { ...out, DISABLE_AUTOUPDATER: out.DISABLE_AUTOUPDATER ?? '1' }
}

function formatDuration(ms: number): string {
  if (ms < 60_000) return `${String(Math.round(ms / 1000))}s`
  return ms >= 3_600_000 && ms % 3_600_000 === 0
    ? `${String(ms / 3_600_000)}h`
    : `${String(Math.round(ms / 60_000))}m`
}
