/**
 * Delegated tasks: the imperative shell around core/lifecycle.ts. It resolves where a task runs, keeps
 * its record and log on disk (task-store.ts), queues it (one task per project directory, at most
 * `tasks.max_running` at once, across every Navi process: records on disk say who runs what), runs the
 * agent (`claude -p`, stream-json: core/agent-args.ts) in its own process group, feeds each line of its
 * stream to the reducer, and does what the reducer asks: relay a note, run again, kill the group. A
 * heartbeat relays "still working" while a run goes on. Every face uses this one service.
 */
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import type { TaskSettings } from '../../shared/schemas/config.ts'
import {
  ACTIVE_TASK_STATUSES,
  FINISHED_TASK_STATUSES,
  taskStartInputSchema,
  type Task,
  type TaskPreview,
  type TaskStartInput,
} from '../../shared/schemas/task.ts'
import { errorText } from '../../shared/log.ts'
import type { EnginePaths } from '../engine/core/paths.ts'
import { isPidAlive } from '../engine/adapters/process.ts'
import { runAgentProcess } from '../pm/agent-process.ts'
import { claudeTaskArgs, codexTaskArgs } from './core/agent-args.ts'
import { readClaudeStreamLine } from './core/claude-stream.ts'
import { readCodexStreamLine } from './core/codex-stream.ts'
import {
  freshRun,
  heartbeat,
  heartbeatDue,
  startTask,
  stepTask,
  type RunState,
  type Step,
  type TaskEffect,
  type TaskInput,
} from './core/lifecycle.ts'
import { DEFAULT_PLAN_KEYWORDS, planKeywordIn } from './core/relay.ts'
import { taskEvents } from './core/task-events.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import {
  resolveTaskDirectory,
  type Candidate,
  type KnownProject,
} from './core/resolve-directory.ts'
import { createTaskStore, findTask, newTaskId } from './task-store.ts'

export interface TaskServiceDeps {
  paths: EnginePaths
  settings: () => TaskSettings
  /** Navi's projects (with their config aliases), for the resolver. */
  projects: () => KnownProject[]
  /** The agent's environment (the user's). */
  env: Readonly<Record<string, string | undefined>>
  /** The claude binary; rejects with how to install it. */
  claudeBin: () => Promise<string>
  /** The codex binary; rejects with how to install it. */
  codexBin: () => Promise<string>
  /** Relay to the user (a notification, a printed line, …). */
  notify: (task: Task, title: string, body: string) => void
  onChange?: (task: Task) => void
  /** Logs the task's events (started, notes, finished) where every face and the PM see them. */
  record?: (events: EngineEvent[]) => Promise<void>
  /** Let Navi's hook hold this session's permission requests for an answer from Navi. */
  holdRequests?: (sessionId: string) => Promise<void>
  log: { info(message: string): void; error(message: string): void }
  /** @default Date.now */
  clock?: () => number
}

export type StartResult =
  { ok: true; task: Task } | { ok: false; error: string; candidates?: Candidate[] }

export interface ActResult {
  done: boolean
  message: string
  task?: Task
}

export interface TaskService {
  start(input: TaskStartInput): Promise<StartResult>
  /** Where `text` would run and whether it would plan first; nothing is started. */
  preview(text: string): TaskPreview
  reply(idOrPrefix: string, text: string): Promise<ActResult>
  cancel(idOrPrefix: string): Promise<ActResult>
  list(): Promise<Task[]>
  get(idOrPrefix: string): Promise<Task | null>
  /** Resolves when the task no longer works: finished, or waiting for the user. */
  settled(id: string): Promise<Task>
  logPath(id: string): string
  /** Ends the runs of this process (each task `cancelled`), and the heartbeat. */
  stop(): Promise<void>
}

interface LiveTask {
  task: Task
  run: RunState
  abort: AbortController | null
  chain: Promise<unknown>
  waiters: ((task: Task) => void)[]
}

const HEARTBEAT_CHECK_MS = 15_000
/** How often a host looks for a cancel asked by another Navi process (a `<id>.cancel` file). */
const CANCEL_CHECK_MS = 1_000
const LOG_FLUSH_MS = 250

export function createTaskService(deps: TaskServiceDeps): TaskService {
  const clock = deps.clock ?? Date.now
  const iso = () => new Date(clock()).toISOString()
  const store = createTaskStore(deps.paths)
  const live = new Map<string, LiveTask>()
  let stopped = false

  const isSettled = (task: Task) =>
    FINISHED_TASK_STATUSES.has(task.status) ||
    task.status === 'awaiting_clarification' ||
    task.status === 'awaiting_approval'

  /** Runs `make` on the task's current state, in order with every other change of that task. */
  const change = (id: string, make: (entry: LiveTask) => Step): Promise<Step> => {
    const entry = live.get(id)
    if (!entry) return Promise.reject(new Error(`task ${id} is not run by this Navi`))
    const next = entry.chain.then(async () => {
      const before = entry.task
      const step = make(entry)
      if (step.refused) return step
      entry.task = step.task
      entry.run = step.run
      if (step.task !== before) {
        await store.save(step.task)
        deps.onChange?.(step.task)
      }
      if (step.task.status !== before.status) {
        await store.appendLog(id, [
          navLine({ status: step.task.status, why: step.task.status_reason }),
        ])
      }
      const notes = step.effects.flatMap((e) => (e.kind === 'notify' ? [e.body] : []))
      const events = taskEvents(before, step.task, notes, iso())
      if (events.length > 0) await deps.record?.(events).catch(logError(id))
      for (const effect of step.effects) await perform(id, effect)
      if (isSettled(step.task)) {
        for (const resolve of entry.waiters.splice(0)) resolve(step.task)
        if (FINISHED_TASK_STATUSES.has(step.task.status)) live.delete(id)
        void pump()
      }
      return step
    })
    entry.chain = next.catch((error: unknown) => deps.log.error(`task ${id}: ${errorText(error)}`))
    return next
  }
  const apply = (id: string, input: TaskInput) =>
    change(id, (e) => stepTask(e.task, e.run, input, iso()))

  const perform = async (id: string, effect: TaskEffect): Promise<void> => {
    const entry = live.get(id)
    if (!entry) return
    if (effect.kind === 'notify') {
      await store.appendLog(id, [navLine({ note: effect.body, title: effect.title })])
      deps.notify(entry.task, effect.title, effect.body)
    } else if (effect.kind === 'kill') entry.abort?.abort()
    else void launch(id, effect)
  }

  const launch = async (id: string, effect: Extract<TaskEffect, { kind: 'run' }>) => {
    const entry = live.get(id)
    if (!entry) return
    const codex = entry.task.agent === 'codex'
    // Claude Code's session is chosen by Navi; Codex names its thread when it starts.
    const sessionId = codex ? entry.task.session_id : (entry.task.session_id ?? randomUUID())
    const exited = (how: Partial<Extract<TaskInput, { type: 'exited' }>>) =>
      apply(id, {
        type: 'exited',
        exitCode: null,
        signal: null,
        timedOut: null,
        cancelled: false,
        spawnError: null,
        stderrTail: '',
        ...how,
      })
    let bin: string
    try {
      await change(id, (e) => ({
        task: { ...e.task, session_id: sessionId, host_pid: process.pid },
        run: e.run,
        effects: [],
      }))
      if (!existsSync(entry.task.cwd)) throw new Error(`${entry.task.cwd} does not exist`)
      bin = await (codex ? deps.codexBin() : deps.claudeBin())
      if (sessionId !== null) await deps.holdRequests?.(sessionId)
    } catch (error) {
      await exited({ spawnError: errorText(error) })
      return
    }
    const abort = new AbortController()
    entry.abort = abort
    const pending: string[] = []
    const flushLog = () => void store.appendLog(id, pending.splice(0)).catch(logError(id))
    const flusher = setInterval(flushLog, LOG_FLUSH_MS)
    const settings = deps.settings()
    const result = await runAgentProcess({
      bin,
      args: codex
        ? codexTaskArgs(entry.task, {
            threadId: effect.resume ? entry.task.session_id : null,
            planning: effect.planning,
          })
        : claudeTaskArgs(entry.task, {
            sessionId: sessionId ?? randomUUID(),
            resume: effect.resume,
            planning: effect.planning,
          }),
      cwd: entry.task.cwd,
      env: agentEnv(deps.env),
      input: effect.prompt,
      timeoutMs: settings.timeoutMs,
      signal: abort.signal,
      onSpawn: (pid) => void apply(id, { type: 'spawned', pid }),
      onLine: (line) => {
        pending.push(line)
        const events = codex ? readCodexStreamLine(line) : readClaudeStreamLine(line)
        for (const event of events) void apply(id, { type: 'stream', event })
      },
    })
    clearInterval(flusher)
    flushLog()
    entry.abort = null
    await exited({
      exitCode: result.exitCode ?? null,
      signal: result.signal ?? null,
      timedOut: result.timedOut ? `timed out after ${formatMinutes(settings.timeoutMs)}` : null,
      cancelled: result.cancelled,
      spawnError: result.spawnError,
      stderrTail: result.stderr.slice(-2000),
    })
  }

  /** Starts what may start: queued tasks of this process, oldest first, one per directory, within the cap. */
  const pump = async (): Promise<void> => {
    if (stopped) return
    const { tasks } = await store.list()
    const working = tasks.filter((t) => ACTIVE_TASK_STATUSES.has(t.status) && isWorking(t))
    const queued = [...live.values()]
      .map((e) => e.task)
      .filter((t) => t.status === 'queued')
      .sort((a, b) => a.created_at.localeCompare(b.created_at))
    const max = deps.settings().maxRunning
    for (const task of queued) {
      const holder = working.find((t) => t.cwd === task.cwd && t.id !== task.id)
      const reason = holder
        ? `waits for task ${holder.id} in the same directory`
        : working.length >= max
          ? `waits for a free slot (${String(working.length)} of ${String(max)} running)`
          : null
      if (reason !== null) {
        if (task.status_reason !== reason) {
          await change(task.id, (e) => ({
            task: { ...e.task, status_reason: reason, updated_at: iso() },
            run: e.run,
            effects: [],
          }))
        }
        continue
      }
      const step = await change(task.id, (e) => startTask(e.task, iso()))
      working.push(step.task)
    }
  }

  const heartbeatTimer = setInterval(() => {
    const every = deps.settings().heartbeatMs
    for (const entry of live.values()) {
      if (!heartbeatDue(entry.task, clock(), every)) continue
      void change(entry.task.id, (e) => {
        const step = heartbeat(e.task, clock())
        return { ...step, run: e.run }
      }).catch(logError(entry.task.id))
    }
  }, HEARTBEAT_CHECK_MS)
  heartbeatTimer.unref()

  // A cancel asked for in another process (`navi task <id> cancel` beside the `navi run` that hosts it).
  const cancelTimer = setInterval(() => {
    for (const entry of live.values()) {
      if (!ACTIVE_TASK_STATUSES.has(entry.task.status) || !store.cancelAsked(entry.task.id))
        continue
      void store.clearCancel(entry.task.id)
      void apply(entry.task.id, { type: 'cancel' }).catch(logError(entry.task.id))
    }
  }, CANCEL_CHECK_MS)
  cancelTimer.unref()

  /** A task record of this process, or one on disk it may take over (its host is gone). */
  const adopt = async (
    idOrPrefix: string,
  ): Promise<LiveTask | { error: string; elsewhere?: Task }> => {
    const { tasks } = await store.list()
    const found = findTask(tasks, idOrPrefix)
    if ('error' in found) return found
    const mine = live.get(found.task.id)
    if (mine) return mine
    const host = found.task.host_pid
    if (
      ACTIVE_TASK_STATUSES.has(found.task.status) &&
      isWorking(found.task) &&
      host !== process.pid
    ) {
      return { error: `task ${found.task.id} is run by another Navi (pid ${String(host)})` }
    }
    const entry: LiveTask = {
      task: found.task,
      run: freshRun(),
      abort: null,
      chain: Promise.resolve(),
      waiters: [],
    }
    live.set(found.task.id, entry)
    return entry
  }

  const list = async (): Promise<Task[]> => {
    const { tasks, problems } = await store.list()
    for (const problem of problems) deps.log.error(`a task record is skipped: ${problem}`)
    return tasks.map((t) => live.get(t.id)?.task ?? t)
  }
  const settled = (id: string): Promise<Task> => {
    const entry = live.get(id)
    if (entry && !isSettled(entry.task)) {
      return new Promise((resolve) => entry.waiters.push(resolve))
    }
    if (entry) return Promise.resolve(entry.task)
    return store.load(id).then((task) => {
      if (!task) throw new Error(`no task ${id}`)
      return task
    })
  }

  const preview = (text: string): TaskPreview => {
    const settings = deps.settings()
    const resolution = resolveTaskDirectory({
      text,
      projects: deps.projects(),
      rules: settings.rules,
      fallback: settings.defaultDir,
    })
    return {
      dir: resolution.kind === 'resolved' ? resolution.dir : null,
      project: resolution.kind === 'resolved' ? resolution.project : null,
      why: resolution.kind === 'resolved' ? resolution.why : null,
      candidates: resolution.kind === 'ambiguous' ? resolution.candidates : [],
      plan_keyword: planKeywordIn(text, settings.planKeywords ?? DEFAULT_PLAN_KEYWORDS),
    }
  }

  return {
    list,
    settled,
    preview,
    async start(raw) {
      const input = taskStartInputSchema.parse(raw)
      const settings = deps.settings()
      if (input.cwd !== undefined && !isAbsolute(input.cwd)) {
        return { ok: false, error: `--cwd ${input.cwd}: give an absolute directory` }
      }
      const resolution = resolveTaskDirectory({
        text: input.text,
        project: input.project,
        cwd: input.cwd,
        projects: deps.projects(),
        rules: settings.rules,
        fallback: settings.defaultDir,
      })
      if (resolution.kind === 'none') {
        return { ok: false, error: `which project? ${resolution.reason}` }
      }
      if (resolution.kind === 'ambiguous') {
        const names = resolution.candidates.map((c) => c.project ?? c.dir).join(', ')
        return {
          ok: false,
          error: `which project? the task could run in ${names}`,
          candidates: resolution.candidates,
        }
      }
      const keywords = settings.planKeywords ?? DEFAULT_PLAN_KEYWORDS
      const now = iso()
      const task: Task = {
        id: newTaskId(),
        text: input.text,
        agent: input.agent,
        model: input.model ?? settings.model,
        cwd: resolution.dir,
        project: resolution.project,
        resolved_by: resolution.why,
        plan: input.plan ?? planKeywordIn(input.text, keywords) !== null,
        plan_approved: false,
        permission_mode: input.permission_mode ?? settings.permissionMode,
        allowed_tools: settings.allowedTools,
        skip_permissions: input.skip_permissions,
        status: 'queued',
        status_reason: null,
        created_at: now,
        updated_at: now,
        started_at: null,
        ended_at: null,
        // Chosen now (`claude --session-id`): the task and its session are linked before it runs.
        session_id: input.agent === 'claude' ? randomUUID() : null,
        pid: null,
        host_pid: process.pid,
        run_started_at: null,
        runs: 0,
        turns: 0,
        tokens: { input: 0, output: 0, cache_read: 0, cache_creation: 0, total: 0 },
        cost_usd: 0,
        question: null,
        plan_text: null,
        notes: [],
        result: null,
        heartbeat_at: null,
      }
      await store.save(task)
      await store.appendLog(task.id, [
        navLine({ created: task.text, cwd: task.cwd, by: task.resolved_by }),
      ])
      live.set(task.id, {
        task,
        run: freshRun(),
        abort: null,
        chain: Promise.resolve(),
        waiters: [],
      })
      deps.onChange?.(task)
      await pump()
      return { ok: true, task: live.get(task.id)?.task ?? task }
    },

    async reply(idOrPrefix, text) {
      const entry = await adopt(idOrPrefix)
      if ('error' in entry) return { done: false, message: entry.error }
      const step = await apply(entry.task.id, { type: 'reply', text })
      if (step.refused) return { done: false, message: step.refused, task: step.task }
      const what =
        step.task.status === 'cancelled'
          ? 'plan rejected'
          : step.task.status === 'implementing'
            ? 'plan approved'
            : 'replied'
      return {
        done: true,
        message: `${what}: task ${step.task.id} is ${step.task.status}`,
        task: step.task,
      }
    },

    async cancel(idOrPrefix) {
      const entry = await adopt(idOrPrefix)
      if ('error' in entry && entry.elsewhere) {
        await store.askCancel(entry.elsewhere.id)
        return {
          done: true,
          message: `asked the Navi that runs task ${entry.elsewhere.id} to cancel it`,
          task: entry.elsewhere,
        }
      }
      if ('error' in entry) return { done: false, message: entry.error }
      const step = await apply(entry.task.id, { type: 'cancel' })
      if (step.refused) return { done: false, message: step.refused, task: step.task }
      return { done: true, message: `cancelling task ${step.task.id}`, task: step.task }
    },

    async get(idOrPrefix) {
      const found = findTask(await list(), idOrPrefix)
      return 'task' in found ? found.task : null
    },

    logPath: (id) => store.logPath(id),

    async stop() {
      stopped = true
      clearInterval(heartbeatTimer)
      clearInterval(cancelTimer)
      const running = [...live.values()].filter((e) => ACTIVE_TASK_STATUSES.has(e.task.status))
      for (const entry of running) entry.abort?.abort()
      await Promise.all(running.map((e) => settled(e.task.id).catch(() => undefined)))
    },
  }

  function logError(id: string) {
    return (error: unknown) => deps.log.error(`task ${id}: ${errorText(error)}`)
  }
}

/** A task some process still works on: its agent or its host lives. */
function isWorking(task: Task): boolean {
  return (
    (task.pid !== null && isPidAlive(task.pid)) ||
    (task.host_pid !== null && isPidAlive(task.host_pid))
  )
}

/** Navi's own line in a task's log. */
function navLine(fields: Record<string, unknown>): string {
  return JSON.stringify({ navi: true, at: new Date().toISOString(), ...fields })
}

/** The user's environment for the agent; a task's run never starts an update of the CLI under it. */
function agentEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value
  return { ...out, DISABLE_AUTOUPDATER: out.DISABLE_AUTOUPDATER ?? '1' }
}

function formatMinutes(ms: number): string {
  if (ms < 60_000) return `${String(Math.round(ms / 1000))}s`
  return ms >= 3_600_000 && ms % 3_600_000 === 0
    ? `${String(ms / 3_600_000)}h`
    : `${String(Math.round(ms / 60_000))}m`
}
