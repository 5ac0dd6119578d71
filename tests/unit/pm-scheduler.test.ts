import { describe, expect, it } from 'vitest'
import {
  automaticGapMs,
  initialSchedulerState,
  nextAction,
  onDemand,
  onEvents,
  onRunFailed,
  onRunFinished,
  onRunStarted,
  type SchedulerAction,
  type SchedulerOptions,
  type SchedulerState,
} from '../../electron/pm/core/scheduler.ts'
import type { EventType } from '../../shared/schemas/event.ts'
import type { PmTrigger } from '../../shared/schemas/briefing.ts'
import { makeEvent } from '../support/pm-events-fixture.ts'

const MIN = 60_000
const T0 = Date.parse('2026-02-16T15:00:00Z')
const at = (minutes: number) => T0 + minutes * MIN

/** One step of a scenario, at a time in minutes after T0. */
type Step =
  | [minutes: number, 'events', EventType[]]
  | [minutes: number, 'demand' | 'start' | 'finish' | 'fail']
  | [minutes: number, 'expect', Expected]

/** What `nextAction` must say: idle, wait until a minute, or run with a trigger and that many events. */
type Expected = 'idle' | { wait: number } | { run: PmTrigger; events: number }

function play(options: SchedulerOptions, steps: Step[]): SchedulerState {
  let state = initialSchedulerState(options)
  for (const step of steps) {
    const now = at(step[0])
    switch (step[1]) {
      case 'events':
        state = onEvents(
          state,
          step[2].map((type) => makeEvent(type, 'apollo')),
          now,
        )
        break
      case 'demand':
        state = onDemand(state, now)
        break
      case 'start': {
        const action = nextAction(state, now)
        expect(action.kind, `a run is due at minute ${step[0]}`).toBe('run')
        state = onRunStarted(state, now)
        break
      }
      case 'finish':
        state = onRunFinished(state, now)
        break
      case 'fail':
        state = onRunFailed(state, now)
        break
      case 'expect':
        expect(simplify(nextAction(state, now)), `at minute ${step[0]}`).toEqual(step[2])
    }
  }
  return state
}

function simplify(action: SchedulerAction): Expected {
  if (action.kind === 'idle') return 'idle'
  if (action.kind === 'wait') return { wait: (action.untilMs - T0) / MIN }
  return { run: action.trigger, events: action.events.length }
}

/** A PM that ran successfully 30 minutes before T0: no initialization, interval long over. */
const RAN = { lastRunAt: at(-30) }

const scenarios: { name: string; options?: SchedulerOptions; steps: Step[] }[] = [
  {
    name: 'never ran: initialization at once, with the events there are',
    options: {},
    steps: [
      [0, 'expect', { run: 'initialization', events: 0 }],
      [0, 'events', ['session_started']],
      [0, 'expect', { run: 'initialization', events: 1 }],
    ],
  },
  {
    name: 'a failed initialization is retried as initialization after the interval',
    options: {},
    steps: [
      [0, 'start'],
      [1, 'fail'],
      [1, 'events', ['commit']],
      [1, 'expect', { wait: 5 }],
      [5, 'expect', { run: 'initialization', events: 1 }],
    ],
  },
  {
    name: 'other events ride along, they trigger nothing',
    steps: [
      [0, 'events', ['session_status_change', 'session_started', 'branch_created', 'task_started']],
      [60, 'expect', 'idle'],
      [61, 'events', ['commit']],
      [61, 'expect', { wait: 63 }],
      [63, 'expect', { run: 'commit', events: 5 }],
    ],
  },
  {
    name: 'a burst is batched from its first trigger; later ones do not extend the window',
    steps: [
      [0, 'events', ['commit']],
      [1, 'events', ['commit', 'task_completed']],
      [1.5, 'events', ['commit']],
      [1.9, 'expect', { wait: 2 }],
      [2, 'expect', { run: 'task_completed', events: 4 }],
    ],
  },
  {
    name: 'the run is named after its strongest trigger',
    steps: [
      [0, 'events', ['commit', 'pbi_completed', 'task_completed']],
      [2, 'expect', { run: 'pbi_completed', events: 3 }],
    ],
  },
  {
    name: 'the minimum interval holds after a run, counted from its start',
    steps: [
      [0, 'events', ['commit']],
      [2, 'start'],
      [3, 'finish'],
      [3.5, 'events', ['commit']],
      [4, 'expect', { wait: 7 }],
      [7, 'expect', { run: 'commit', events: 1 }],
    ],
  },
  {
    name: 'one run at a time: events during a run wait for it, then for the window and interval',
    steps: [
      [0, 'events', ['commit']],
      [2, 'start'],
      [2.5, 'events', ['task_completed']],
      [8, 'expect', 'idle'],
      [9, 'finish'],
      [9, 'expect', { run: 'task_completed', events: 1 }],
    ],
  },
  {
    name: 'on demand goes first: no window, no interval',
    steps: [
      [0, 'events', ['commit']],
      [2, 'start'],
      [3, 'finish'],
      [3.2, 'events', ['commit', 'session_started']],
      [3.5, 'demand'],
      [3.5, 'expect', { run: 'on_demand', events: 2 }],
      [3.5, 'start'],
      [4, 'finish'],
      // The on-demand run consumed the batch: nothing left to do.
      [60, 'expect', 'idle'],
    ],
  },
  {
    name: 'on demand during a run is queued right after it',
    steps: [
      [0, 'events', ['commit']],
      [2, 'start'],
      [2.5, 'demand'],
      [2.5, 'expect', 'idle'],
      [3, 'finish'],
      [3, 'expect', { run: 'on_demand', events: 0 }],
    ],
  },
  {
    name: 'a failed run gives its events back, before the ones that came meanwhile',
    steps: [
      [0, 'events', ['commit', 'session_started']],
      [2, 'start'],
      [2.5, 'events', ['task_started']],
      [3, 'fail'],
      // First failure: the normal interval from the failed run's start.
      [3, 'expect', { wait: 7 }],
      [7, 'expect', { run: 'commit', events: 3 }],
    ],
  },
  {
    name: 'consecutive failures back off: 5, 10, 20 minutes…; a success resets',
    steps: [
      [0, 'events', ['commit']],
      [2, 'start'],
      [2, 'fail'],
      [7, 'start'],
      [7, 'fail'],
      [8, 'expect', { wait: 17 }],
      [17, 'start'],
      [17, 'fail'],
      [18, 'expect', { wait: 37 }],
      [37, 'demand'],
      [37, 'start'],
      [38, 'finish'],
      [38, 'events', ['commit']],
      [38, 'expect', { wait: 42 }],
    ],
  },
  {
    name: 'custom window and interval',
    options: { ...RAN, batchWindowMs: 30_000, minIntervalMs: 0 },
    steps: [
      [0, 'events', ['commit']],
      [0.5, 'start'],
      [0.75, 'finish'],
      [0.75, 'events', ['commit']],
      [0.75, 'expect', { wait: 1.25 }],
    ],
  },
  {
    name: 'a restart does not rerun before the interval since the last run',
    options: { lastRunAt: at(-1) },
    steps: [
      [0, 'events', ['commit']],
      [2, 'expect', { wait: 4 }],
    ],
  },
]

describe('scheduler', () => {
  it.each(scenarios)('$name', ({ options = RAN, steps }) => {
    play(options, steps)
  })

  it('ignores events it already holds (same id), pending or running', () => {
    const commit = makeEvent('commit', 'apollo')
    let state = onEvents(initialSchedulerState(RAN), [commit, commit], at(0))
    expect(state.pending).toHaveLength(1)
    state = onRunStarted(state, at(2))
    state = onEvents(state, [commit], at(3))
    expect(state.pending).toHaveLength(0)
    expect(state.batchStartedAt).toBeNull()
  })

  it('evicts the oldest pending events past the cap and counts them', () => {
    const events = Array.from({ length: 7 }, () => makeEvent('session_started', 'apollo'))
    const trigger = makeEvent('commit', 'apollo')
    let state = initialSchedulerState({ ...RAN, maxPending: 5 })
    state = onEvents(state, [trigger, ...events], at(0))
    expect(state.pending.map((e) => e.id)).toEqual(events.slice(2).map((e) => e.id))
    expect(state.evicted).toBe(3)
    // The evicted commit no longer makes a run due.
    expect(nextAction(state, at(10))).toEqual({ kind: 'idle' })
  })

  it('caps the backoff', () => {
    const base = initialSchedulerState({ ...RAN, maxBackoffMs: 30 * MIN })
    expect(
      [1, 2, 3, 4, 5, 9].map((n) => automaticGapMs({ ...base, consecutiveFailures: n }) / MIN),
    ).toEqual([5, 10, 20, 30, 30, 30])
  })

  it('never mutates the state it is given', () => {
    const state = Object.freeze(initialSchedulerState(RAN))
    const next = onEvents(state, [makeEvent('commit', 'apollo')], at(0))
    expect(state.pending).toHaveLength(0)
    expect(next).not.toBe(state)
    const action = nextAction(next, at(2))
    expect(action.kind).toBe('run')
    if (action.kind === 'run') action.events.length = 0
    expect(next.pending).toHaveLength(1)
  })
})
