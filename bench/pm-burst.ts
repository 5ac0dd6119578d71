/**
 * PM runs during a burst: 100 commits over 10 minutes fed to the real scheduler
 * (`electron/pm/core/scheduler.ts`) on a simulated clock, each run taking `--run-seconds` of
 * simulated time; counts the runs that start within the hour after the first commit and what each carried.
 * The defaults (2 min batch window, 5 min minimum interval) are compared with no batching at all.
 * Target: batched to a handful (≤ 5) runs, no commit left unreported.
 *
 * `node bin/run-ts.mjs bench/pm-burst.ts [--commits 100] [--minutes 10] [--run-seconds 60]`
 * Writes bench/results/pm-burst.json; exits 1 when the default configuration misses the target.
 */
import {
  DEFAULT_SCHEDULER_CONFIG,
  initialSchedulerState,
  nextAction,
  onEvents,
  onRunFinished,
  onRunStarted,
  type SchedulerConfig,
} from '../electron/pm/core/scheduler.ts'
import type { PmTrigger } from '../shared/schemas/briefing.ts'
import { makeEvent } from '../tests/support/pm-events-fixture.ts'
import { createRandom, isMain, numberOption, printTable, round, writeResult } from './lib/report.ts'

const HOUR = 60 * 60_000
const TARGET_RUNS = 5

export interface BurstRun {
  startS: number
  trigger: PmTrigger
  events: number
}

/** Runs the scheduler over commits arriving at `arrivals` (ms after 0), for one hour. */
export function simulateBurst(
  config: Partial<SchedulerConfig>,
  arrivals: readonly number[],
  runMs: number,
): BurstRun[] {
  // The PM ran long before the burst: no initialization, no interval pending.
  let state = initialSchedulerState({ ...config, lastRunAt: -HOUR })
  const runs: BurstRun[] = []
  let now = 0
  let next = 0
  let runEnd: number | null = null
  for (;;) {
    const action = nextAction(state, now)
    if (action.kind === 'run') {
      runs.push({
        startS: round(now / 1000),
        trigger: action.trigger,
        events: action.events.length,
      })
      state = onRunStarted(state, now)
      runEnd = now + runMs
      continue
    }
    const wake = Math.min(
      arrivals[next] ?? Infinity,
      runEnd ?? Infinity,
      action.kind === 'wait' ? action.untilMs : Infinity,
    )
    if (!Number.isFinite(wake)) break
    now = wake
    if (runEnd === now) {
      state = onRunFinished(state, now)
      runEnd = null
    }
    const arrived: ReturnType<typeof makeEvent>[] = []
    while (next < arrivals.length && arrivals[next] === now) {
      arrived.push(makeEvent('commit', 'apollo', { sha: String(next), message: `commit ${next}` }))
      next++
    }
    if (arrived.length > 0) state = onEvents(state, arrived, now)
  }
  return runs
}

/** `count` commit times spread over `minutes`, evenly with ±50 % jitter (seeded). */
export function burstArrivals(count: number, minutes: number): number[] {
  const rand = createRandom(7)
  const step = (minutes * 60_000) / count
  return Array.from({ length: count }, (_, i) => Math.round(step * (i + rand())))
}

const mmss = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2)
  const commits = numberOption(args, 'commits', 100)
  const minutes = numberOption(args, 'minutes', 10)
  const runMs = numberOption(args, 'run-seconds', 60) * 1000
  const arrivals = burstArrivals(commits, minutes)
  const configs: { name: string; config: Partial<SchedulerConfig> }[] = [
    { name: 'default (2 min window, 5 min interval)', config: {} },
    { name: 'window only (2 min, no interval)', config: { minIntervalMs: 0 } },
    {
      name: 'no batching (one run at a time only)',
      config: { batchWindowMs: 0, minIntervalMs: 0 },
    },
  ]
  const results = configs.map(({ name, config }) => {
    const runs = simulateBurst(config, arrivals, runMs)
    const inHour = runs.filter((r) => r.startS * 1000 < HOUR)
    return {
      name,
      config: { ...DEFAULT_SCHEDULER_CONFIG, ...config },
      runsPerHour: inHour.length,
      eventsReported: runs.reduce((n, r) => n + r.events, 0),
      runs,
    }
  })
  printTable(
    `PM runs during ${commits} commits in ${minutes} min (runs take ${runMs / 1000} s, simulated clock)`,
    ['scheduler', 'runs/hour', 'commits reported', 'events per run'],
    results.map((r) => [
      r.name,
      r.runsPerHour,
      r.eventsReported,
      r.runs.map((run) => run.events).join(', '),
    ]),
  )
  const [main] = results
  printTable(
    `Runs with the default scheduler (target ≤ ${TARGET_RUNS} an hour)`,
    ['start', 'trigger', 'events'],
    main!.runs.map((r) => [mmss(r.startS), r.trigger, r.events]),
  )
  await writeResult('pm-burst', {
    commits,
    minutes,
    runSeconds: runMs / 1000,
    target: `≤ ${TARGET_RUNS} runs per hour, every commit reported`,
    results,
  })
  process.exitCode = main!.runsPerHour <= TARGET_RUNS && main!.eventsReported === commits ? 0 : 1
}
