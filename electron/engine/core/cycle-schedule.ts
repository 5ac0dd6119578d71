/**
 * When the engine runs a cycle, as a pure reducer: what happened (a file changed, a timer came due, a cycle
 * ended, a refresh was asked) → the next schedule, whether to start a cycle now, whether to re-check the
 * live sessions' pids, and when to wake next. `createEngine` is the thin loop around it: one timer, set to
 * `wakeAt`, and the I/O each decision asks for.
 *
 * `now` is a monotonic clock in milliseconds (core/monotonic.ts), never the clock events are stamped with
 * (a test may freeze that one).
 *
 * The rules:
 * - a change waits `debounceMs`, and at least `minCycleIntervalMs` after the previous cycle started, so an
 *   agent writing many times a second costs a few cycles a second while an isolated change waits little;
 * - at most one cycle runs; whatever asks for one meanwhile is coalesced into one rerun after it, with the
 *   union of the hints and `force` if any asked for it;
 * - the poll runs a cycle `pollIntervalMs` after the previous poll's cycle ended (the loop decides whether
 *   it re-reads everything: it does when its watchers cannot be trusted);
 * - a cycle whose findings are not durable (or that threw) runs again after `retryMs`, doubling up to
 *   `maxRetryMs` (or the poll interval), back to `retryMs` after one that succeeds;
 * - while watching, the pids are re-checked every `livenessIntervalMs` (a `kill -9` changes no file).
 */
import { fullScan, mergeHints, noHints, type SourceHints } from './source-hints.ts'

export interface ScheduleOptions {
  debounceMs: number
  minCycleIntervalMs: number
  retryMs: number
  maxRetryMs: number
  livenessIntervalMs: number
}

export interface Schedule {
  /**
   * `start` came: changes, polls and pid checks are scheduled. Before it a `refresh` is a one-shot read;
   * only its retry is scheduled (and the loop's timer then keeps no process alive).
   */
  started: boolean
  stopped: boolean
  running: boolean
  /** A cycle is wanted now (or after the running one). */
  wanted: boolean
  /** The wanted cycle also re-reads every repository with git. */
  force: boolean
  /** What the wanted cycle must re-read. */
  hints: SourceHints
  /** The wanted cycle is the poll's (the loop also re-arms its watchers then). */
  poll: boolean
  /** Someone asked for the wanted cycle (start, refresh): it believes no watcher, it looks. */
  asked: boolean
  /**
   * Someone asked for a cycle current with what the watchers told (a command asking a running Navi): it
   * starts now, reads what they named, and looks at everything only when they cannot be trusted.
   */
  askedWatched: boolean
  debounceAt: number | null
  pollAt: number | null
  retryAt: number | null
  livenessAt: number | null
  retryDelayMs: number
  pollIntervalMs: number
  lastStartAt: number
}

export type ScheduleInput =
  /** The engine starts: a full, forced first cycle; pids are watched when `watching`. */
  | { type: 'start'; now: number; watching: boolean }
  /** A watcher saw a change (with what it names), or a watched pid died. */
  | { type: 'changed'; now: number; hints?: SourceHints }
  /** Someone asked for a full cycle now; `watched`: one current with what the watchers told, now. */
  | { type: 'refresh'; now: number; force: boolean; watched?: boolean }
  /** The timer set to the last `wakeAt` fired. */
  | { type: 'wake'; now: number }
  /** The cycle started by the last decision ended. `pending`: not durable yet; `failed`: it threw. */
  | { type: 'cycle-ended'; now: number; pending: boolean; failed: boolean; pollIntervalMs: number }
  | { type: 'stop' }

export interface Decision {
  schedule: Schedule
  /** Start a cycle now, with these. */
  start: {
    force: boolean
    hints: SourceHints
    poll: boolean
    asked: boolean
    askedWatched: boolean
  } | null
  /** Re-check the pids of live sessions now. */
  checkLiveness: boolean
  /** When to wake the reducer next (a `wake` input), or null for no timer. */
  wakeAt: number | null
}

/** Before `start`: a `refresh` still runs a cycle (a one-shot read). */
export function initialSchedule(opts: ScheduleOptions, pollIntervalMs: number): Schedule {
  return {
    started: false,
    stopped: false,
    running: false,
    wanted: false,
    force: false,
    hints: noHints(),
    poll: false,
    asked: false,
    askedWatched: false,
    debounceAt: null,
    pollAt: null,
    retryAt: null,
    livenessAt: null,
    retryDelayMs: opts.retryMs,
    pollIntervalMs,
    lastStartAt: Number.NEGATIVE_INFINITY,
  }
}

export function decide(prev: Schedule, input: ScheduleInput, opts: ScheduleOptions): Decision {
  let s: Schedule = { ...prev }
  let checkLiveness = false
  const want = (hints: SourceHints, force = false) => {
    s.wanted = true
    s.force ||= force
    s.hints = mergeHints(s.hints, hints)
  }
  switch (input.type) {
    case 'start':
      // A refresh already running stays the one cycle at a time.
      s = { ...initialSchedule(opts, s.pollIntervalMs), started: true, running: s.running }
      want(fullScan(), true)
      s.asked = true
      if (input.watching) s.livenessAt = input.now + opts.livenessIntervalMs
      break
    case 'stop':
      return {
        schedule: { ...s, started: false, stopped: true },
        start: null,
        checkLiveness: false,
        wakeAt: null,
      }
    case 'changed':
      if (!s.started) break
      s.hints = mergeHints(s.hints, input.hints ?? noHints())
      s.debounceAt ??= Math.max(
        input.now + opts.debounceMs,
        s.lastStartAt + opts.minCycleIntervalMs,
      )
      break
    case 'refresh':
      // Either way the debounce is cut short: what the watchers told before the ask is in its cycle.
      s.debounceAt = null
      if (input.watched && s.started && !input.force) {
        // Pids and the hook inbox are cheap to look at and no watcher tells a pid's end at once.
        want({ ...noHints(), live: true, hooks: true })
        s.askedWatched = true
      } else {
        want(fullScan(), input.force)
        s.asked = true
      }
      break
    case 'cycle-ended':
      s.running = false
      s.pollIntervalMs = input.pollIntervalMs
      // The next poll counts from the end of the previous poll's cycle (one already due waits to run).
      if (s.started && s.pollAt === null && !s.poll) s.pollAt = input.now + s.pollIntervalMs
      if (input.pending || input.failed) {
        s.retryAt ??= input.now + s.retryDelayMs
        s.retryDelayMs = Math.min(s.retryDelayMs * 2, opts.maxRetryMs, s.pollIntervalMs)
      } else {
        s.retryDelayMs = opts.retryMs
      }
      break
    case 'wake':
      break
  }
  if (s.stopped) return { schedule: s, start: null, checkLiveness: false, wakeAt: null }

  if ('now' in input) {
    const now = input.now
    if (s.debounceAt !== null && now >= s.debounceAt) {
      s.debounceAt = null
      s.wanted = true
    }
    if (s.retryAt !== null && now >= s.retryAt) {
      s.retryAt = null
      want(fullScan())
    }
    if (s.pollAt !== null && now >= s.pollAt) {
      s.pollAt = null
      s.poll = true
      // What a poll re-reads is the loop's call: nothing while its watchers are trusted (the cycle then
      // only looks at the time again), everything now and then, or when a folder could not be watched.
      want(noHints())
    }
    if (s.livenessAt !== null && now >= s.livenessAt) {
      checkLiveness = true
      s.livenessAt = now + opts.livenessIntervalMs
    }
  }

  let start: Decision['start'] = null
  if (s.wanted && !s.running && 'now' in input) {
    start = {
      force: s.force,
      hints: s.hints,
      poll: s.poll,
      asked: s.asked,
      askedWatched: s.askedWatched && !s.asked,
    }
    s = {
      ...s,
      running: true,
      wanted: false,
      force: false,
      poll: false,
      asked: false,
      askedWatched: false,
      hints: noHints(),
      lastStartAt: input.now,
    }
  }
  return { schedule: s, start, checkLiveness, wakeAt: nextWake(s) }
}

/** The earliest time something is due; none while a cycle runs except the pid checks (and the end wakes). */
function nextWake(s: Schedule): number | null {
  const due = [s.livenessAt]
  if (!s.running) due.push(s.debounceAt, s.pollAt, s.retryAt)
  const times = due.filter((t): t is number => t !== null)
  return times.length > 0 ? Math.min(...times) : null
}
