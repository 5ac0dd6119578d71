import { describe, expect, it } from 'vitest'
import type { Session } from '../../shared/schemas/session.ts'
import {
  classifyApiFailure,
  detectTrouble,
  withTrouble,
  type TroubleThresholds,
} from '../../electron/engine/core/trouble.ts'
import { makeSession } from '../support/session-fixture.ts'

const NOW = Date.parse('2026-11-25T12:00:00.000Z')
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString()
const T: TroubleThresholds = {
  stalledAfterMs: 10 * 60_000,
  waitingAfterMs: 15 * 60_000,
  repeats: 3,
}

const session = (over: Partial<Session>): Session => makeSession({ id: 's1', ...over })
const failure = (over: Partial<NonNullable<Session['api_failure']>>) => ({
  kind: 'rate_limit' as const,
  message: 'API Error: Request rejected (429) · rate limited',
  status: 429,
  retrying: false,
  attempt: null,
  at: ago(1),
  ...over,
})
const streak = (runs: number, failures: number) => ({
  command: 'npm test',
  runs,
  failures,
  since: ago(3),
})

describe('detectTrouble', () => {
  it.each<[string, Partial<Session>, string | null, RegExp | null]>([
    ['an idle session', { status: 'idle', last_activity: ago(60) }, null, null],
    [
      'working, quiet 10 min: stalled',
      { status: 'working', status_reason: 'running Bash', last_activity: ago(10) },
      'stalled',
      /^no progress for 10 min \(last: running Bash\)$/,
    ],
    ['working, quiet 9 min', { status: 'working', last_activity: ago(9) }, null, null],
    ['working, no activity known', { status: 'working', last_activity: null }, null, null],
    ['working, activity in the future', { status: 'working', last_activity: ago(-30) }, null, null],
    [
      'a permission asked 15 min ago',
      { status: 'needs_permission', status_reason: 'Bash (rm -rf build)', status_since: ago(15) },
      'waiting_long',
      /^waiting 15 min for a permission: Bash \(rm -rf build\)$/,
    ],
    [
      'a question asked 20 min ago',
      { status: 'waiting_input', status_since: ago(20) },
      'waiting_long',
      /^waiting 20 min for an answer$/,
    ],
    ['a question asked 14 min ago', { status: 'waiting_input', status_since: ago(14) }, null, null],
    [
      'a final API error',
      { status: 'idle', api_failure: failure({}) },
      'api_error',
      /^rate limited \(429\): API Error: Request rejected/,
    ],
    [
      'an API retry, 2nd attempt: not yet',
      {
        status: 'working',
        api_failure: failure({ retrying: true, attempt: 2 }),
        last_activity: ago(1),
      },
      null,
      null,
    ],
    [
      'an API retry, 3rd attempt',
      {
        status: 'working',
        api_failure: failure({ retrying: true, attempt: 3, kind: 'overloaded', status: 529 }),
      },
      'api_error',
      /^API overloaded \(529\), retry 3/,
    ],
    [
      'the same command failing 3 times',
      { status: 'working', command_streak: streak(3, 3), last_activity: ago(0) },
      'failing_command',
      /^the same command failed 3 times in a row: npm test$/,
    ],
    [
      'the same command run 3 times, the last one passing',
      { status: 'working', command_streak: streak(3, 0), last_activity: ago(0) },
      'repeated_command',
      /^the same command ran 3 times in a row: npm test$/,
    ],
    ['the same command twice', { status: 'working', command_streak: streak(2, 2) }, null, null],
    [
      'an ended session, whatever it was',
      { status: 'ended', api_failure: failure({}), command_streak: streak(5, 5) },
      null,
      null,
    ],
    [
      'an API error wins over a failing command',
      { status: 'idle', api_failure: failure({}), command_streak: streak(3, 3) },
      'api_error',
      null,
    ],
    [
      'a failing command wins over a stall',
      { status: 'working', command_streak: streak(4, 3), last_activity: ago(30) },
      'failing_command',
      null,
    ],
  ])('%s', (_name, over, kind, reason) => {
    const trouble = detectTrouble(session(over), NOW, T)
    expect(trouble?.kind ?? null).toBe(kind)
    if (reason) expect(trouble?.reason).toMatch(reason)
  })

  it('names each trouble by when its condition began', () => {
    expect(
      detectTrouble(session({ status: 'working', last_activity: ago(12) }), NOW, T)?.since,
    ).toBe(ago(12))
    expect(
      detectTrouble(session({ status: 'working', command_streak: streak(3, 3) }), NOW, T)?.since,
    ).toBe(ago(3))
    expect(
      detectTrouble(session({ status: 'idle', api_failure: failure({ at: ago(2) }) }), NOW, T)
        ?.since,
    ).toBe(ago(2))
  })

  it('says how long in the unit that matters', () => {
    const quick: TroubleThresholds = { ...T, stalledAfterMs: 1000, waitingAfterMs: 1000 }
    const stalled = (minutesAgo: number) =>
      detectTrouble(session({ status: 'working', last_activity: ago(minutesAgo) }), NOW, quick)
        ?.reason
    expect(stalled(0.5)).toBe('no progress for 30 s')
    expect(stalled(59)).toBe('no progress for 59 min')
    expect(stalled(60)).toBe('no progress for 1 h')
    expect(stalled(125)).toBe('no progress for 2 h 5 min')
  })

  it('follows the configured thresholds', () => {
    const lenient: TroubleThresholds = {
      stalledAfterMs: 30 * 60_000,
      waitingAfterMs: 60 * 60_000,
      repeats: 5,
    }
    expect(
      detectTrouble(session({ status: 'working', last_activity: ago(20) }), NOW, lenient),
    ).toBeNull()
    expect(
      detectTrouble(session({ status: 'waiting_input', status_since: ago(45) }), NOW, lenient),
    ).toBeNull()
    expect(
      detectTrouble(session({ status: 'working', command_streak: streak(4, 4) }), NOW, lenient),
    ).toBeNull()
  })

  it('withTrouble keeps a session without trouble as it is, and clears an old one', () => {
    const calm = session({ status: 'idle' })
    expect(withTrouble(calm, NOW, T)).toBe(calm)
    const was = session({
      status: 'idle',
      trouble: { kind: 'stalled', reason: 'x', since: ago(20) },
    })
    expect(withTrouble(was, NOW, T).trouble).toBeNull()
  })
})

describe('classifyApiFailure', () => {
  it.each<[string | null, number | null, string, string]>([
    ['rate_limit', 429, 'API Error: Request rejected (429) · fake 429 error', 'rate_limit'],
    [
      'server_error',
      529,
      'API Error: 529 fake 529 error. This is a server-side issue',
      'overloaded',
    ],
    [null, 529, '529 Overloaded', 'overloaded'],
    ['server_error', 500, 'API Error: 500 fake 500 error.', 'server_error'],
    ['authentication_failed', 401, 'Failed to authenticate. API Error: 401', 'authentication'],
    [null, 403, 'API Error: 403 forbidden', 'authentication'],
    [
      null,
      400,
      'API Error: 400 Your credit balance is too low to access the Anthropic API',
      'quota',
    ],
    [null, null, 'Claude AI usage limit reached|1764072000', 'quota'],
    ['unknown', 400, 'API Error: 400 fake 400 error', 'other'],
    [null, null, 'API Error: Unable to connect to API (ConnectionRefused)', 'other'],
  ])('%s %s %s → %s', (errorClass, status, message, kind) => {
    expect(classifyApiFailure(errorClass, status, message)).toBe(kind)
  })
})
