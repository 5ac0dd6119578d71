import { describe, expect, it } from 'vitest'
import type { ContractHandlers } from '../../shared/ipc-contract.ts'
import { dispatchCall, isIpcChannel } from '../../electron/runtime/dispatch.ts'
import { emptyState, makeEvent, memorySettings, noBriefing } from '../support/contract-fakes.ts'
import { EVENTS_PAGE_MAX } from '../../shared/events-page-size.ts'

function handlers(over: Partial<ContractHandlers> = {}): ContractHandlers {
  const settings = memorySettings()
  const done = async () => ({ done: true, message: 'ok' })
  const answering = { listening: false, away: null, sessions: {}, wait_seconds: 300 }
  return {
    'state:get': async () => emptyState(),
    'events:list': async ({ limit }) => ({
      events: [makeEvent('a', '2026-01-01T00:00:00Z')].slice(0, limit),
      has_more: false,
    }),
    'sessions:list': async () => ({ generated_at: '2026-01-01T00:00:00Z', sessions: [] }),
    'briefing:get': async () => ({ state: noBriefing(), running: null }),
    'settings:get': async () => settings.get(),
    'tools:get': async () => [],
    'suggestions:list': async () => [],
    'briefing:refresh': done,
    'attention:dismiss': done,
    'pm:ask': async ({ question }) => ({ answer: { answer: question, actions: [] }, error: null }),
    'settings:set': (patch) => settings.set(patch),
    'hooks:install': done,
    'session:focus': done,
    'session:answer': done,
    'session:reply': done,
    'answering:get': async () => answering,
    'answering:set': async () => answering,
    'popover:hide': done,
    'tasks:list': async () => [],
    'task:preview': async () => ({
      dir: null,
      project: null,
      why: null,
      candidates: [],
      plan_keyword: null,
    }),
    'task:start': async () => ({ done: false, message: 'off', task: null, candidates: [] }),
    'task:reply': async () => ({ done: false, message: 'off', task: null, candidates: [] }),
    'task:cancel': async () => ({ done: false, message: 'off', task: null, candidates: [] }),
    ...over,
  }
}

describe('dispatchCall', () => {
  it('answers ok with the handler output', async () => {
    expect(await dispatchCall(handlers(), 'state:get', undefined)).toEqual({
      ok: true,
      data: emptyState(),
    })
  })

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty object', {}],
  ])('takes %s as the input of a void channel', async (_, input) => {
    const result = await dispatchCall(handlers(), 'briefing:get', input)
    expect(result.ok).toBe(true)
  })

  it.each([
    ['an unknown channel', 'state:nope', undefined, 'unknown_channel'],
    ['a prototype key', 'constructor', undefined, 'unknown_channel'],
    ['a void channel given data', 'state:get', { x: 1 }, 'bad_input'],
    ['a limit over the maximum', 'events:list', { limit: EVENTS_PAGE_MAX + 1 }, 'bad_input'],
    ['a missing session id', 'session:focus', {}, 'bad_input'],
    ['an unknown setting', 'settings:set', { bogus: true }, 'bad_input'],
    ['a bad duration', 'settings:set', { poll_interval: 'soon' }, 'bad_input'],
  ])('refuses %s', async (_, channel, input, code) => {
    const result = await dispatchCall(handlers(), channel, input)
    expect(result).toMatchObject({ ok: false, error: { code } })
    if (!result.ok) expect(result.error.message.length).toBeGreaterThan(0)
  })

  it('names the offending field in a bad_input message', async () => {
    const result = await dispatchCall(handlers(), 'settings:set', { poll_interval: 'soon' })
    expect(result.ok ? '' : result.error.message).toMatch(
      /^settings:set: poll_interval: expected a duration/,
    )
  })

  it('applies the input defaults before calling the handler', async () => {
    let seen: unknown
    const result = await dispatchCall(
      handlers({
        'events:list': async (input) => {
          seen = input
          return { events: [], has_more: false }
        },
      }),
      'events:list',
      {},
    )
    expect(result.ok).toBe(true)
    expect(seen).toEqual({ limit: 200 })
  })

  it('turns a throwing handler into failed with its message only', async () => {
    const result = await dispatchCall(
      handlers({
        'hooks:install': async () => {
          throw new Error('settings.json is not JSON')
        },
      }),
      'hooks:install',
      undefined,
    )
    expect(result).toEqual({
      ok: false,
      error: { code: 'failed', message: 'settings.json is not JSON' },
    })
  })

  it('reports an output off the contract as bad_output', async () => {
    const result = await dispatchCall(
      handlers({ 'popover:hide': async () => ({ done: 'yes' }) as never }),
      'popover:hide',
      undefined,
    )
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_output' } })
  })

  it('passes a valid settings patch through without filling in defaults', async () => {
    const first = await dispatchCall(handlers(), 'settings:set', { launch_at_login: true })
    expect(first).toMatchObject({ ok: true, data: { launch_at_login: true } })
  })
})

describe('isIpcChannel', () => {
  it.each([
    ['state:get', true],
    ['popover:hide', true],
    ['toString', false],
    ['', false],
  ])('%s → %s', (channel, expected) => {
    expect(isIpcChannel(channel)).toBe(expected)
  })
})
