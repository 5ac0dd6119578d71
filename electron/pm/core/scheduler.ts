/**
 * When the PM runs, as a pure state machine: the shell (`pm-loop.ts`) feeds it events, on-demand requests and
 * run outcomes, asks `nextAction`, and owns the one timer. Every function takes `now` (epoch ms) and returns
 * a new state; nothing here reads a clock.
 *
 * Rules (docs/pm.md, "When the PM runs"):
 * - `task_completed`, `pbi_completed`, `commit` and `turn_completed` events trigger a run; other events ride
 *   along on the next.
 * - Bursts are batched: a run is due `batchWindowMs` after the first trigger event of a batch arrived
 *   (arrival, not the event's own timestamp: that is when Navi learned of it).
 * - At most one run at a time; an automatic run starts at least `minIntervalMs` after the previous run of
 *   any kind started (a briefing the user just asked for is fresh); after failures that gap doubles per
 *   consecutive failure up to `maxBackoffMs`.
 * - On demand goes first: no batching, no interval, no backoff, but never concurrent with a running run;
 *   it runs right after it.
 * - Until a run has succeeded (never, or only failed attempts) the trigger is `initialization`, and it is due
 *   at once: the PM's first look at everything, with whatever events there are.
 * - Events accumulate from the moment the previous run started; a run consumes them, a failed run gives
 *   them back for the next one.
 */
import type { EngineEvent, EventType } from '../../../shared/schemas/event.ts'
import type { PmTrigger } from '../../../shared/schemas/briefing.ts'

export interface SchedulerConfig {
  /** A burst's first trigger event waits this long for the rest. @default 2 min */
  batchWindowMs: number
  /**
   * Least time between the start of the previous run and an automatic one: at most 12 automatic runs an
   * hour, whatever happens (docs/pm.md: why batching over 1–5 minutes). @default 5 min
   */
  minIntervalMs: number
  /** Cap of the gap after consecutive failures. @default 1 h */
  maxBackoffMs: number
  /**
   * Pending events kept at most; past it the oldest are evicted (counted in `evicted`). The 24 h event log
   * still holds them. @default 20,000
   */
  maxPending: number
}

export const DEFAULT_SCHEDULER_CONFIG: SchedulerConfig = {
  batchWindowMs: 2 * 60_000,
  minIntervalMs: 5 * 60_000,
  maxBackoffMs: 60 * 60_000,
  maxPending: 20_000,
}

/** The events that make a run due, strongest first: a run is named after the strongest one it carries. */
export const TRIGGER_TYPES: readonly (EventType & PmTrigger)[] = [
  'pbi_completed',
  'task_completed',
  'commit',
  // Current models keep no task list by default (Claude Code 2.1.330): a finished turn is their progress.
  'turn_completed',
]

export interface SchedulerState {
  readonly config: SchedulerConfig
  /** Events not yet handed to a run, oldest first. */
  readonly pending: readonly EngineEvent[]
  /** When the first trigger event among `pending` arrived; null when none did. */
  readonly batchStartedAt: number | null
  /** When an on-demand run was asked for and not yet started. */
  readonly demandedAt: number | null
  /** The run in progress: what it consumed, so a failure can give it back. */
  readonly running: {
    readonly startedAt: number
    readonly events: readonly EngineEvent[]
    readonly batchStartedAt: number | null
  } | null
  readonly lastRunStartedAt: number | null
  readonly lastSuccessAt: number | null
  readonly consecutiveFailures: number
  /** Events evicted because `pending` was full. */
  readonly evicted: number
}

export type SchedulerAction =
  | { kind: 'run'; trigger: PmTrigger; events: EngineEvent[] }
  | { kind: 'wait'; untilMs: number }
  | { kind: 'idle' }

export interface SchedulerOptions extends Partial<SchedulerConfig> {
  /**
   * When the PM last ran successfully (e.g. `last-output.json`'s `generated_at`); null or absent means
   * never, so the first run is an `initialization`. It also starts the interval: a restart does not rerun.
   */
  lastRunAt?: number | null
}

export function initialSchedulerState(options: SchedulerOptions = {}): SchedulerState {
  const { lastRunAt = null, ...config } = options
  const defined = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined))
  return {
    config: { ...DEFAULT_SCHEDULER_CONFIG, ...defined },
    pending: [],
    batchStartedAt: null,
    demandedAt: null,
    running: null,
    lastRunStartedAt: lastRunAt,
    lastSuccessAt: lastRunAt,
    consecutiveFailures: 0,
    evicted: 0,
  }
}

/**
 * New timings (Settings changed while Navi runs). A batch already waiting is then due `batchWindowMs`
 * after it started under the new window, so shortening the window can make it due at once.
 */
export function withConfig(
  state: SchedulerState,
  config: Partial<Pick<SchedulerConfig, 'batchWindowMs' | 'minIntervalMs'>>,
): SchedulerState {
  const defined = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined))
  return { ...state, config: { ...state.config, ...defined } }
}

const isTrigger = (event: EngineEvent) =>
  (TRIGGER_TYPES as readonly EventType[]).includes(event.type)

/** Adds events (ids already pending or in the running run are ignored). */
export function onEvents(
  state: SchedulerState,
  events: readonly EngineEvent[],
  now: number,
): SchedulerState {
  const known = new Set([...state.pending, ...(state.running?.events ?? [])].map((e) => e.id))
  const fresh: EngineEvent[] = []
  for (const event of events) {
    if (known.has(event.id)) continue
    known.add(event.id)
    fresh.push(event)
  }
  if (fresh.length === 0) return state
  const all = [...state.pending, ...fresh]
  const overflow = Math.max(0, all.length - state.config.maxPending)
  const pending = overflow > 0 ? all.slice(overflow) : all
  const batchStartedAt = state.batchStartedAt ?? (fresh.some(isTrigger) ? now : null)
  return {
    ...state,
    pending,
    batchStartedAt: pending.some(isTrigger) ? batchStartedAt : null,
    evicted: state.evicted + overflow,
  }
}

/** The user asked for a briefing now. */
export function onDemand(state: SchedulerState, now: number): SchedulerState {
  return state.demandedAt === null ? { ...state, demandedAt: now } : state
}

/** The run `nextAction` returned has started: it took every pending event. */
export function onRunStarted(state: SchedulerState, now: number): SchedulerState {
  return {
    ...state,
    running: { startedAt: now, events: state.pending, batchStartedAt: state.batchStartedAt },
    pending: [],
    batchStartedAt: null,
    demandedAt: null,
    lastRunStartedAt: now,
  }
}

export function onRunFinished(state: SchedulerState, now: number): SchedulerState {
  if (!state.running) return state
  return { ...state, running: null, lastSuccessAt: now, consecutiveFailures: 0 }
}

/** The run failed: its events go back in front of those that arrived meanwhile, batch and all. */
export function onRunFailed(state: SchedulerState, _now: number): SchedulerState {
  const run = state.running
  if (!run) return state
  const pending = [...run.events, ...state.pending]
  const starts = [run.batchStartedAt, state.batchStartedAt].filter((t): t is number => t !== null)
  return {
    ...state,
    running: null,
    pending,
    batchStartedAt: starts.length > 0 ? Math.min(...starts) : null,
    consecutiveFailures: state.consecutiveFailures + 1,
  }
}

/** The gap an automatic run keeps after the previous run started: doubled per consecutive failure. */
export function automaticGapMs(state: SchedulerState): number {
  const { minIntervalMs, maxBackoffMs } = state.config
  if (state.consecutiveFailures === 0) return minIntervalMs
  const doubled = minIntervalMs * 2 ** (state.consecutiveFailures - 1)
  return Math.min(Math.max(minIntervalMs, maxBackoffMs), doubled)
}

/**
 * What to do now. `wait` means: call again at `untilMs` (or sooner, when something happens); `idle`: nothing
 * to do until an event, a request or the end of the running run.
 */
export function nextAction(state: SchedulerState, now: number): SchedulerAction {
  if (state.running) return { kind: 'idle' }
  const neverRan = state.lastSuccessAt === null
  const run = (trigger: PmTrigger): SchedulerAction => ({
    kind: 'run',
    trigger: neverRan ? 'initialization' : trigger,
    events: [...state.pending],
  })
  if (state.demandedAt !== null) return run('on_demand')

  const gapEnd =
    state.lastRunStartedAt === null ? -Infinity : state.lastRunStartedAt + automaticGapMs(state)
  let due: number
  if (neverRan) due = gapEnd
  else if (state.batchStartedAt === null) return { kind: 'idle' }
  else due = Math.max(state.batchStartedAt + state.config.batchWindowMs, gapEnd)

  if (due > now) return { kind: 'wait', untilMs: due }
  return run(strongestTrigger(state.pending))
}

function strongestTrigger(events: readonly EngineEvent[]): PmTrigger {
  const present = new Set(events.map((e) => e.type))
  return TRIGGER_TYPES.find((t) => present.has(t)) ?? 'on_demand'
}
