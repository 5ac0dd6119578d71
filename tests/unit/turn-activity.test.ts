import { describe, expect, it } from 'vitest'
import { turnActivity } from '../../electron/engine/core/snapshot.ts'
import { makeSession } from '../support/session-fixture.ts'

const NOW = Date.parse('2026-11-25T12:00:00.000Z')

describe('turnActivity: turns ended within the last hour', () => {
  it.each([
    ['exactly an hour ago counts', ['2026-11-25T11:00:00.000Z'], 1],
    ['a millisecond more does not', ['2026-11-25T10:59:59.999Z'], 0],
    ['canonical times, in and out', ['2026-11-25T09:00:00.000Z', '2026-11-25T11:30:00.000Z'], 1],
    ['no milliseconds, in', ['2026-11-25T11:00:00Z'], 1],
    ['an offset that puts it inside', ['2026-11-25T12:30:00.000+01:00'], 1],
    ['an offset that puts it outside', ['2026-11-25T11:30:00.000+01:00'], 0],
    ['not a time', ['yesterday'], 0],
    [
      'unsorted',
      ['2026-11-25T11:50:00.000Z', '2026-11-25T08:00:00.000Z', '2026-11-25T11:10:00.000Z'],
      2,
    ],
  ])('%s', (_name, ends, expected) => {
    const session = makeSession({ id: 's', recent_turn_ends: ends })
    expect(turnActivity([session], NOW).turns_last_hour).toBe(expected)
  })

  it('adds up every session of the project', () => {
    const a = makeSession({ id: 'a', recent_turn_ends: ['2026-11-25T11:59:00.000Z'] })
    const b = makeSession({
      id: 'b',
      recent_turn_ends: ['2026-11-25T11:01:00.000Z', '2026-11-25T11:02:00.000Z'],
    })
    expect(turnActivity([a, b], NOW).turns_last_hour).toBe(3)
  })

  it("reads no session's ends when its last activity is over an hour old (none can be later)", () => {
    const ends = ['2026-11-25T11:30:00.000Z']
    const quiet = makeSession({
      id: 'q',
      last_activity: '2026-11-25T10:00:00.000Z',
      recent_turn_ends: ends,
    })
    const active = makeSession({
      id: 'a',
      last_activity: '2026-11-25T11:30:00.000Z',
      recent_turn_ends: ends,
    })
    expect(turnActivity([quiet], NOW).turns_last_hour).toBe(0)
    expect(turnActivity([active], NOW).turns_last_hour).toBe(1)
    expect(turnActivity([quiet, active], NOW).turns_last_hour).toBe(1)
  })
})
