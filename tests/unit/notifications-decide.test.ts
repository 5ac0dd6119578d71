import { describe, expect, it } from 'vitest'
import { describeEvent } from '../../shared/event-text.ts'
import {
  decideNotifications,
  initialNotifierState,
  isPaused,
  pauseUntil,
  withSeenAttention,
  type AttentionItemInput,
  type NotifierInput,
  type NotifierState,
} from '../../electron/main/notifications/decide.ts'
import { plainText } from '../../electron/main/notifications/plain-text.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import { settingsSchema, type Settings } from '../../shared/schemas/settings.ts'
import { makeEvent, makeProject } from '../support/pm-events-fixture.ts'
import { makeSession } from '../support/session-fixture.ts'

const T0 = Date.parse('2026-11-21T12:00:00Z')
const WINDOW = 30_000

function settings(over: Partial<Settings> = {}): Settings {
  return { ...settingsSchema.parse({}), ...over }
}

function input(over: Partial<NotifierInput> = {}): NotifierInput {
  return {
    now: T0,
    events: [],
    projects: [],
    settings: settings(),
    popover: { visible: false },
    ...over,
  }
}

const commit = (project: string, sha: string, message: string, extra = {}): EngineEvent =>
  makeEvent('commit', project, { sha, message, branch: 'main', ...extra })

/** Feeds the steps through the reducer, returning every notification and the last decision. */
function run(steps: Partial<NotifierInput>[], state: NotifierState = initialNotifierState()) {
  const all = []
  let last = decideNotifications(state, input(steps[0]))
  all.push(...last.notifications)
  for (const step of steps.slice(1)) {
    last = decideNotifications(last.state, input(step))
    all.push(...last.notifications)
  }
  return { all, last }
}

describe('commit grouping', () => {
  it('two commits within the window become one notification once the window has passed', () => {
    const first = decideNotifications(
      initialNotifierState(),
      input({ events: [commit('navi', 'c1', 'first')] }),
    )
    expect(first.notifications).toEqual([])
    expect(first.nextWakeAt).toBe(T0 + WINDOW)

    const second = decideNotifications(
      first.state,
      input({ now: T0 + 10_000, events: [commit('navi', 'c2', 'second')] }),
    )
    expect(second.notifications).toEqual([])
    expect(second.nextWakeAt).toBe(T0 + WINDOW)

    const wake = decideNotifications(second.state, input({ now: T0 + WINDOW }))
    expect(wake.notifications).toHaveLength(1)
    expect(wake.notifications[0]).toMatchObject({
      kind: 'commits',
      project: 'navi',
      title: 'navi: 2 commits',
      body: 'second\nfirst',
    })
    expect(wake.nextWakeAt).toBeNull()
    expect(wake.state.commitGroups).toEqual({})
  })

  it('a single commit says "1 commit"', () => {
    const { all } = run([{ events: [commit('navi', 'c1', 'only')] }, { now: T0 + WINDOW }])
    expect(all.map((n) => n.title)).toEqual(['navi: 1 commit'])
  })

  it('commits to two projects give two notifications', () => {
    const { all } = run([
      { events: [commit('navi', 'c1', 'a'), commit('apollo', 'd1', 'b')] },
      { now: T0 + WINDOW },
    ])
    expect(all.map((n) => [n.project, n.title])).toEqual([
      ['navi', 'navi: 1 commit'],
      ['apollo', 'apollo: 1 commit'],
    ])
  })

  it('a commit after the window flushes the old group and opens a new one', () => {
    const { all, last } = run([
      { events: [commit('navi', 'c1', 'old')] },
      { now: T0 + WINDOW + 5, events: [commit('navi', 'c2', 'new')] },
    ])
    expect(all.map((n) => n.body)).toEqual(['old'])
    expect(last.nextWakeAt).toBe(T0 + 2 * WINDOW + 5)
    const later = decideNotifications(last.state, input({ now: T0 + 2 * WINDOW + 5 }))
    expect(later.notifications.map((n) => n.body)).toEqual(['new'])
  })

  it('shows the three newest subjects and counts the rest, including untallied ones', () => {
    const events = ['s1', 's2', 's3', 's4'].map((s) => commit('navi', s, s))
    events[3] = commit('navi', 's4', 's4', { more_commits: 10 })
    const { all } = run([{ events }, { now: T0 + WINDOW }])
    expect(all[0]).toMatchObject({ title: 'navi: 14 commits', body: 's4\ns3\ns2\n+11 more' })
  })

  it('the same commit seen twice counts once', () => {
    const { all } = run([
      { events: [commit('navi', 'c1', 'x')] },
      { now: T0 + 1, events: [commit('navi', 'c1', 'x')] },
      { now: T0 + WINDOW },
    ])
    expect(all.map((n) => n.title)).toEqual(['navi: 1 commit'])
  })

  it('honours commit_group_window from the settings', () => {
    const s = settings({ commit_group_window: '2m' })
    const first = decideNotifications(
      initialNotifierState(),
      input({ settings: s, events: [commit('navi', 'c1', 'x')] }),
    )
    expect(first.nextWakeAt).toBe(T0 + 120_000)
    expect(
      decideNotifications(first.state, input({ settings: s, now: T0 + 60_000 })).notifications,
    ).toEqual([])
  })
})

describe('a zero window', () => {
  it.each<Settings['commit_group_window']>([0, '0s', '0ms'])(
    '%s notifies each batch at once, with no wake-up pending',
    (window) => {
      const decision = decideNotifications(
        initialNotifierState(),
        input({
          settings: settings({ commit_group_window: window }),
          events: [commit('navi', 'c1', 'x')],
        }),
      )
      expect(decision.notifications.map((n) => n.title)).toEqual(['navi: 1 commit'])
      expect(decision.nextWakeAt).toBeNull()
    },
  )

  it('still makes one notification of the commits of one batch (a pull)', () => {
    const decision = decideNotifications(
      initialNotifierState(),
      input({
        settings: settings({ commit_group_window: 0 }),
        events: [
          commit('navi', 'c1', 'one'),
          commit('navi', 'c2', 'two'),
          commit('navi', 'c3', 'three'),
        ],
      }),
    )
    expect(decision.notifications.map((n) => n.title)).toEqual(['navi: 3 commits'])
  })
})

describe('single-event notifications', () => {
  it('task_completed and pbi_completed each notify, with distinct wording', () => {
    const { notifications } = decideNotifications(
      initialNotifierState(),
      input({
        events: [
          makeEvent('task_completed', 'navi', { task_title: 'Write tests', pbi_title: 'PBI 4' }),
          makeEvent('pbi_completed', 'navi', { title: 'PBI 4', tasks: 5 }),
          makeEvent('task_started', 'navi', { task_title: 'ignored' }),
        ],
      }),
    )
    // The body is the wording every face uses (shared/event-text.ts); the title names the project.
    expect(notifications.map((n) => [n.kind, n.title, n.body])).toEqual([
      ['task_completed', 'navi', 'task done: Write tests'],
      ['pbi_completed', 'navi', 'all tasks done: PBI 4'],
    ])
    expect(notifications.map((n) => n.body)).toEqual(
      [
        makeEvent('task_completed', 'navi', { task_title: 'Write tests', pbi_title: 'PBI 4' }),
        makeEvent('pbi_completed', 'navi', { title: 'PBI 4', tasks: 5 }),
      ].map((e) => describeEvent(e)),
    )
  })

  it.each([
    ['needs_permission', 'navi: needs your permission'],
    ['waiting_input', 'navi: needs input'],
  ])('session_status_change to %s notifies with the reason', (to, title) => {
    const event = {
      ...makeEvent('session_status_change', 'navi', {
        from: 'working',
        to,
        reason: 'Bash: rm x',
        name: 'fix-7',
      }),
      session: 's1',
    }
    const { notifications } = decideNotifications(
      initialNotifierState(),
      input({ events: [event] }),
    )
    expect(notifications).toEqual([
      {
        kind: 'needs_human',
        project: 'navi',
        title,
        body: describeEvent(event),
        key: expect.any(String),
        tag: 'session:s1',
      },
    ])
  })

  it('offers "go to session" only for a session running in tmux', () => {
    const inTmux = makeSession({ id: 's1', tmux_pane: '%3', tmux_socket: '/tmp/tmux-1/default' })
    const plain = makeSession({ id: 's2', status_reason: 'Approve edit?' })
    const projects = [makeProject({ name: 'navi', sessions: [inTmux, plain] })]
    const change = (session: string, reason: string | null) => ({
      ...makeEvent('session_status_change', 'navi', { to: 'needs_permission', reason }),
      session,
    })
    const { notifications } = decideNotifications(
      initialNotifierState(),
      input({ projects, events: [change('s1', 'Run tests?'), change('s2', null)] }),
    )
    expect(notifications[0]?.session).toEqual({
      id: 's1',
      tmuxPane: '%3',
      tmuxSocket: '/tmp/tmux-1/default',
    })
    expect(notifications[1]?.session).toBeUndefined()
    // No reason in the event: the session's own, as the snapshot tells it.
    expect(notifications[1]?.body).toBe('a session needs permission: Approve edit?')
  })

  it('trouble notifies with its reason and the way to the session; its clearing does not', () => {
    const inTmux = makeSession({ id: 's1', name: 'fixer', tmux_pane: '%3', tmux_socket: null })
    const projects = [makeProject({ name: 'navi', sessions: [inTmux] })]
    const trouble = {
      ...makeEvent('session_trouble', 'navi', {
        name: 'fixer',
        kind: 'failing_command',
        reason: 'the same command failed 3 times in a row: npm test',
        since: new Date(T0).toISOString(),
      }),
      session: 's1',
    }
    const cleared = {
      ...makeEvent('session_trouble_cleared', 'navi', { name: 'fixer', kind: 'failing_command' }),
      session: 's1',
    }
    const { notifications } = decideNotifications(
      initialNotifierState(),
      input({ projects, events: [trouble, cleared] }),
    )
    expect(notifications).toEqual([
      {
        kind: 'needs_human',
        project: 'navi',
        title: 'navi: failing the same command',
        body: 'fixer: the same command failed 3 times in a row: npm test',
        session: { id: 's1', tmuxPane: '%3', tmuxSocket: null },
        key: `session_trouble:${trouble.id}`,
      },
    ])
    const off = settings({ notifications: { ...settings().notifications, needs_human: false } })
    expect(
      decideNotifications(
        initialNotifierState(),
        input({ projects, events: [trouble], settings: off }),
      ).notifications,
    ).toEqual([])
  })

  it('ignores status changes to working, idle or ended', () => {
    const events = ['working', 'idle', 'ended'].map((to) =>
      makeEvent('session_status_change', 'navi', { to }),
    )
    expect(decideNotifications(initialNotifierState(), input({ events })).notifications).toEqual([])
  })
})

describe('attention items', () => {
  const item = (title: string, priority: AttentionItemInput['priority'] = 'high') => ({
    project: 'navi',
    priority,
    title,
    description: `about ${title}`,
  })

  it("after a restart, the cached briefing's items are remembered, not announced again", () => {
    const seeded = withSeenAttention(initialNotifierState(), [
      item('Review PR'),
      item('Low', 'low'),
    ])
    const next = decideNotifications(seeded, {
      ...input({ attentionItems: [item('Review PR'), item('New one')] }),
    })
    expect(next.notifications.map((n) => n.title)).toEqual(['navi: New one'])
  })

  it('notifies each new high-priority item once', () => {
    const first = decideNotifications(
      initialNotifierState(),
      input({ attentionItems: [item('Review PR'), item('Low one', 'low')] }),
    )
    expect(first.notifications.map((n) => [n.kind, n.title, n.body])).toEqual([
      ['attention', 'navi: Review PR', 'about Review PR'],
    ])
    const again = decideNotifications(
      first.state,
      input({ attentionItems: [item('Review PR'), item('Tests red')] }),
    )
    expect(again.notifications.map((n) => n.title)).toEqual(['navi: Tests red'])
  })

  it('no new briefing leaves the seen set alone', () => {
    const first = decideNotifications(
      initialNotifierState(),
      input({ attentionItems: [item('A')] }),
    )
    const idle = decideNotifications(first.state, input())
    expect(idle.state.seenAttention).toEqual(first.state.seenAttention)
    expect(
      decideNotifications(idle.state, input({ attentionItems: [item('A')] })).notifications,
    ).toEqual([])
  })

  it('an item that left the briefing and came back is news again', () => {
    const { all } = run([
      { attentionItems: [item('A')] },
      { attentionItems: [] },
      { attentionItems: [item('A')] },
    ])
    expect(all).toHaveLength(2)
  })
})

describe('suppression', () => {
  const offToggles = (key: keyof Settings['notifications']) =>
    settings({ notifications: { ...settings().notifications, [key]: false } })

  it.each<[keyof Settings['notifications'], Partial<NotifierInput>]>([
    ['commits', { events: [commit('navi', 'c1', 'x')] }],
    ['task_completed', { events: [makeEvent('task_completed', 'navi', { task_title: 't' })] }],
    ['task_completed', { events: [makeEvent('pbi_completed', 'navi', { title: 'p' })] }],
    [
      'needs_human',
      { events: [makeEvent('session_status_change', 'navi', { to: 'waiting_input' })] },
    ],
    ['attention_items', { attentionItems: [{ project: 'navi', priority: 'high', title: 'A' }] }],
  ])('toggle %s off drops its notifications', (toggle, step) => {
    const s = offToggles(toggle)
    const { all, last } = run([
      { ...step, settings: s },
      { now: T0 + WINDOW, settings: s },
    ])
    expect(all).toEqual([])
    expect(last.nextWakeAt).toBeNull()
  })

  it('while paused everything is dropped, not queued for later', () => {
    const paused = settings({ paused_until: pauseUntil(T0, 1) })
    const { all } = run([
      {
        settings: paused,
        events: [commit('navi', 'c1', 'x'), makeEvent('task_completed', 'navi', {})],
        attentionItems: [{ project: 'navi', priority: 'high', title: 'A' }],
      },
      { now: T0 + 3_600_001, attentionItems: [{ project: 'navi', priority: 'high', title: 'A' }] },
      { now: T0 + 3_600_001 + WINDOW },
    ])
    expect(all).toEqual([])
  })

  it('a commit group whose window ends during a pause is discarded', () => {
    const first = decideNotifications(
      initialNotifierState(),
      input({ events: [commit('navi', 'c1', 'x')] }),
    )
    const paused = settings({ paused_until: pauseUntil(T0, 1) })
    const wake = decideNotifications(first.state, input({ now: T0 + WINDOW, settings: paused }))
    expect(wake.notifications).toEqual([])
    expect(wake.state.commitGroups).toEqual({})
  })

  it('a visible popover drops notifications and marks high items seen', () => {
    const items = [{ project: 'navi', priority: 'high' as const, title: 'A' }]
    const { all } = run([
      {
        popover: { visible: true },
        events: [makeEvent('task_completed', 'navi', {}), commit('navi', 'c1', 'x')],
        attentionItems: items,
      },
      { now: T0 + WINDOW, attentionItems: items },
    ])
    expect(all).toEqual([])
  })
})

describe('pause helpers', () => {
  it.each([
    [null, T0, false],
    [new Date(T0 + 1).toISOString(), T0, true],
    [new Date(T0).toISOString(), T0, false],
    [new Date(T0 - 1).toISOString(), T0, false],
    ['not a date', T0, false],
  ])('isPaused(%s) → %s', (until, now, expected) => {
    expect(isPaused({ paused_until: until }, now)).toBe(expected)
  })

  it('pauseUntil adds hours', () => {
    expect(pauseUntil(T0, 1)).toBe('2026-11-21T13:00:00.000Z')
    expect(isPaused({ paused_until: pauseUntil(T0, 0.5) }, T0 + 1_799_999)).toBe(true)
  })
})

describe('untrusted text', () => {
  it('stays literal and is trimmed to a sane length', () => {
    const hostile = '<img src=x onerror=alert(1)> $(rm -rf ~) `id`'
    const long = 'x'.repeat(500)
    const { all } = run([
      {
        events: [
          commit('<b>proj</b>', 'c1', hostile),
          {
            ...makeEvent('session_status_change', 'navi', { to: 'needs_permission', reason: long }),
            session: 's9',
          },
        ],
      },
      { now: T0 + WINDOW },
    ])
    const needs = all.find((n) => n.kind === 'needs_human')
    // The reason is cut (at the notification's room, within the 240-character body), never dropped.
    expect(needs?.body).toMatch(/^a session needs permission: x{150,}…$/)
    expect(needs?.body.length).toBeLessThanOrEqual(240)
    const commits = all.find((n) => n.kind === 'commits')
    expect(commits?.title).toBe('<b>proj</b>: 1 commit')
    expect(commits?.body).toBe(plainText(hostile, 72))
    expect(commits?.body.startsWith('<img src=x onerror=alert(1)>')).toBe(true)
  })

  it.each([
    ['  a\n\tb  ', 10, 'a b'],
    ['a\u0000b\u001bc\u202ed', 10, 'a b c d'],
    ['abcdefghij', 5, 'abcd…'],
    ['😀😀😀😀😀😀', 5, '😀😀…'],
    ['short', 5, 'short'],
  ])('plainText(%j, %d) → %j', (value, max, expected) => {
    expect(plainText(value, max)).toBe(expected)
  })
})
