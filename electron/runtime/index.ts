/**
 * `createNaviRuntime`: the one composition of Navi that every face uses. It owns the settings store, the
 * configuration source, the engine, the PM, the push hub and the contract handlers, and starts and stops
 * them in one order. The faces add only what is theirs: the tray its tray, popover and notifier; `navi serve`
 * its HTTP server; `navi watch` its printing; the read-only CLI commands one refresh and a handler call.
 * The acting half (answers, delegated tasks) will be wired here the same way, as a sibling of the PM.
 */
import { mkdir } from 'node:fs/promises'
import type { CommandResult, ContractHandlers } from '../../shared/ipc-contract.ts'
import type { EngineState } from '../../shared/schemas/state.ts'
import type { AnswerFace } from '../../shared/schemas/answer.ts'
import { naviFiles, type EnginePaths } from '../engine/core/paths.ts'
import { errorText } from '../../shared/log.ts'
import { createEngine, type Engine } from '../engine/index.ts'
import type { Pm } from '../pm/index.ts'
import type { Task } from '../../shared/schemas/task.ts'
import type { TaskService } from './tasks.ts'
import { createConfigSource, type ConfigSource } from './config-source.ts'
import { createContractHandlers } from './contract-handlers.ts'
import { createPushHub, type PushHub } from './push-hub.ts'
import { createSettingsFileStore, type SettingsStore } from './settings-store.ts'
import { createLogger, type NaviLogger } from './logger.ts'
import { checkTools } from './tools.ts'
import { createQueryServing } from './query-serving.ts'
import {
  answersDir,
  claimListener,
  listenerAlive,
  releaseListener,
  sweepAnswers,
} from '../engine/adapters/answers-dir.ts'

// What the faces may know of the parts, handed out here so that they never reach past the runtime.
export { naviFiles, resolvePaths, type EnginePaths } from '../engine/core/paths.ts'
export type { Engine } from '../engine/index.ts'
export type { Pm } from '../pm/index.ts'
export { loadExeca } from '../engine/adapters/execa-lazy.ts'
export { childProcess } from '../engine/adapters/lazy-builtins.ts'
export { isPidAlive } from '../engine/adapters/process.ts'
export { writeSmallFileSafely } from '../engine/adapters/safe-write.ts'

/**
 * How often a live runtime checks that some Navi listens for answers and answers the commands (and does
 * so itself if none does).
 */
const LISTENER_CHECK_MS = 5_000

export interface NaviRuntimeOptions {
  paths: EnginePaths
  /**
   * `live`: watchers, timers and file watches until `stop()` (tray, `navi serve`, `navi watch`).
   * `once`: one full refresh at `start()`, nothing left running (the read-only CLI commands, `navi brief`).
   */
  mode: 'live' | 'once'
  /** Create the PM (in `live` mode it also runs on the engine's triggers). */
  pm: boolean
  /** Create the delegated tasks' service (`navi run`, the tray, `navi serve`). @default false */
  tasks?: boolean
  /** Told of every note a task relays (the tray notifies, the CLI prints). */
  onTaskNote?: (task: Task, title: string, body: string) => void
  /** The tray installs hooks with the system's node; the default installs with this process's. */
  installHooks?: () => Promise<CommandResult>
  /** The tray hides its popover; absent elsewhere. */
  hidePopover?: () => CommandResult
  /**
   * Also told of every failure the engine survives (it is logged either way). @default one stderr line,
   * as the CLI faces want; the tray passes its own.
   */
  onError?: (message: string) => void
  /** Passed to the PM's CLI (tests point it at a scripted API). @default process.env */
  env?: Readonly<Record<string, string | undefined>>
  /** Epoch ms; injected by tests. @default Date.now */
  clock?: () => number
  /** Which face hosts this runtime, as the answer log names it. @default 'cli' */
  face?: AnswerFace
  /**
   * A live runtime no face shows (cli/background.ts): it serves the query socket only, and gives it up
   * to a Navi the user starts. It does not listen for answers (Navi's hook would wait on it for answers
   * no one can give) nor put its hook handler in place. @default false
   */
  background?: {
    /** Told of every question the socket is asked. */
    onQuery: () => void
    /** Another Navi asked for the socket: it is closed; the runtime is to stop. */
    onStepAside: () => void
  }
}

export interface NaviRuntime {
  readonly paths: EnginePaths
  readonly engine: Engine
  /** Null when the PM is off (`--no-pm`, read-only commands). */
  readonly pm: Pm | null
  /** Null unless asked for (`tasks: true`). */
  readonly tasks: TaskService | null
  readonly settings: SettingsStore
  readonly config: ConfigSource
  readonly hub: PushHub
  readonly handlers: ContractHandlers
  /** `$NAVI_HOME/logs/navi.log`, scoped per part. */
  readonly logger: NaviLogger
  /**
   * `live`: first cycle, watchers, PM loop. `once`: one refresh (`force`: every repository re-read with
   * git, as `navi status` wants). Resolves with the state.
   */
  start(opts?: { force?: boolean }): Promise<EngineState>
  /** Everything that `start()` started, stopped in reverse order; waits for a PM run or cycle to settle. */
  stop(): Promise<void>
  /** Whether this (live, started) runtime answers on the query socket: another Navi may already. */
  servesQueries(): boolean
}

export async function createNaviRuntime(opts: NaviRuntimeOptions): Promise<NaviRuntime> {
  const { paths } = opts
  const live = opts.mode === 'live'
  const logger = createLogger(paths.naviHome)
  const engineLog = logger.scope('engine')
  const settingsLog = logger.scope('settings')
  const runtimeLog = logger.scope('runtime')
  const tell =
    opts.onError ?? ((message: string) => void process.stderr.write(`navi engine: ${message}\n`))
  // Watching needs the directory; the engine creates it on its first write anyway.
  if (live) await mkdir(paths.naviHome, { recursive: true })
  const settings = await createSettingsFileStore(paths, {
    watch: live,
    onError: (message) => settingsLog.error(message),
  })
  const config = await createConfigSource({
    paths,
    settings,
    watch: live,
    onError: (message) => settingsLog.error(message),
  })
  const engine = createEngine({
    paths,
    watch: live,
    onError: (message) => {
      engineLog.error(message)
      tell(message)
    },
    ...(opts.clock ? { clock: opts.clock } : {}),
  })
  // Loaded only for a runtime with a PM: the read-only commands never load it.
  const pm = opts.pm
    ? (await import('../pm/index.ts')).createPm({
        paths,
        engine,
        settings: config.get().config.pm,
        // Read again before each run: a model changed a moment ago must apply even if its file event
        // has not arrived yet.
        reloadSettings: async () => (await config.reload()).config.pm,
        log: logger.scope('pm'),
        ...(opts.env ? { env: opts.env } : {}),
        ...(opts.clock ? { clock: opts.clock } : {}),
      })
    : null
  const tasks = opts.tasks
    ? (await import('./tasks.ts')).createNaviTaskService({
        paths,
        config: () => config.get().config,
        state: () => engine.getState(),
        env: opts.env ?? process.env,
        logger,
        notify: (task, title, body) => opts.onTaskNote?.(task, title, body),
        // The hub is made below; a task changes only once the runtime runs.
        onChange: (task) => hub.publish('task:changed', task),
        record: (events) => engine.record(events),
        adoptQueued: live,
        ...(opts.clock ? { clock: opts.clock } : {}),
      })
    : null
  const offConfig = config.onChange((next) => pm?.reconfigure(next.pm))
  const hub = createPushHub({ engine, pm })
  const handlers = createContractHandlers({
    engine,
    pm,
    settings,
    paths,
    // Read again: a claude path set in Settings a moment ago must be the one checked.
    checkTools: async () =>
      checkTools({ env: process.env, claudePath: (await config.reload()).config.pm.claudePath }),
    ...(opts.installHooks ? { installHooks: opts.installHooks } : {}),
    ...(opts.hidePopover ? { hidePopover: opts.hidePopover } : {}),
    getPmRunning: () => hub.running(),
    log: runtimeLog,
    face: opts.face ?? 'cli',
    answerWaitSeconds: () => config.get().config.answering.waitSeconds,
    tasks,
  })

  let started = false
  let stopping: Promise<void> | null = null
  const queries = live
    ? createQueryServing({
        paths,
        engine,
        handlers,
        log: runtimeLog,
        retryMs: LISTENER_CHECK_MS,
        ...(opts.background && { background: opts.background }),
      })
    : null
  let listenTimer: ReturnType<typeof setInterval> | null = null
  const shutdown = async () => {
    if (listenTimer) clearInterval(listenTimer)
    if (live && started && !opts.background) releaseListener(answersDir(paths.naviHome))
    await queries?.close()
    offConfig()
    hub.stop()
    await tasks?.stop()
    await pm?.stop()
    await engine.stop()
    config.dispose()
    settings.dispose()
    // An entry made while stopping (or just before) is on disk before the caller goes on.
    await logger.flush()
  }

  /** A Navi that ships a newer hook handler puts it in place of the installed copy (hooks.ts). */
  const refreshHookHandler = async (): Promise<void> => {
    try {
      const { refreshInstalledHandler } = await import('./hooks.ts')
      if (await refreshInstalledHandler(paths)) {
        runtimeLog.info(`${naviFiles(paths).hookHandler}: updated to this Navi's hook handler`)
      }
    } catch (error) {
      runtimeLog.warn(`hook handler not updated: ${errorText(error)}`)
    }
  }

  /** Navi's hook waits for answers from Navi only while a runtime listens (answers-dir.ts). */
  const listenForAnswers = async (): Promise<void> => {
    const dir = answersDir(paths.naviHome)
    try {
      sweepAnswers(dir, Date.now())
      await claimListener(dir)
    } catch (error) {
      runtimeLog.warn(`${dir}: not listening for answers: ${errorText(error)}`)
    }
    // Another Navi that claimed it after this one and has stopped leaves no listener: take it back.
    listenTimer = setInterval(() => {
      if (listenerAlive(dir)) return
      claimListener(dir).catch((error: unknown) =>
        runtimeLog.warn(`${dir}: not listening for answers: ${errorText(error)}`),
      )
    }, LISTENER_CHECK_MS)
    listenTimer.unref()
  }

  return {
    paths,
    engine,
    pm,
    tasks,
    settings,
    config,
    hub,
    handlers,
    logger,
    async start(startOpts = {}) {
      if (started) throw new Error('the runtime was started already')
      started = true
      if (!live) return engine.refresh({ force: startOpts.force ?? false })
      const state = await engine.start()
      await pm?.start()
      await queries?.start()
      if (!opts.background) {
        await refreshHookHandler()
        await listenForAnswers()
      }
      // Tasks a stopped Navi left behind: ended ones recorded, queued ones taken over.
      await tasks?.list().catch((error: unknown) => runtimeLog.warn(`tasks: ${errorText(error)}`))
      return state
    },
    stop() {
      stopping ??= shutdown()
      return stopping
    },
    servesQueries: () => queries?.serves() ?? false,
  }
}
