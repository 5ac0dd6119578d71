/**
 * clockHorizon: until when the clock alone cannot change what a cycle derived. Checked against the rules
 * themselves: for random projects of settled sessions, a snapshot built at any time before the horizon is
 * the snapshot built at the start (but for its capture time), and one built just after it differs when
 * the horizon is a snapshot window's.
 */
import { describe, expect, it } from 'vitest'
import { clockHorizon, sessionSettledAt } from '../../electron/engine/core/clock-horizon.ts'
import { SETTLED_AFTER_MS } from '../../electron/engine/core/claude-session-memo.ts'
import { EVENT_MAX_AGE_MS } from '../../electron/engine/core/event-line.ts'
import { CODEX_IDLE_END_MS } from '../../electron/engine/core/session-status.ts'
import {
  ACTIVE_WINDOW_MS,
  buildSnapshot,
  SESSION_RETENTION_MS,
} from '../../electron/engine/core/snapshot.ts'
import type { ProjectSnapshot } from '../../shared/schemas/project.ts'
import type { Session } from '../../shared/schemas/session.ts'
import { makeSession } from '../support/session-fixture.ts'
import { createRandom } from '../support/seeded-random.ts'

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0)
const HOUR = 3_600_000
const iso = (ms: number) => new Date(ms).toISOString()

function snapshotAt(sessions: Session[], now: number, registered: boolean): ProjectSnapshot | null {
  const group = {
    projectDir: '/p',
    isGit: false,
    registered,
    configuredName: null,
    tasksFile: null,
    sessions,
  }
  const built = buildSnapshot({ group, name: 'p', git: null, checklists: [], errors: [], now })
  return built && { ...built, captured_at: '' }
}

/** A settled session with activity up to ten days before T0 and turn ends in the hours before it. */
function randomSession(random: () => number, i: number): Session {
  // One in four in the last two hours: turns of the last hour count.
  const span = random() < 0.25 ? 2 * HOUR : 10 * 24 * HOUR
  const last = T0 - SETTLED_AFTER_MS - Math.floor(random() * span)
  const ends = Array.from({ length: Math.floor(random() * 4) }, () =>
    iso(last - Math.floor(random() * 2 * HOUR)),
  ).sort()
  return makeSession({
    id: `s${String(i)}`,
    status: random() < 0.5 ? 'ended' : 'idle',
    last_activity: iso(last),
    recent_turn_ends: ends,
  })
}

describe('clockHorizon', () => {
  it('holds every snapshot as it was until the horizon, over random projects', () => {
    const random = createRandom(11)
    let changedAtHorizon = 0
    for (let round = 0; round < 300; round++) {
      const sessions = Array.from({ length: 1 + Math.floor(random() * 4) }, (_, i) =>
        randomSession(random, i),
      )
      const registered = random() < 0.3
      const first = snapshotAt(sessions, T0, registered)
      const horizon = clockHorizon({
        now: T0,
        sessions,
        projects: first ? [{ ...first, captured_at: iso(T0) }] : [],
      })
      expect(horizon).toBeGreaterThan(T0)
      if (!Number.isFinite(horizon)) continue
      const times = [horizon - 1, T0 + Math.floor(random() * (horizon - T0))]
      for (const at of times) expect(snapshotAt(sessions, at, registered)).toEqual(first)
      if (JSON.stringify(snapshotAt(sessions, horizon + 1, registered)) !== JSON.stringify(first))
        changedAtHorizon++
    }
    // The horizon is where something changes, not merely some time before it (a bound of "now" would
    // pass the first check alone).
    expect(changedAtHorizon).toBeGreaterThan(10)
  })

  it('is now while a session may change any moment: running, waiting on its user, or not yet settled', () => {
    const settled = { last_activity: iso(T0 - 2 * HOUR) }
    const cases: Session[] = [
      makeSession({ id: 'w', status: 'working', ...settled }),
      makeSession({ id: 'n', status: 'needs_permission', ...settled }),
      makeSession({
        id: 'p',
        status: 'idle',
        ...settled,
        pending_request: {
          tool: 'AskUserQuestion',
          detail: 'which?',
          description: null,
          since: iso(T0 - 2 * HOUR),
          request_id: 'r1',
          input_digest: null,
          answer_until: null,
        },
      }),
      makeSession({ id: 'i', status: 'idle', last_activity: iso(T0 - SETTLED_AFTER_MS + 1) }),
      makeSession({
        id: 't',
        status: 'ended',
        ...settled,
        task_lists: [
          { id: 'l', title: null, session_id: 't', tasks: [], updated_at: iso(T0 - 1000) },
        ],
      } as unknown as Partial<Session> & { id: string }),
    ]
    for (const session of cases) {
      expect(clockHorizon({ now: T0, sessions: [session], projects: [] }), session.id).toBe(T0)
      expect(sessionSettledAt(session)).toBeGreaterThan(T0)
    }
    const quiet = makeSession({
      id: 'q',
      status: 'idle',
      last_activity: iso(T0 - SETTLED_AFTER_MS),
    })
    expect(clockHorizon({ now: T0, sessions: [quiet], projects: [] })).toBe(
      T0 - SETTLED_AFTER_MS + ACTIVE_WINDOW_MS,
    )
  })

  it('closes when an idle Codex session ends by its quiet', () => {
    const last = T0 - 1.5 * HOUR
    const codex = makeSession({ id: 'c', agent: 'codex', status: 'idle', last_activity: iso(last) })
    // Its active hour is over; its other snapshot windows are a day and a week away.
    expect(last + CODEX_IDLE_END_MS).toBeLessThan(last + SESSION_RETENTION_MS)
    expect(clockHorizon({ now: T0, sessions: [codex], projects: [] })).toBe(
      last + CODEX_IDLE_END_MS,
    )
  })

  it('closes when the oldest listed event turns a day old, and is now when one already has', () => {
    const events = [{ timestamp: iso(T0 - HOUR) }, { timestamp: iso(T0 - 20 * HOUR) }]
    expect(clockHorizon({ now: T0, sessions: [], projects: [], events })).toBe(
      T0 - 20 * HOUR + EVENT_MAX_AGE_MS,
    )
    const old = [...events, { timestamp: iso(T0 - EVENT_MAX_AGE_MS - 1) }]
    expect(clockHorizon({ now: T0, sessions: [], projects: [], events: old })).toBe(T0)
  })

  it('closes when a snooze ends; a dismissal for good or one already over changes nothing', () => {
    const input = { now: T0, sessions: [], projects: [] }
    expect(clockHorizon({ ...input, dismissedUntil: [null, iso(T0 - 5), iso(T0 + 60_000)] })).toBe(
      T0 + 60_000,
    )
    expect(clockHorizon({ ...input, dismissedUntil: [null, iso(T0 - 5)] })).toBe(Infinity)
  })
})
