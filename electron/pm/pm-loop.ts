/**
 * The PM's trigger loop: the imperative shell around `core/scheduler.ts`. It owns one timer, asks
 * `nextAction` whenever something changes (events, a request, a run ending, the timer firing), and starts
 * at most one run at a time. A run that throws counts as failed; the loop itself never throws.
 */
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { PmTrigger } from '../../shared/schemas/briefing.ts'
import {
  initialSchedulerState,
  nextAction,
  onDemand,
  onEvents,
  onRunFailed,
  onRunFinished,
  onRunStarted,
  withConfig,
  type SchedulerConfig,
  type SchedulerOptions,
  type SchedulerState,
} from './core/scheduler.ts'

/** Runs the PM once with these events; resolves true when a fresh briefing came out of it. */
export type PmRun = (trigger: PmTrigger, events: EngineEvent[]) => Promise<boolean>

export interface PmLoopOptions extends SchedulerOptions {
  run: PmRun
  /** Epoch ms. @default Date.now */
  clock?: () => number
  /** A run that threw (it also counts as failed). @default ignored */
  onError?: (error: unknown) => void
}

export interface PmLoopStatus {
  /** The timings the loop decides with now (Settings may have changed them since the start). */
  batchWindowMs: number
  minIntervalMs: number
  running: boolean
  pendingEvents: number
  /** When the next automatic run is due, if one is waiting on the timer. */
  nextRunAt: number | null
  consecutiveFailures: number
}

export interface PmLoop {
  /** New engine events; triggers start (or join) a batch. */
  push(events: readonly EngineEvent[]): void
  /** Run now, or right after the running run; resolves with whether the run serving it succeeded. */
  requestNow(): Promise<boolean>
  status(): PmLoopStatus
  /** New batch window or interval (Settings changed); the next decision uses them. */
  reconfigure(config: Partial<Pick<SchedulerConfig, 'batchWindowMs' | 'minIntervalMs'>>): void
  /** No more runs; resolves once a run in progress has settled. Pending requests resolve false. */
  stop(): Promise<void>
}

/** Node caps timers at 2^31 − 1 ms; a longer wait just re-asks `nextAction` when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * Starts the loop. The first decision is taken on a microtask, so a PM that never ran (`lastRunAt` absent)
 * starts its `initialization` run right after this returns.
 */
export function createPmLoop(options: PmLoopOptions): PmLoop {
  const { run, clock = Date.now, onError = () => {}, ...schedulerOptions } = options
  let state: SchedulerState = initialSchedulerState(schedulerOptions)
  let timer: ReturnType<typeof setTimeout> | null = null
  let nextRunAt: number | null = null
  let stopped = false
  let inFlight: Promise<void> | null = null
  /** Callers of `requestNow` not yet served by a run. */
  let waiting: ((ok: boolean) => void)[] = []

  const clearTimer = () => {
    if (timer !== null) clearTimeout(timer)
    timer = null
    nextRunAt = null
  }

  const decide = () => {
    clearTimer()
    if (stopped) return
    const now = clock()
    const action = nextAction(state, now)
    if (action.kind === 'wait') {
      nextRunAt = action.untilMs
      timer = setTimeout(decide, Math.min(MAX_TIMER_MS, Math.max(0, action.untilMs - now)))
    } else if (action.kind === 'run') {
      const served = state.demandedAt !== null ? waiting : []
      if (served.length > 0) waiting = []
      state = onRunStarted(state, clock())
      inFlight = execute(action.trigger, action.events, served)
    }
  }

  const execute = async (
    trigger: PmTrigger,
    events: EngineEvent[],
    served: ((ok: boolean) => void)[],
  ): Promise<void> => {
    let ok = false
    try {
      ok = (await run(trigger, events)) === true
    } catch (error) {
      onError(error)
    }
    state = ok ? onRunFinished(state, clock()) : onRunFailed(state, clock())
    inFlight = null
    for (const resolve of served) resolve(ok)
    decide()
  }

  queueMicrotask(decide)

  return {
    push(events) {
      if (stopped || events.length === 0) return
      state = onEvents(state, events, clock())
      decide()
    },
    requestNow() {
      if (stopped) return Promise.resolve(false)
      const served = new Promise<boolean>((resolve) => waiting.push(resolve))
      state = onDemand(state, clock())
      decide()
      return served
    },
    reconfigure(config) {
      if (stopped) return
      state = withConfig(state, config)
      decide()
    },
    status: () => ({
      batchWindowMs: state.config.batchWindowMs,
      minIntervalMs: state.config.minIntervalMs,
      running: state.running !== null,
      pendingEvents: state.pending.length,
      nextRunAt,
      consecutiveFailures: state.consecutiveFailures,
    }),
    async stop() {
      stopped = true
      clearTimer()
      for (const resolve of waiting) resolve(false)
      waiting = []
      await inFlight
    },
  }
}
