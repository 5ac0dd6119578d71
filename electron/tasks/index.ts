/**
 * Delegated tasks, as every face uses them: start one (core/new-task.ts: where it runs, whether it plans
 * first), reply to its question or plan, cancel it, list and read them. The tasks this process runs are
 * hosted by task-host.ts (the reducer, the agent's runs, the queue, the heartbeat); records on disk
 * (task-store.ts) say who runs what across Navi processes, and the ones a stopped Navi left behind are
 * reconciled here (core/orphans.ts): an ended agent recorded, an outliving one followed, a queued one
 * taken over by a Navi that hosts tasks.
 */
import { randomUUID } from 'node:crypto'
import type { TaskSettings } from '../../shared/schemas/config.ts'
import {
  ACTIVE_TASK_STATUSES,
  taskStartInputSchema,
  type Task,
  type TaskPreview,
  type TaskStartInput,
} from '../../shared/schemas/task.ts'
import type { EnginePaths } from '../engine/core/paths.ts'
import { endProcessGroup, isPidAlive } from '../engine/adapters/process.ts'
import { taskRunId } from './agent-run.ts'
import { newTask, previewTask } from './core/new-task.ts'
import { orphanOf } from './core/orphans.ts'
import { taskEvents } from './core/task-events.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { Candidate, KnownProject } from './core/resolve-directory.ts'
import { createTaskStore, findTask, newTaskId } from './task-store.ts'
import { createTaskHost, isWorking, navLine, type LiveTask } from './task-host.ts'

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
  /** Take over tasks queued by a Navi that is gone (a long-running host: the tray, `navi serve`). */
  adoptQueued?: boolean
  log: { info(message: string): void; error(message: string): void }
  /** @default Date.now */
  clock?: () => number
  /** How often a due heartbeat is looked for (tests shorten it). @default 15 s */
  heartbeatCheckMs?: number
}

export type StartResult =
  { ok: true; task: Task } | { ok: false; error: string; candidates?: Candidate[] }

export interface ActResult {
  done: boolean
  message: string
  task?: Task
}

export interface TaskService {
  /**
   * Starts a task here; with `handOff`, only records it for the running Navi that hosts tasks (the tray,
   * `navi serve`), which takes it over within a second (`hostRunning` says whether one runs now).
   */
  start(input: TaskStartInput, opts?: { handOff?: boolean }): Promise<StartResult>
  /** The pid of the running Navi that takes handed-off tasks, or null. */
  hostRunning(): number | null
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

export function createTaskService(deps: TaskServiceDeps): TaskService {
  const store = createTaskStore(deps.paths)
  const host = createTaskHost(deps, store)
  const { live, outlived, newEntry, apply, pump, iso, isSettled, logError } = host
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
      return {
        error: `task ${found.task.id} is run by another Navi (pid ${String(host)})`,
        elsewhere: found.task,
      }
    }
    const entry = newEntry(found.task)
    live.set(found.task.id, entry)
    return entry
  }

  /**
   * Records on disk whose Navi is gone: an ended agent is marked failed, an outliving one is said so
   * (and followed: the cancel timer checks it), a queued one is taken over by a Navi that hosts tasks.
   */
  const reconcile = async (tasks: Task[]): Promise<Task[]> => {
    const out: Task[] = []
    let adopted = false
    for (const task of tasks) {
      const mine = live.get(task.id)?.task
      const orphan = mine
        ? null
        : orphanOf(
            task,
            {
              host: task.host_pid !== null && isPidAlive(task.host_pid),
              agent: task.pid !== null && isPidAlive(task.pid),
            },
            iso(),
          )
      if (
        orphan?.kind === 'queued' &&
        deps.adoptQueued &&
        !host.stopped &&
        (await store.claim(task.id, process.pid))
      ) {
        const entry = newEntry({ ...task, host_pid: process.pid })
        live.set(task.id, entry)
        await store.save(entry.task)
        out.push(entry.task)
        adopted = true
        continue
      }
      if (orphan && orphan.kind !== 'queued' && orphan.task !== task) {
        await store.save(orphan.task)
        if (orphan.kind === 'ended') {
          await deps.record?.(taskEvents(task, orphan.task, [], iso())).catch(logError(task.id))
        }
      }
      if (orphan?.kind === 'outlived') outlived.set(task.id, orphan.task)
      out.push(mine ?? (orphan && orphan.kind !== 'queued' ? orphan.task : task))
    }
    if (adopted) void pump().catch(logError('queue'))
    return out
  }
  const list = async (): Promise<Task[]> => {
    const { tasks, problems } = await store.list()
    for (const problem of problems) deps.log.error(`a task record is skipped: ${problem}`)
    return reconcile(tasks)
  }
  host.whenOutlivedEnds(() => void list().catch(logError('outlived')))
  // A handed-off task has no host: reconciling the records takes it over (adoptQueued).
  host.whenHandedOff(() => void list().catch(logError('handoff')))
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

  return {
    list,
    settled,
    preview: (text) => previewTask(text, deps.settings(), deps.projects()),
    hostRunning: () => store.hostPid(),
    async start(raw, opts = {}) {
      const input = taskStartInputSchema.parse(raw)
      const made = newTask({
        input,
        settings: deps.settings(),
        projects: deps.projects(),
        id: newTaskId(),
        // Chosen now (`claude --session-id`): the task and its session are linked before it runs.
        sessionId: input.agent === 'claude' ? randomUUID() : null,
        hostPid: opts.handOff ? null : process.pid,
        now: iso(),
      })
      if (!made.ok) return made
      const task: Task = opts.handOff
        ? { ...made.task, status_reason: 'handed to the running Navi (tray or navi serve)' }
        : made.task
      await store.save(task)
      await store.appendLog(task.id, [
        navLine({ created: task.text, cwd: task.cwd, by: task.resolved_by }),
      ])
      if (opts.handOff) {
        await store.markHandoff(task.id)
        return { ok: true, task }
      }
      live.set(task.id, newEntry(task))
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
      const elsewhere = 'error' in entry ? entry.elsewhere : undefined
      if (elsewhere && elsewhere.host_pid !== null && isPidAlive(elsewhere.host_pid)) {
        await store.askCancel(elsewhere.id)
        return {
          done: true,
          message: `asked the Navi that runs task ${elsewhere.id} to cancel it`,
          task: elsewhere,
        }
      }
      if (elsewhere && elsewhere.pid !== null) {
        // Its Navi is gone and its agent still runs: end the agent's group here.
        endProcessGroup(elsewhere.pid, {
          runId: taskRunId(elsewhere.id),
          onError: (message) => deps.log.error(`cancelling task ${elsewhere.id}: ${message}`),
        })
        const cancelled: Task = {
          ...elsewhere,
          status: 'cancelled',
          status_reason: 'cancelled by the user (its Navi had stopped)',
          ended_at: iso(),
          updated_at: iso(),
          pid: null,
        }
        await store.save(cancelled)
        outlived.delete(cancelled.id)
        return { done: true, message: `cancelled task ${cancelled.id}`, task: cancelled }
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
      await host.stop()
      const running = [...live.values()].filter((e) => ACTIVE_TASK_STATUSES.has(e.task.status))
      for (const entry of running) entry.abort?.abort()
      await Promise.all(running.map((e) => settled(e.task.id).catch(() => undefined)))
    },
  }
}
