/**
 * When a running Navi runs a cycle before it answers a command's question (runtime/query-protocol.ts): for
 * the state, the sessions and the first page of the events, never for the suggestions that follow the
 * state, nor for a later page of the events.
 */
import { describe, expect, it } from 'vitest'
import { refreshesBefore } from '../../electron/runtime/query-protocol.ts'

describe('refreshesBefore', () => {
  it('runs a cycle before the state, the sessions and the first page of the events', () => {
    expect(refreshesBefore('state:get', undefined)).toBe(true)
    expect(refreshesBefore('sessions:list', { all: true })).toBe(true)
    expect(refreshesBefore('events:list', { limit: 1000 })).toBe(true)
    expect(refreshesBefore('events:list', { limit: 1000, since: '2026-11-27T00:00:00Z' })).toBe(true)
    expect(refreshesBefore('events:list', undefined)).toBe(true)
  })

  it('runs none before the suggestions or a later page of the events', () => {
    expect(refreshesBefore('suggestions:list', undefined)).toBe(false)
    expect(refreshesBefore('events:list', { limit: 1000, before: '2026-11-27T10:00:00Z' })).toBe(
      false,
    )
  })
})
