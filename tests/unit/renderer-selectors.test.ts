import { describe, expect, it } from 'vitest'
import { makeSession } from '../support/session-fixture.ts'
import { breadcrumbsOnReturn } from '../../renderer/src/store/presence.ts'
import {
  clockTime,
  currentTaskList,
  eventColorClass,
  eventText,
  eventTooltip,
  isOldEvent,
  isRunning,
  mergeEvents,
  missingTools,
  moveCursor,
  projectLine,
  relativeTime,
  resolveCursor,
  singleLine,
  sortAttentionItems,
  sortProjects,
  updatingText,
} from '../../renderer/src/store/selectors.ts'
import type { EngineEvent, EventType } from '../../shared/schemas/event.ts'
import type { PmRunStatus } from '../../shared/schemas/briefing.ts'
import { makeProject } from '../support/pm-events-fixture.ts'

const NOW = Date.parse('2026-11-21T12:00:00Z')
const ago = (ms: number) => new Date(NOW - ms).toISOString()
const MIN = 60_000

/**
 * An event as the popover receives it. Cast, not parsed: some tests hand it details of the wrong type, as an
 * older or broken producer might, to show they still come out as text.
 */
function event(
  type: EventType,
  details: Record<string, unknown>,
  over: Partial<EngineEvent> = {},
): EngineEvent {
  return { id: type, timestamp: ago(MIN), type, project: 'apollo', details, ...over } as EngineEvent
}

describe('sortProjects', () => {
  it('orders by attention, then most recent activity, then name', () => {
    const projects = [
      makeProject({ name: 'idle-b', attention: 'idle' }),
      makeProject({ name: 'active-old', attention: 'active', last_activity: ago(60 * MIN) }),
      makeProject({ name: 'stale', attention: 'stale' }),
      makeProject({ name: 'idle-a', attention: 'idle' }),
      makeProject({ name: 'active-new', attention: 'active', last_activity: ago(MIN) }),
      makeProject({ name: 'done', attention: 'pbi_complete' }),
      makeProject({ name: 'asks', attention: 'needs_input' }),
      makeProject({ name: 'active-never', attention: 'active', last_activity: null }),
    ]
    expect(sortProjects(projects).map((p) => p.name)).toEqual([
      'asks',
      'done',
      'active-new',
      'active-old',
      'active-never',
      'stale',
      'idle-a',
      'idle-b',
    ])
  })

  it('does not reorder its input', () => {
    const input = [makeProject({ name: 'b' }), makeProject({ name: 'a' })]
    sortProjects(input)
    expect(input.map((p) => p.name)).toEqual(['b', 'a'])
  })
})

describe('relativeTime', () => {
  it.each([
    [0, 'just now'],
    [59_000, 'just now'],
    [3 * MIN, '3m ago'],
    [59 * MIN + 59_000, '59m ago'],
    [2 * 60 * MIN, '2h ago'],
    [4 * 24 * 60 * MIN, '4d ago'],
    [-5 * MIN, 'just now'],
  ])('%i ms ago reads %s', (ms, text) => {
    expect(relativeTime(NOW, ago(ms))).toBe(text)
  })

  it('is empty for an unknown time', () => {
    expect(relativeTime(NOW, null)).toBe('')
    expect(relativeTime(NOW, 'not a date')).toBe('')
  })
})

describe('clockTime', () => {
  it('shows the time of day for today and the date for older days (local time)', () => {
    const now = new Date(2026, 10, 21, 16, 0).getTime()
    expect(clockTime(now, new Date(2026, 10, 21, 9, 5).toISOString())).toBe('09:05')
    expect(clockTime(now, new Date(2026, 10, 20, 23, 59).toISOString())).toBe('Nov 20')
    expect(clockTime(now, 'garbage')).toBe('')
  })
})

describe('projectLine', () => {
  it('shows PBI, progress, session status, age and the reason', () => {
    const line = projectLine(
      makeProject({
        name: 'navi',
        attention: 'needs_input',
        current_pbi: {
          id: 'PBI-29',
          title: 'Orchestrator',
          tasks: { done: 2, in_progress: 1, todo: 4, total: 7 },
        },
        session_status: 'needs_permission',
        session_status_reason: 'Claude needs your permission\nto use Bash',
        last_activity: ago(3 * MIN),
      }),
      NOW,
    )
    expect(line).toEqual({
      name: 'navi',
      icon: '?',
      attention: 'needs_input',
      work: 'PBI-29 Orchestrator',
      progress: '2/7',
      status: 'permission',
      ago: '3m ago',
      reason: 'Claude needs your permission to use Bash',
    })
  })

  it('says a session’s trouble before its status reason, and forgets an ended one’s', () => {
    const trouble = {
      kind: 'stalled' as const,
      reason: 'no progress\nfor 12 min',
      since: ago(12 * MIN),
    }
    const project = (status: 'working' | 'ended') =>
      makeProject({
        name: 'navi',
        attention: 'needs_input',
        session_status: 'working',
        session_status_reason: 'running Bash',
        sessions: [makeSession({ id: 's1', status, trouble })],
      })
    expect(projectLine(project('working'), NOW).reason).toBe('no progress for 12 min')
    expect(projectLine(project('ended'), NOW).reason).toBe('running Bash')
  })

  it('falls back to the branch and "no session"', () => {
    const line = projectLine(makeProject({ name: 'quiet', branch: 'main' }), NOW)
    expect([line.work, line.progress, line.status, line.reason]).toEqual([
      'on main',
      null,
      'no session',
      null,
    ])
    const list = projectLine(
      makeProject({
        name: 'x',
        branch: null,
        current_pbi: {
          id: 'l1',
          title: 'Tasks',
          tasks: { done: 0, in_progress: 0, todo: 1, total: 1 },
        },
      }),
      NOW,
    )
    expect(list.work).toBe('Tasks')
  })
})

describe('currentTaskList', () => {
  const list = (id: string, updated_at?: string) => ({
    id,
    title: id,
    source: 'claude_tasks' as const,
    tasks: [],
    ...(updated_at ? { updated_at } : {}),
  })
  it('is the current PBI list, else the most recently updated one', () => {
    const lists = [list('a', ago(5 * MIN)), list('b', ago(MIN)), list('c')]
    const pbi = { id: 'a', title: 'a', tasks: { done: 0, in_progress: 0, todo: 0, total: 0 } }
    expect(
      currentTaskList(makeProject({ name: 'p', task_lists: lists, current_pbi: pbi }))?.id,
    ).toBe('a')
    expect(currentTaskList(makeProject({ name: 'p', task_lists: lists }))?.id).toBe('b')
    expect(currentTaskList(makeProject({ name: 'p' }))).toBeNull()
  })
})

describe('eventText', () => {
  it.each([
    [
      event('commit', { sha: 'abcdef1234', message: 'implement resolver', branch: 'x' }),
      'commit abcdef1 on x: implement resolver',
    ],
    [
      event('commit', { sha: 'abcdef1234', message: 'big push', more_commits: 12 }),
      'commit abcdef1 on (detached): big push (+12 more)',
    ],
    [event('branch_created', { branch: 'feat/a', sha: 'x' }), 'branch feat/a created'],
    [event('task_started', { task_title: 'Schema migrations' }), 'task started: Schema migrations'],
    [
      event('task_completed', { task_title: 'Connection resolver' }),
      'task done: Connection resolver',
    ],
    [
      event('pbi_completed', { title: 'PBI-8 Research agent' }),
      'all tasks done: PBI-8 Research agent',
    ],
    [event('session_started', { agent: 'codex', name: 'fix-ci' }), 'codex session fix-ci started'],
    [
      event('session_started', { agent: 'claude', name: 'n', resumed: true }),
      'claude session n resumed',
    ],
    [
      event('session_ended', { name: 'n', reason: 'no longer found' }),
      'session n ended (no longer found)',
    ],
    [event('session_ended', { name: 'n', reason: null }), 'session n ended'],
    [
      event('session_status_change', {
        name: 'n',
        from: 'working',
        to: 'needs_permission',
        reason: 'Bash: rm -rf',
      }),
      'n needs permission: Bash: rm -rf',
    ],
    [
      event('session_status_change', {
        name: 'n',
        from: 'working',
        to: 'waiting_input',
        reason: null,
      }),
      'n is waiting for input',
    ],
    [
      event('session_status_change', { name: 'n', from: 'working', to: 'idle' }),
      'n: working → idle',
    ],
    [event('pr_created', { branch: 'feat/a', number: 42 }), 'PR #42 opened for feat/a'],
    [event('pr_created', { branch: null }), 'PR opened for a branch'],
  ])('%#: %s', (e, text) => {
    expect(eventText(e)).toBe(text)
  })

  it('keeps untrusted text on one line and ignores details of the wrong type', () => {
    expect(eventText(event('commit', { sha: 'abc', message: 'evil\u001b[2J\nsecond' }))).toBe(
      'commit abc on (detached): evil [2J second',
    )
    expect(eventText(event('task_completed', { task_title: 42 }))).toBe('task done: ')
  })

  it('puts the full sha and branch of a commit in its tooltip', () => {
    const e = event('commit', { sha: 'abcdef1234', message: 'm', branch: 'main' })
    expect(eventTooltip(e)).toBe('commit abcdef1 on main: m\nabcdef1234 on main')
    expect(eventTooltip(event('branch_created', { branch: 'b' }))).toBe('branch b created')
  })
})

describe('event colors and age', () => {
  it.each<[EventType, string]>([
    ['task_started', 'green'],
    ['task_completed', 'green'],
    ['pbi_completed', 'green'],
    ['session_started', 'yellow'],
    ['session_ended', 'yellow'],
    ['session_status_change', 'yellow'],
    ['commit', 'cyan'],
    ['branch_created', 'cyan'],
    ['pr_created', 'cyan'],
  ])('%s is %s', (type, color) => {
    expect(eventColorClass(type)).toBe(color)
  })

  it('dims events older than an hour', () => {
    expect(isOldEvent(NOW, event('commit', {}, { timestamp: ago(59 * MIN) }))).toBe(false)
    expect(isOldEvent(NOW, event('commit', {}, { timestamp: ago(61 * MIN) }))).toBe(true)
  })
})

describe('mergeEvents', () => {
  const e = (id: string, minutesAgo: number) =>
    event('commit', {}, { id, timestamp: ago(minutesAgo * MIN) })
  it('prepends new events newest first, without duplicates, up to the cap', () => {
    const current = [e('b', 2), e('a', 3)]
    const merged = mergeEvents(current, [e('c', 1), e('b', 2), e('d', 0)], 10)
    expect(merged.map((x) => x.id)).toEqual(['d', 'c', 'b', 'a'])
    expect(mergeEvents(merged, [], 2).map((x) => x.id)).toEqual(['d', 'c'])
  })
  it('keeps order for an older page appended at the end', () => {
    expect(mergeEvents([e('n', 1)], [e('o', 9)], 10).map((x) => x.id)).toEqual(['n', 'o'])
  })
})

describe('briefing', () => {
  it('sorts attention items high, medium, low and keeps the PM order within a priority', () => {
    const item = (title: string, priority: 'high' | 'medium' | 'low') => ({
      project: 'p',
      title,
      priority,
    })
    const sorted = sortAttentionItems([
      item('l', 'low'),
      item('m1', 'medium'),
      item('h', 'high'),
      item('m2', 'medium'),
    ])
    expect(sorted.map((i) => i.title)).toEqual(['h', 'm1', 'm2', 'l'])
  })

  it.each<[PmRunStatus['phase'] | null, string | null]>([
    ['starting', 'updating… (starting)'],
    ['reading_memory', 'updating… (reading memory)'],
    ['thinking', 'updating… (thinking)'],
    ['writing_memory', 'updating… (writing memory)'],
    ['done', null],
    ['failed', null],
    [null, null],
  ])('phase %s reads %s', (phase, text) => {
    const status = phase ? { phase, trigger: 'on_demand' as const, at: ago(0) } : null
    expect(updatingText(status)).toBe(text)
    expect(isRunning(status)).toBe(text !== null)
  })

  it('shows breadcrumbs on the first view and after ten minutes away', () => {
    expect(breadcrumbsOnReturn(null)).toBe(true)
    expect(breadcrumbsOnReturn(9 * MIN)).toBe(false)
    expect(breadcrumbsOnReturn(10 * MIN)).toBe(true)
  })
})

describe('cursor', () => {
  const ids = ['a', 'b', 'c']
  it.each<[string | null, number, string | null]>([
    [null, 1, 'a'],
    ['a', 1, 'b'],
    ['c', 1, 'c'],
    ['a', -1, 'a'],
    ['c', -1, 'b'],
    ['gone', 1, 'a'],
  ])('from %s by %i lands on %s', (from, delta, to) => {
    expect(moveCursor(ids, from, delta)).toBe(to)
  })
  it('resolves a vanished cursor to the first row, and nothing in an empty list', () => {
    expect(resolveCursor(ids, 'b')).toBe('b')
    expect(resolveCursor(ids, 'gone')).toBe('a')
    expect(resolveCursor([], 'a')).toBeNull()
    expect(moveCursor([], 'a', 1)).toBeNull()
  })
})

describe('small helpers', () => {
  it('flattens control characters and line breaks', () => {
    expect(singleLine('  a\tb\r\n\u2028c\u0007 ')).toBe('a b c')
  })
  it('lists only missing tools, claude and git as required, tmux and gh as optional', () => {
    const tool = (name: 'claude' | 'git' | 'tmux' | 'gh', found: boolean) => ({
      name,
      found,
      path: null,
      fix: null,
    })
    const names = (tools: { name: string }[]) => tools.map((t) => t.name)
    const split = missingTools([
      tool('claude', false),
      tool('git', true),
      tool('tmux', false),
      tool('gh', false),
    ])
    expect(names(split.required)).toEqual(['claude'])
    expect(names(split.optional)).toEqual(['tmux', 'gh'])
    expect(missingTools([tool('git', true)])).toEqual({ required: [], optional: [] })
  })
})
