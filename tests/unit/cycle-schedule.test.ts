/**
 * The engine's scheduling (core/cycle-schedule.ts) as tables: sequences of inputs at given times, and what
 * the reducer decides after each (start a cycle and how, check pids, when to wake).
 */
import { describe, expect, it } from 'vitest'
import {
  decide,
  initialSchedule,
  type Decision,
  type Schedule,
  type ScheduleInput,
  type ScheduleOptions,
} from '../../electron/engine/core/cycle-schedule.ts'
import { fullScan, noHints } from '../../electron/engine/core/source-hints.ts'

const OPTS: ScheduleOptions = {
  debounceMs: 100,
  minCycleIntervalMs: 400,
  retryMs: 1000,
  maxRetryMs: 10_000,
  livenessIntervalMs: 2000,
}
const POLL = 30_000

/** Runs the inputs in order; returns each decision. */
function run(inputs: ScheduleInput[], from: Schedule = initialSchedule(OPTS, POLL)): Decision[] {
  let schedule = from
  return inputs.map((input) => {
    const decision = decide(schedule, input, OPTS)
    schedule = decision.schedule
    return decision
  })
}
const last = (decisions: Decision[]): Decision => decisions.at(-1) as Decision
const started = (d: Decision) =>
  d.start ? { force: d.start.force, full: d.start.hints.full, poll: d.start.poll } : null

const start = (now: number): ScheduleInput => ({ type: 'start', now, watching: true })
const ended = (now: number, over: { pending?: boolean; failed?: boolean; poll?: number } = {}) =>
  ({
    type: 'cycle-ended',
    now,
    pending: over.pending ?? false,
    failed: over.failed ?? false,
    pollIntervalMs: over.poll ?? POLL,
  }) as const
const wake = (now: number): ScheduleInput => ({ type: 'wake', now })
const changed = (now: number, transcript?: string): ScheduleInput => {
  const hints = noHints()
  if (transcript) hints.transcripts.add(transcript)
  return { type: 'changed', now, hints }
}
/** Started at 0, first cycle ended at 50: the idle engine every other case begins from. */
const idle = () => last(run([start(0), ended(50)])).schedule
/** The same without pid checks, so the only timers are the ones a case is about. */
const idleUnwatched = () =>
  last(run([{ type: 'start', now: 0, watching: false }, ended(50)])).schedule

describe('cycle schedule: start and poll', () => {
  it('start runs a full, forced cycle at once; the poll comes due its interval after that cycle ends', () => {
    const [first, end] = run([start(0), ended(50)])
    expect(started(first as Decision)).toEqual({ force: true, full: true, poll: false })
    expect(end?.start).toBeNull()
    expect(end?.schedule.pollAt).toBe(50 + POLL)
  })

  it('a poll runs a cycle (not forced, re-reading what the loop decides) and re-arms from its end', () => {
    const [poll, pollEnd] = run([wake(50 + POLL), ended(50 + POLL + 700)], idle())
    // Not full by itself: the loop re-reads everything only when it cannot trust its watchers.
    expect(started(poll as Decision)).toEqual({ force: false, full: false, poll: true })
    expect(pollEnd?.schedule.pollAt).toBe(50 + POLL + 700 + POLL)
  })

  it('the poll interval follows what the last cycle read from config', () => {
    expect(last(run([start(0), ended(50, { poll: 5000 })])).schedule.pollAt).toBe(5050)
  })

  it('a poll due during a cycle runs right after it, once', () => {
    const decisions = run(
      [changed(1000), wake(1100), wake(50 + POLL), ended(50 + POLL + 10)],
      idle(),
    )
    expect(decisions.map(started)).toEqual([
      null,
      { force: false, full: false, poll: false },
      null,
      { force: false, full: false, poll: true },
    ])
  })

  it('before start, a refresh is one cycle: no poll, no change is heard, only its retry', () => {
    const [refresh, end] = run([{ type: 'refresh', now: 0, force: false }, ended(10)])
    expect(started(refresh as Decision)).toEqual({ force: false, full: true, poll: false })
    expect(end?.wakeAt).toBeNull()
    expect(last(run([changed(20)], end?.schedule)).wakeAt).toBeNull()
    const notDurable = run([
      { type: 'refresh', now: 0, force: false },
      ended(10, { pending: true }),
    ])
    expect(last(notDurable).wakeAt).toBe(1010)
  })

  it('after stop nothing is decided, even when a running cycle ends', () => {
    const decisions = run([changed(100), { type: 'stop' }, wake(1000), ended(1100)], idle())
    expect(decisions.slice(1).map((d) => [d.start, d.wakeAt])).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ])
  })
})

describe('cycle schedule: changes', () => {
  it('a change waits the debounce, and at least the minimum spacing after the last start', () => {
    // Last start at 0 (the first cycle): a change at 60 waits for 400, not 160.
    expect(last(run([changed(60)], idle())).wakeAt).toBe(400)
    // Long after: only the debounce.
    expect(last(run([changed(5000)], idle())).wakeAt).toBe(5100)
  })

  it('changes inside the debounce are one cycle with the union of their hints', () => {
    const decisions = run(
      [changed(5000, '/a.jsonl'), changed(5050, '/b.jsonl'), wake(5100)],
      idle(),
    )
    expect(decisions.slice(0, 2).map((d) => d.start)).toEqual([null, null])
    expect([...(decisions[2]?.start?.hints.transcripts ?? [])]).toEqual(['/a.jsonl', '/b.jsonl'])
    expect(decisions[2]?.start?.hints.full).toBe(false)
  })

  it('a wake before anything is due starts nothing', () => {
    expect(last(run([changed(5000), wake(5099)], idle())).start).toBeNull()
  })

  it('an agent writing all the time costs one cycle per minimum spacing, not one per write', () => {
    let schedule = idle()
    let cycles = 0
    // A write every 20 ms for 4 s; each cycle takes 30 ms; timers fire when asked.
    let wakeAt: number | null = null
    let endAt: number | null = null
    for (let now = 1000; now < 5000; now += 10) {
      const inputs: ScheduleInput[] = []
      if (endAt !== null && now >= endAt) {
        inputs.push(ended(now))
        endAt = null
      }
      if (now % 20 === 0) inputs.push(changed(now, '/t.jsonl'))
      if (wakeAt !== null && now >= wakeAt) inputs.push(wake(now))
      for (const input of inputs) {
        const d = decide(schedule, input, OPTS)
        schedule = d.schedule
        wakeAt = d.wakeAt
        if (d.start) {
          cycles++
          endAt = now + 30
        }
      }
    }
    expect(cycles).toBeGreaterThanOrEqual(8)
    expect(cycles).toBeLessThanOrEqual(11)
  })
})

describe('cycle schedule: asked-for cycles', () => {
  it('start and refresh are asked for (they believe no watcher); changes and polls are not', () => {
    const asked = (d: Decision | undefined) => d?.start?.asked
    const [first] = run([start(0)])
    expect(asked(first)).toBe(true)
    const [change, fired] = run([changed(5000), wake(5100)], idle())
    expect(change?.start).toBeNull()
    expect(asked(fired)).toBe(false)
    expect(asked(run([wake(50 + POLL)], idle())[0])).toBe(false)
    expect(asked(run([{ type: 'refresh', now: 5000, force: false }], idle())[0])).toBe(true)
  })

  it('a refresh during a cycle makes the rerun an asked-for one', () => {
    const decisions = run(
      [changed(5000), wake(5100), { type: 'refresh', now: 5110, force: false }, ended(5200)],
      idle(),
    )
    expect(decisions.map((d) => d.start?.asked ?? null)).toEqual([null, false, null, true])
  })

  it('a watched refresh starts now with what the watchers told, plus pids and the hook inbox, and is not a full look', () => {
    const [, ask] = run(
      [changed(5000, '/a.jsonl'), { type: 'refresh', now: 5010, force: false, watched: true }],
      idle(),
    )
    expect(ask?.start).toMatchObject({
      force: false,
      asked: false,
      askedWatched: true,
      poll: false,
    })
    expect(ask?.start?.hints).toMatchObject({ full: false, live: true, hooks: true, config: false })
    expect([...(ask?.start?.hints.transcripts ?? [])]).toEqual(['/a.jsonl'])
    // The debounce it cut short does not run a second cycle.
    expect(ask?.schedule.debounceAt).toBeNull()
  })

  it('a watched refresh is a full one before start, when forced, or beside a full refresh', () => {
    const watched = (now: number, force = false): ScheduleInput => ({
      type: 'refresh',
      now,
      force,
      watched: true,
    })
    const shape = (d: Decision | undefined) =>
      d?.start
        ? { asked: d.start.asked, askedWatched: d.start.askedWatched, full: d.start.hints.full }
        : null
    const full = { asked: true, askedWatched: false, full: true }
    expect(shape(run([watched(0)])[0])).toEqual(full)
    expect(shape(run([watched(5000, true)], idle())[0])).toEqual(full)
    // During a cycle: a watched ask and a full one are one rerun, the full one.
    const rerun = run(
      [
        changed(5000),
        wake(5100),
        watched(5110),
        { type: 'refresh', now: 5120, force: false },
        ended(5200),
      ],
      idle(),
    )
    expect(shape(rerun.at(-1))).toEqual(full)
  })
})

describe('cycle schedule: coalescing', () => {
  it('refreshes during a cycle are one rerun after it, forced if any asked to force', () => {
    const decisions = run(
      [
        changed(5000),
        wake(5100),
        { type: 'refresh', now: 5110, force: false },
        { type: 'refresh', now: 5120, force: true },
        ended(5200),
        ended(5300),
      ],
      idle(),
    )
    expect(decisions.map(started)).toEqual([
      null,
      { force: false, full: false, poll: false },
      null,
      null,
      { force: true, full: true, poll: false },
      null,
    ])
  })

  it('a refresh runs at once and takes the place of a pending debounced cycle', () => {
    const [, refresh, laterWake] = run(
      [changed(5000, '/a.jsonl'), { type: 'refresh', now: 5010, force: false }, wake(5100)],
      idle(),
    )
    expect(started(refresh as Decision)).toEqual({ force: false, full: true, poll: false })
    expect([...(refresh?.start?.hints.transcripts ?? [])]).toEqual(['/a.jsonl'])
    expect(laterWake?.start).toBeNull()
  })
})

describe('cycle schedule: retries', () => {
  it('a cycle not durable runs again after 1 s, 2 s, 4 s … up to 10 s, full; success resets the delay', () => {
    let schedule = idleUnwatched()
    const waits: number[] = []
    let now = 1000
    const feed = (input: ScheduleInput) => {
      const d = decide(schedule, input, OPTS)
      schedule = d.schedule
      return d
    }
    feed({ type: 'refresh', now, force: false })
    for (let i = 0; i < 6; i++) {
      const end = feed(ended(now, { pending: true }))
      waits.push((schedule.retryAt ?? Number.NaN) - now)
      now = end.wakeAt ?? Number.NaN
      const retry = feed(wake(now))
      // A retry re-reads everything; a poll that comes due first is the loop's call (see above).
      expect(retry.start?.hints.full || retry.start?.poll).toBe(true)
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000])
    feed(ended(now))
    expect(schedule.retryDelayMs).toBe(1000)
  })

  it('a cycle that threw is retried the same way', () => {
    const end = last(
      run(
        [{ type: 'refresh', now: 1000, force: false }, ended(1010, { failed: true })],
        idleUnwatched(),
      ),
    )
    expect(end.schedule.retryAt).toBe(2010)
    expect(end.wakeAt).toBe(2010)
  })

  it('the retry never waits longer than the poll', () => {
    const schedule = { ...idleUnwatched(), retryDelayMs: 8000 }
    const end = last(
      run(
        [{ type: 'refresh', now: 1000, force: false }, ended(1010, { pending: true, poll: 5000 })],
        schedule,
      ),
    )
    expect(end.schedule.retryDelayMs).toBe(5000)
  })
})

describe('cycle schedule: liveness', () => {
  it('while watching, pids are checked every interval, also during a cycle', () => {
    const decisions = run([start(0), wake(2000), wake(4000)])
    expect(decisions.map((d) => d.checkLiveness)).toEqual([false, true, true])
    expect(decisions.map((d) => d.wakeAt)).toEqual([2000, 4000, 6000])
  })

  it('not watching: no pid checks', () => {
    const [first, end] = run([{ type: 'start', now: 0, watching: false }, ended(10)])
    expect(first?.wakeAt).toBeNull()
    expect(end?.wakeAt).toBe(10 + POLL)
  })

  it('full hints stay full when merged with named files', () => {
    const hints = fullScan()
    const [d] = run([{ type: 'changed', now: 5000, hints }], idle())
    expect(d?.schedule.hints.full).toBe(true)
  })
})
