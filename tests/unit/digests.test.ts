import { describe, expect, it } from 'vitest'
import {
  digestEvents,
  digestLine,
  localDay,
  mergeDigests,
  type DayDigest,
} from '../../electron/pm/core/digests.ts'
import { buildInbox } from '../../electron/pm/core/inbox.ts'
import { makeEvent } from '../support/pm-events-fixture.ts'

const at = (iso: string) => ({ timestamp: iso })
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

describe('digestEvents', () => {
  it('counts per project and day: commits (with the ones not listed), tasks, waits, stalls, turns', () => {
    const events = [
      {
        ...makeEvent('commit', 'apollo', { sha: 'a', more_commits: 2 }),
        ...at('2026-11-25T09:00:00Z'),
      },
      { ...makeEvent('commit', 'apollo', { sha: 'b' }), ...at('2026-11-25T10:00:00Z') },
      { ...makeEvent('task_completed', 'apollo', {}), ...at('2026-11-25T11:00:00Z') },
      {
        ...makeEvent('session_status_change', 'apollo', { to: 'needs_permission' }),
        ...at('2026-11-25T12:00:00Z'),
      },
      {
        ...makeEvent('session_status_change', 'apollo', { to: 'working' }),
        ...at('2026-11-25T12:05:00Z'),
      },
      {
        ...makeEvent('session_trouble', 'apollo', { kind: 'stalled' }),
        ...at('2026-11-25T13:00:00Z'),
      },
      {
        ...makeEvent('turn_completed', 'apollo', { turns: 3, tokens: 1_250_000 }),
        ...at('2026-11-25T14:00:00Z'),
      },
      { ...makeEvent('commit', 'apollo', { sha: 'c' }), ...at('2026-11-26T01:00:00Z') },
      { ...makeEvent('commit', 'zeus', { sha: 'd' }), ...at('2026-11-25T09:00:00Z') },
    ]
    const digests = digestEvents(events, utcDay)
    expect(digests).toContainEqual({
      day: '2026-11-25',
      project: 'apollo',
      commits: 4,
      tasks_done: 1,
      waits: 1,
      stalls: 1,
      turns: 3,
      tokens: 1_250_000,
    })
    expect(digests).toContainEqual(
      expect.objectContaining({ day: '2026-11-26', project: 'apollo', commits: 1 }),
    )
    expect(digests).toContainEqual(
      expect.objectContaining({ day: '2026-11-25', project: 'zeus', commits: 1 }),
    )
    expect(digests).toHaveLength(3)
  })
})

describe('mergeDigests', () => {
  const d = (day: string, commits: number, project = 'apollo'): DayDigest => ({
    day,
    project,
    commits,
    tasks_done: 0,
    waits: 0,
    stalls: 0,
    turns: 0,
    tokens: 0,
  })

  it('keeps the larger count of a day (events leave the 24 h log; no event counts twice)', () => {
    const merged = mergeDigests(
      [d('2026-11-25', 5)],
      [d('2026-11-25', 3), d('2026-11-26', 1)],
      '2026-11-26',
    )
    expect(merged.map((x) => [x.day, x.commits])).toEqual([
      ['2026-11-26', 1],
      ['2026-11-25', 5],
    ])
    // Merging the same fresh counts again changes nothing (two Navis update the same file).
    expect(mergeDigests(merged, [d('2026-11-26', 1)], '2026-11-26')).toEqual(merged)
  })

  it('keeps 90 days', () => {
    const today = '2026-11-26'
    const old = localDay(Date.parse(`${today}T12:00:00`) - 90 * 86_400_000)
    const kept = localDay(Date.parse(`${today}T12:00:00`) - 89 * 86_400_000)
    expect(mergeDigests([d(old, 1), d(kept, 1)], [], today).map((x) => x.day)).toEqual([kept])
  })

  it('reads as one line per project and day', () => {
    expect(
      digestLine({ ...d('2026-11-25', 1), tasks_done: 2, waits: 1, turns: 9, tokens: 1_234_567 }),
    ).toBe('2026-11-25 apollo: 1 commit, 2 tasks done, 1 wait, 0 stalls, 9 turns, 1.2M tokens')
  })
})

describe('buildInbox with daily digests', () => {
  it('carries the newest lines within an eighth of its budget', () => {
    const lines = Array.from(
      { length: 400 },
      (_, i) =>
        `2026-11-${String(i).padStart(3, '0')} apollo: 1 commit, 0 tasks done, 0 waits, 0 stalls, 2 turns`,
    )
    const inbox = buildInbox({
      now: Date.parse('2026-11-26T10:00:00Z'),
      trigger: 'on_demand',
      events: [],
      projects: [],
      budgetTokens: 4000,
      digestLines: lines,
    })
    expect(inbox.daily_digests?.[0]).toBe(lines[0])
    expect(inbox.daily_digests!.length).toBeGreaterThan(5)
    expect(inbox.daily_digests!.length).toBeLessThan(lines.length)
    expect(JSON.stringify(inbox.daily_digests).length / 4).toBeLessThanOrEqual(4000 / 8 + 20)
    expect(
      buildInbox({ now: 0, trigger: 'on_demand', events: [], projects: [] }),
    ).not.toHaveProperty('daily_digests')
  })
})
