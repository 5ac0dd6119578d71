import { describe, expect, it } from 'vitest'
import type { PushChannel } from '../../shared/ipc-contract.ts'
import type { PmRunStatus } from '../../shared/schemas/briefing.ts'
import { createPushHub } from '../../electron/runtime/push-hub.ts'
import { emptyState, fakeEngine, fakePm, makeEvent, noBriefing } from '../support/contract-fakes.ts'

const status = (phase: PmRunStatus['phase']): PmRunStatus => ({
  phase,
  trigger: 'on_demand',
  at: '2026-01-01T00:00:00Z',
})

function record(hub: ReturnType<typeof createPushHub>) {
  const got: [PushChannel, unknown][] = []
  hub.subscribe((channel, payload) => got.push([channel, payload]))
  return got
}

describe('createPushHub', () => {
  it('turns an engine cycle into state:changed, then events:appended when there are events', () => {
    const engine = fakeEngine()
    const hub = createPushHub({ engine, pm: null })
    const got = record(hub)
    const state = { ...emptyState(), generated_at: '2026-01-02T00:00:00Z' }
    const events = [makeEvent('a', '2026-01-02T00:00:00Z')]
    engine.emit([], state)
    engine.emit(events, state)
    expect(got).toEqual([
      ['state:changed', state],
      ['state:changed', state],
      ['events:appended', events],
    ])
  })

  it('forwards PM statuses, tracks the run in progress and clears it when done or failed', () => {
    const pm = fakePm()
    const hub = createPushHub({ engine: fakeEngine(), pm })
    const got = record(hub)
    expect(hub.running()).toBeNull()
    pm.status(status('starting'))
    pm.status(status('thinking'))
    expect(hub.running()).toEqual(status('thinking'))
    pm.status(status('failed'))
    expect(hub.running()).toBeNull()
    pm.status(status('thinking'))
    pm.status(status('done'))
    expect(hub.running()).toBeNull()
    expect(got.map(([c]) => c)).toEqual(Array(5).fill('pm:status'))
  })

  it('pushes a new briefing as a view with no run in progress', () => {
    const pm = fakePm()
    const hub = createPushHub({ engine: fakeEngine(), pm })
    const got = record(hub)
    pm.status(status('writing_memory'))
    const state = { ...noBriefing(), error: 'x' }
    pm.briefing(state)
    expect(hub.running()).toBeNull()
    expect(got.at(-1)).toEqual(['briefing:changed', { state, running: null }])
  })

  it('keeps delivering to the others when a listener throws', () => {
    const engine = fakeEngine()
    const hub = createPushHub({ engine, pm: null })
    hub.subscribe(() => {
      throw new Error('window closed')
    })
    const got = record(hub)
    hub.publish('popover:navigate', { view: 'settings' })
    engine.emit([])
    expect(got.map(([c]) => c)).toEqual(['popover:navigate', 'state:changed'])
  })

  it('stops: unsubscribes from the engine and delivers nothing more', () => {
    const engine = fakeEngine()
    const hub = createPushHub({ engine, pm: fakePm() })
    const got = record(hub)
    const unsubscribe = hub.subscribe(() => undefined)
    unsubscribe()
    hub.stop()
    engine.emit([makeEvent('a', '2026-01-01T00:00:00Z')])
    hub.publish('pm:status', status('starting'))
    expect(got).toEqual([])
    expect(engine.listenerCount()).toBe(0)
  })
})
