/**
 * The running half of the task service: the tasks this Navi process hosts, each changed in order through
 * the reducer (core/lifecycle.ts) with the record saved, the events logged and the effects done (relay a
 * note, run the agent: agent-run.ts, kill its group); the queue (one task per project directory, at most
 * `tasks.max_running` at once across every Navi process); the heartbeat; and a cancel asked from another
 * process (a `<id>.cancel` file).
 */
import { randomUUID } from 'node:crypto'
import {
  ACTIVE_TASK_STATUSES,
  FINISHED_TASK_STATUSES,
  type Task,
} from '../../shared/schemas/task.ts'
import { errorText } from '../../shared/log.ts'
import { isPidAlive } from '../engine/adapters/process.ts'
import { runTaskAgent } from './agent-run.ts'
import { startTask, stepTask } from './core/lifecycle.ts'
import {
  freshRun,
  type RunState,
  type Step,
  type TaskEffect,
  type TaskInput,
} from './core/task-step.ts'
import { taskEvents } from './core/task-events.ts'
import { heartbeat, heartbeatDue } from './core/heartbeat.ts'
import type { TaskServiceDeps } from './index.ts'
import type { TaskStore } from './task-store.ts'

export interface LiveTask {
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

export type TaskHost = ReturnType<typeof createTaskHost>

export function createTaskHost(deps: TaskServiceDeps, store: TaskStore) {
  const clock = deps.clock ?? Date.now
  const iso = () => new Date(clock()).toISOString()
  const live = new Map<string, LiveTask>()
  /** Tasks whose agent outlived its Navi: followed until it ends. */
  const outlived = new Map<string, Task>()
  const newEntry = (task: Task): LiveTask => ({
    task,
    run: freshRun(),
    abort: null,
    chain: Promise.resolve(),
    waiters: [],
  })
  let stopped = false
  /** Set by the service: reconciles the records when an outliving agent ended. */
  let onOutlivedEnded: () => void = () => undefined
  /** Set by the service: takes over tasks handed off to this Navi. */
  let onHandoff: (ids: string[]) => void = () => undefined
  const claimed = deps.adoptQueued
    ? store.claimHost(process.pid).catch(logError('host'))
    : Promise.resolve()

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
        void pump().catch(logError('queue'))
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
    // A run's failures are the task's (its exit); one that escapes (a full disk) is logged, never thrown.
    else void launch(id, effect).catch(logError(id))
  }

  const launch = async (id: string, effect: Extract<TaskEffect, { kind: 'run' }>) => {
    const entry = live.get(id)
    if (!entry) return
    // Claude Code's session is chosen by Navi; Codex names its thread when it starts.
    const sessionId =
      entry.task.agent === 'codex' ? entry.task.session_id : (entry.task.session_id ?? randomUUID())
    await change(id, (e) => ({
      task: { ...e.task, session_id: sessionId, host_pid: process.pid },
      run: e.run,
      effects: [],
    }))
    const abort = new AbortController()
    entry.abort = abort
    const pending: string[] = []
    const flushLog = () => void store.appendLog(id, pending.splice(0)).catch(logError(id))
    const flusher = setInterval(flushLog, LOG_FLUSH_MS)
    const exited = await runTaskAgent({
      task: entry.task,
      effect,
      deps: { ...deps, timeoutMs: deps.settings().timeoutMs },
      signal: abort.signal,
      onSpawn: (pid) => void apply(id, { type: 'spawned', pid }).catch(logError(id)),
      onLine: (line, events) => {
        pending.push(line)
        for (const event of events) {
          void apply(id, { type: 'stream', event }).catch(logError(id))
        }
      },
    })
    clearInterval(flusher)
    flushLog()
    entry.abort = null
    await apply(id, exited)
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
      // Decided again in order: two pumps at once (a start and a task ending) never start it twice.
      const step = await change(task.id, (e) =>
        e.task.status === 'queued'
          ? startTask(e.task, iso())
          : { task: e.task, run: e.run, effects: [] },
      )
      working.push(step.task)
    }
  }

  const heartbeatTimer = setInterval(() => {
    const every = deps.settings().heartbeatMs
    for (const entry of live.values()) {
      if (!heartbeatDue(entry.task, clock(), every)) continue
      // Decided again in order with the task's other changes: a tick that comes before the last beat is
      // recorded must not beat twice.
      void change(entry.task.id, (e) =>
        heartbeatDue(e.task, clock(), every)
          ? { ...heartbeat(e.task, clock()), run: e.run }
          : { task: e.task, run: e.run, effects: [] },
      ).catch(logError(entry.task.id))
    }
  }, deps.heartbeatCheckMs ?? HEARTBEAT_CHECK_MS)
  heartbeatTimer.unref()

  // A cancel asked for in another process (`navi task <id> cancel` beside the `navi run` that hosts it).
  const cancelTimer = setInterval(() => {
    // An agent that outlived its Navi ended: what is known is recorded (list() reconciles it).
    if ([...outlived.values()].some((t) => t.pid === null || !isPidAlive(t.pid))) {
      outlived.clear()
      onOutlivedEnded()
    }
    // Tasks `navi run --detach` handed to this Navi.
    if (deps.adoptQueued) {
      void store
        .takeHandoffs()
        .then((ids) => ids.length > 0 && onHandoff(ids))
        .catch(logError('handoff'))
    }
    for (const entry of live.values()) {
      if (!ACTIVE_TASK_STATUSES.has(entry.task.status) || !store.cancelAsked(entry.task.id))
        continue
      void store.clearCancel(entry.task.id).catch(logError(entry.task.id))
      void apply(entry.task.id, { type: 'cancel' }).catch(logError(entry.task.id))
    }
  }, CANCEL_CHECK_MS)
  cancelTimer.unref()

  function logError(id: string) {
    return (error: unknown) => deps.log.error(`task ${id}: ${errorText(error)}`)
  }

  return {
    live,
    outlived,
    newEntry,
    change,
    apply,
    pump,
    iso,
    isSettled,
    logError,
    whenOutlivedEnds(run: () => void) {
      onOutlivedEnded = run
    },
    whenHandedOff(run: (ids: string[]) => void) {
      onHandoff = run
    },
    get stopped() {
      return stopped
    },
    async stop() {
      stopped = true
      clearInterval(heartbeatTimer)
      clearInterval(cancelTimer)
      await claimed
      if (deps.adoptQueued) await store.releaseHost(process.pid).catch(logError('host'))
    },
  }
}

/** A task some process still works on: its agent or its host lives. */
export function isWorking(task: Task): boolean {
  return (
    (task.pid !== null && isPidAlive(task.pid)) ||
    (task.host_pid !== null && isPidAlive(task.host_pid))
  )
}

/** Navi's own line in a task's log. */
export function navLine(fields: Record<string, unknown>): string {
  return JSON.stringify({ navi: true, at: new Date().toISOString(), ...fields })
}
