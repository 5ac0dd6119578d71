import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createPmLoop, type PmLoop, type PmLoopOptions } from '../../electron/pm/pm-loop.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { PmTrigger } from '../../shared/schemas/briefing.ts'
import { makeEvent } from '../support/pm-events-fixture.ts'

const MIN = 60_000
const T0 = Date.parse('2026-02-16T15:00:00Z')

interface Call {
  trigger: PmTrigger
  events: EngineEvent[]
  at: number
  finish: (ok: boolean) => void
  fail: (error: Error) => void
}

/** Runs a test left unsettled: cleanup settles them so `stop()` can finish. */
const unsettled = new Set<() => void>()

/** A `run` whose calls the test settles by hand, recording when each started and how many overlapped. */
function scriptedRun() {
  const calls: Call[] = []
  let active = 0
  let maxActive = 0
  const run: PmLoopOptions['run'] = (trigger, events) =>
    new Promise<boolean>((resolve, reject) => {
      active++
      maxActive = Math.max(maxActive, active)
      const settleLeftover = () => resolve(false)
      unsettled.add(settleLeftover)
      const done = () => {
        active--
        unsettled.delete(settleLeftover)
      }
      calls.push({
        trigger,
        events,
        at: Date.now() - T0,
        finish: (ok) => (done(), resolve(ok)),
        fail: (error) => (done(), reject(error)),
      })
    })
  return { run, calls, maxActive: () => maxActive }
}

let loop: PmLoop | null = null
const start = (options: PmLoopOptions) => (loop = createPmLoop(options))

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(T0)
})
afterEach(async () => {
  for (const settle of unsettled) settle()
  unsettled.clear()
  await loop?.stop()
  loop = null
  vi.useRealTimers()
})

describe('createPmLoop', () => {
  it('runs initialization at once when the PM never ran', async () => {
    const { run, calls } = scriptedRun()
    start({ run })
    expect(calls).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(0)
    expect(calls.map((c) => c.trigger)).toEqual(['initialization'])
    calls[0]!.finish(true)
    await vi.advanceTimersByTimeAsync(60 * MIN)
    expect(calls).toHaveLength(1)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('batches a burst into one run, two minutes after its first trigger', async () => {
    const { run, calls } = scriptedRun()
    const pm = start({ run, lastRunAt: T0 - 60 * MIN })
    await vi.advanceTimersByTimeAsync(0)
    pm.push([makeEvent('session_status_change', 'apollo')])
    await vi.advanceTimersByTimeAsync(10 * MIN)
    expect(calls).toHaveLength(0)

    pm.push([makeEvent('commit', 'apollo')])
    await vi.advanceTimersByTimeAsync(30_000)
    pm.push([makeEvent('task_completed', 'apollo')])
    await vi.advanceTimersByTimeAsync(89_999)
    expect(calls).toHaveLength(0)
    expect(pm.status().nextRunAt).toBe(T0 + 12 * MIN)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.trigger).toBe('task_completed')
    expect(calls[0]!.at).toBe(12 * MIN)
    expect(calls[0]!.events.map((e) => e.type)).toEqual([
      'session_status_change',
      'commit',
      'task_completed',
    ])
  })

  it('a batch window changed while a batch waits applies to that batch (Settings, no restart)', async () => {
    const { run, calls } = scriptedRun()
    const pm = start({ run, lastRunAt: T0 - 60 * MIN, batchWindowMs: 10 * MIN })
    await vi.advanceTimersByTimeAsync(0)
    pm.push([makeEvent('commit', 'apollo')])
    expect(pm.status().nextRunAt).toBe(T0 + 10 * MIN)
    await vi.advanceTimersByTimeAsync(MIN)
    pm.reconfigure({ batchWindowMs: 2 * MIN })
    expect(pm.status()).toMatchObject({ batchWindowMs: 2 * MIN, nextRunAt: T0 + 2 * MIN })
    await vi.advanceTimersByTimeAsync(MIN)
    expect(calls.map((c) => [c.trigger, c.at])).toEqual([['commit', 2 * MIN]])
    // A longer window pushes the next batch out in the same way.
    calls[0]!.finish(true)
    await vi.advanceTimersByTimeAsync(0)
    pm.reconfigure({ batchWindowMs: 20 * MIN, minIntervalMs: MIN })
    pm.push([makeEvent('task_completed', 'apollo')])
    expect(pm.status().nextRunAt).toBe(T0 + 22 * MIN)
  })

  it('never overlaps runs; on demand waits for the running one, then goes first', async () => {
    const { run, calls, maxActive } = scriptedRun()
    const pm = start({ run, lastRunAt: T0 - 60 * MIN, batchWindowMs: 10_000, minIntervalMs: MIN })
    pm.push([makeEvent('commit', 'apollo')])
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls).toHaveLength(1)
    expect(pm.status().running).toBe(true)

    pm.push([makeEvent('commit', 'apollo')])
    const asked = pm.requestNow()
    await vi.advanceTimersByTimeAsync(5 * MIN)
    expect(calls).toHaveLength(1)

    calls[0]!.finish(true)
    await vi.advanceTimersByTimeAsync(0)
    expect(calls).toHaveLength(2)
    expect(calls[1]!.trigger).toBe('on_demand')
    expect(calls[1]!.events).toHaveLength(1)
    calls[1]!.finish(true)
    await expect(asked).resolves.toBe(true)
    expect(maxActive()).toBe(1)
  })

  it('requestNow runs at once when idle and resolves with the outcome', async () => {
    const { run, calls } = scriptedRun()
    const pm = start({ run, lastRunAt: T0 - 1000 })
    await vi.advanceTimersByTimeAsync(0)
    const asked = pm.requestNow()
    expect(calls.map((c) => c.trigger)).toEqual(['on_demand'])
    calls[0]!.finish(false)
    await expect(asked).resolves.toBe(false)
  })

  it('keeps the events of a run that throws and retries after the interval', async () => {
    const { run, calls } = scriptedRun()
    const errors: unknown[] = []
    const pm = start({
      run,
      lastRunAt: T0 - 60 * MIN,
      onError: (e) => errors.push(e),
    })
    pm.push([makeEvent('commit', 'apollo')])
    await vi.advanceTimersByTimeAsync(2 * MIN)
    expect(calls).toHaveLength(1)
    calls[0]!.fail(new Error('claude exploded'))
    await vi.advanceTimersByTimeAsync(0)
    expect(errors).toHaveLength(1)
    expect(pm.status()).toMatchObject({ running: false, pendingEvents: 1, consecutiveFailures: 1 })

    await vi.advanceTimersByTimeAsync(5 * MIN - 1)
    expect(calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toHaveLength(2)
    expect(calls[1]!.events.map((e) => e.id)).toEqual(calls[0]!.events.map((e) => e.id))
  })

  it('stop waits for the run in progress, clears its timer and refuses new work', async () => {
    const { run, calls } = scriptedRun()
    const pm = start({ run, lastRunAt: T0 - 60 * MIN })
    pm.push([makeEvent('commit', 'apollo')])
    await vi.advanceTimersByTimeAsync(2 * MIN)
    pm.push([makeEvent('commit', 'apollo')])
    const queued = pm.requestNow()

    let stopped = false
    const stopping = pm.stop().then(() => (stopped = true))
    await expect(queued).resolves.toBe(false)
    await vi.advanceTimersByTimeAsync(0)
    expect(stopped).toBe(false)
    calls[0]!.finish(true)
    await stopping
    expect(stopped).toBe(true)

    pm.push([makeEvent('commit', 'apollo')])
    await expect(pm.requestNow()).resolves.toBe(false)
    await vi.advanceTimersByTimeAsync(60 * MIN)
    expect(calls).toHaveLength(1)
    expect(vi.getTimerCount()).toBe(0)
  })
})
