/**
 * `navi run "<task>"`, `navi tasks` and `navi task <id> [reply "…" | approve | reject | cancel]`: a task
 * delegated from the terminal. `run`, `reply`, `approve` and `reject` host the agent in this process and
 * print what it relays until the task is done or waits for the user (then say how to answer); Ctrl-C
 * cancels it (SIGTERM to its process group, then SIGKILL). The record stays in `$NAVI_HOME/tasks/`, so the
 * answer can come later, from this terminal or another face.
 */
import { readFile } from 'node:fs/promises'
import type { Task } from '../../shared/schemas/task.ts'
import { clipText, inertBlock, inertLine } from '../../shared/text.ts'
import type { EnginePaths } from '../runtime/index.ts'
import { createCliRuntime } from './cli-runtime.ts'
import type { TaskService } from '../runtime/tasks.ts'
import { formatAgo } from './format.ts'
import { printErr, printOut, untilStopSignal, type Print } from './output.ts'

export interface RunOptions {
  project?: string | undefined
  cwd?: string | undefined
  plan?: boolean | undefined
  agent?: string | undefined
  model?: string | undefined
  permissionMode?: string | undefined
  skipPermissions: boolean
  /** Hand the task to the running tray or `navi serve` instead of running it here. */
  detach: boolean
}

/**
 * A runtime with the task service. `refresh`: one engine cycle first, for the resolver, which needs Navi's
 * projects (`navi run`); reading, answering or cancelling a task needs only its record on disk.
 */
async function withTasks<T>(
  paths: EnginePaths,
  json: boolean,
  use: (tasks: TaskService) => Promise<T>,
  refresh = false,
): Promise<T> {
  const runtime = await createCliRuntime({
    paths,
    mode: 'once',
    pm: false,
    tasks: true,
    onTaskNote: (_task, title, body) => {
      if (!json) printOut(`» ${inertLine(title)}: ${inertBlock(body)}`)
    },
  })
  try {
    if (refresh) await runtime.start()
    if (!runtime.tasks) throw new Error('the task service did not start')
    return await use(runtime.tasks)
  } finally {
    await runtime.stop()
  }
}

export async function runCommand(
  paths: EnginePaths,
  text: string,
  opts: RunOptions,
  json: boolean,
  print: Print,
): Promise<number> {
  if (opts.agent !== undefined && opts.agent !== 'claude' && opts.agent !== 'codex') {
    printErr('navi: --agent is claude or codex')
    return 2
  }
  return withTasks(
    paths,
    json,
    async (tasks) => {
      const started = await tasks.start(
        {
          text,
          ...(opts.project !== undefined && { project: opts.project }),
          ...(opts.cwd !== undefined && { cwd: opts.cwd }),
          ...(opts.plan !== undefined && { plan: opts.plan }),
          ...(opts.agent !== undefined && { agent: opts.agent as 'claude' | 'codex' }),
          ...(opts.model !== undefined && { model: opts.model }),
          ...(opts.permissionMode !== undefined && {
            permission_mode: opts.permissionMode as 'default',
          }),
          skip_permissions: opts.skipPermissions,
        },
        { handOff: opts.detach },
      )
      if (!started.ok) {
        const choices = (started.candidates ?? [])
          .map((c) => `\n  --project ${inertLine(c.project ?? c.dir)}   (${inertLine(c.why)})`)
          .join('')
        print(started, `navi: ${inertLine(started.error)}${choices}`)
        return 2
      }
      if (opts.detach) {
        const host = tasks.hostRunning()
        print(
          { ...started.task, host_pid: host },
          `${startedLine(started.task)}\n${
            host === null
              ? 'No tray or navi serve runs now: it starts when one does (or run it here, without --detach).'
              : `Handed to the running Navi (pid ${String(host)}): it starts there, and relays from there. Follow it: navi task ${started.task.id}`
          }`,
        )
        return 0
      }
      if (!json) printOut(startedLine(started.task))
      return follow(tasks, started.task.id, json, print)
    },
    true,
  )
}

export async function taskCommand(
  paths: EnginePaths,
  args: string[],
  json: boolean,
  print: Print,
  withLog = false,
): Promise<number> {
  const [ref, action, ...rest] = args
  if (!ref) {
    printErr('usage: navi task <id> [reply "…" | approve | reject | cancel]')
    return 2
  }
  return withTasks(paths, json, async (tasks) => {
    if (action === undefined) {
      const task = await tasks.get(ref)
      if (!task) return fail(print, `no task "${inertLine(ref)}" (see navi tasks)`)
      const log = withLog ? await logTail(tasks.logPath(task.id)) : null
      print(
        log === null ? task : { ...task, log },
        describeTask(task, tasks.logPath(task.id)) +
          (log === null ? '' : `\n${inertBlock(log.join('\n'))}`),
      )
      return 0
    }
    if (action === 'cancel') {
      const result = await tasks.cancel(ref)
      print(result, inertLine(result.message))
      if (result.done && result.task) await tasks.settled(result.task.id).catch(() => undefined)
      return result.done ? 0 : 1
    }
    const text =
      action === 'approve' ? 'approve' : action === 'reject' ? 'reject' : rest.join(' ').trim()
    if (action !== 'reply' && action !== 'approve' && action !== 'reject') {
      printErr(`navi: unknown task action "${inertLine(action)}": reply, approve, reject or cancel`)
      return 2
    }
    if (text === '') {
      printErr('usage: navi task <id> reply "your answer"')
      return 2
    }
    const result = await tasks.reply(ref, text)
    if (!result.done || !result.task) return fail(print, result.message)
    if (!json) printOut(inertLine(result.message))
    return follow(tasks, result.task.id, json, print)
  })
}

export async function tasksCommand(paths: EnginePaths, print: Print): Promise<number> {
  return withTasks(paths, true, async (tasks) => {
    const list = await tasks.list()
    const now = Date.now()
    const lines = list.map(
      (t) =>
        `${t.id}  ${t.status.padEnd(22)}  ${inertLine(t.project ?? t.cwd).padEnd(16)}  ${formatAgo(t.created_at, now).padEnd(8)}  ${clipText(t.text, 60)}`,
    )
    print(
      { tasks: list },
      lines.length === 0 ? 'No tasks. Start one: navi run "…"' : lines.join('\n'),
    )
    return 0
  })
}

/** Waits (Ctrl-C cancels) until the task is done or waits for the user; prints where it stands. */
async function follow(
  tasks: TaskService,
  id: string,
  json: boolean,
  print: Print,
): Promise<number> {
  let interrupted = false
  const onSignal = untilStopSignal().then(async () => {
    interrupted = true
    if (!json) printOut('cancelling…')
    await tasks.cancel(id)
  })
  void onSignal
  const task = await tasks.settled(id)
  print(task, endLine(task))
  if (task.status === 'failed') return 1
  if (task.status === 'cancelled') return interrupted ? 130 : 0
  return 0
}

function startedLine(task: Task): string {
  const where = `${inertLine(task.project ?? task.cwd)} (${inertLine(task.resolved_by)})`
  const mode = task.skip_permissions
    ? '; EVERY PERMISSION CHECK IS OFF for this task (--dangerously-skip-permissions)'
    : task.permission_mode
      ? `; permission mode ${task.permission_mode}`
      : ''
  const queued =
    task.status === 'queued' && task.status_reason
      ? ` — queued: ${inertLine(task.status_reason)}`
      : ''
  return `task ${task.id} in ${where}${task.plan ? ', planning first' : ''}${mode}${queued}`
}

function endLine(task: Task): string {
  const spent = `${String(task.turns)} turns, ${String(task.tokens.total)} tokens, $${task.cost_usd.toFixed(4)}`
  switch (task.status) {
    case 'awaiting_clarification':
      return `task ${task.id} asks: ${inertBlock(task.question ?? '')}\nanswer: navi task ${task.id} reply "…"`
    case 'awaiting_approval':
      return `task ${task.id} waits for its plan to be approved:\n${inertBlock(task.plan_text ?? '')}\nnavi task ${task.id} approve | reject | reply "a question"`
    case 'completed':
      return `task ${task.id} completed (${spent})`
    default:
      return `task ${task.id} ${task.status}: ${inertLine(task.status_reason ?? '')} (${spent})`
  }
}

function describeTask(task: Task, logPath: string): string {
  const lines = [
    `task ${task.id}: ${task.status}${task.status_reason ? ` (${inertLine(task.status_reason)})` : ''}`,
    `  ${inertBlock(clipText(task.text, 500))}`,
    `  in ${inertLine(task.cwd)} (${inertLine(task.resolved_by)}), agent ${task.agent}${task.plan ? ', plan first' : ''}`,
    `  session ${task.session_id ?? '—'}, ${elapsed(task)}, ${String(task.runs)} run(s), ${String(task.turns)} turns, ${String(task.tokens.total)} tokens, $${task.cost_usd.toFixed(4)}`,
  ]
  if (task.question) lines.push(`  asks: ${inertBlock(task.question)}`)
  if (task.plan_text) lines.push(`  plan: ${inertBlock(task.plan_text)}`)
  for (const note of task.notes.slice(-10))
    lines.push(`  ${note.at.slice(11, 19)}  ${inertBlock(note.text)}`)
  lines.push(`  log: ${inertLine(logPath)}`)
  return lines.join('\n')
}

const LOG_TAIL_LINES = 200

/** The last lines of a task's log (the agent's stream as it came and Navi's own lines); none yet: []. */
async function logTail(path: string): Promise<string[]> {
  try {
    const lines = (await readFile(path, 'utf8')).split('\n').filter((l) => l.trim() !== '')
    return lines.slice(-LOG_TAIL_LINES)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

/** How long the task has worked (or worked, once it ended): "not started", "12m", "1h 5m". */
function elapsed(task: Task): string {
  if (!task.started_at) return 'not started'
  const end = task.ended_at ? Date.parse(task.ended_at) : Date.now()
  const minutes = Math.max(0, Math.round((end - Date.parse(task.started_at)) / 60_000))
  const time =
    minutes >= 60
      ? `${String(Math.floor(minutes / 60))}h ${String(minutes % 60)}m`
      : `${String(minutes)}m`
  return task.ended_at ? `took ${time}` : `working for ${time}`
}

function fail(print: Print, message: string): number {
  print({ done: false, message }, `navi: ${inertLine(message)}`)
  return 1
}
