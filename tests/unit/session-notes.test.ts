/**
 * Notification hygiene for sessions that wait on their user (electron/main/notifications/session-notes.ts
 * through decide.ts): the body holds the real request, a held request offers Allow / Deny bound to it,
 * an answered request's notification is withdrawn, a new request of the same session replaces it.
 */
import { describe, expect, it } from 'vitest'
import {
  decideNotifications,
  initialNotifierState,
  type NotifierInput,
  type NotifierState,
} from '../../electron/main/notifications/decide.ts'
import { notificationActions } from '../../electron/main/notifications/notifier-actions.ts'
import type { Session } from '../../shared/schemas/session.ts'
import { settingsSchema } from '../../shared/schemas/settings.ts'
import { makeEvent, makeProject } from '../support/pm-events-fixture.ts'
import { makeSession } from '../support/session-fixture.ts'

const T0 = Date.parse('2026-11-26T12:00:00Z')

function waiting(requestId: string, command: string, held = true): Session {
  return makeSession({
    id: 's1',
    name: 'fixer',
    status: 'needs_permission',
    status_reason: `Permission needed: Bash (${command})`,
    tmux_pane: '%3',
    tmux_socket: null,
    pending_request: {
      tool: 'Bash',
      detail: command,
      description: 'Clean the build\u202e folder',
      since: new Date(T0).toISOString(),
      request_id: requestId,
      input_digest: '0123456789abcdef',
      answer_until: held ? new Date(T0 + 60_000).toISOString() : null,
    },
  })
}

function step(state: NotifierState, session: Session | null, over: Partial<NotifierInput> = {}) {
  return decideNotifications(state, {
    now: T0,
    events: [],
    projects: [makeProject({ name: 'navi', sessions: session ? [session] : [] })],
    settings: settingsSchema.parse({}),
    popover: { visible: false },
    ...over,
  })
}

const toPermission = {
  ...makeEvent('session_status_change', 'navi', { from: 'working', to: 'needs_permission' }),
  session: 's1',
}

describe('a session waiting on a permission request', () => {
  it('is notified with the real call and the agent\u2019s words (inert), and Allow / Deny bound to it', () => {
    const first = step(initialNotifierState(), waiting('Req0000001', 'rm -rf build'), {
      events: [toPermission],
    })
    expect(first.notifications).toHaveLength(1)
    const [spec] = first.notifications
    expect(spec).toMatchObject({
      title: 'navi: needs your permission',
      body: 'fixer asks Bash: rm -rf build\n\u201cClean the build folder\u201d',
      tag: 'session:s1',
      answer: {
        session_id: 's1',
        request_id: 'Req0000001',
        tool: 'Bash',
        input_digest: '0123456789abcdef',
      },
    })
    expect(notificationActions(spec!).map((a) => a.text)).toEqual([
      'Allow',
      'Deny',
      'Go to session',
    ])
  })

  it('offers no Allow / Deny when Navi\u2019s hook does not hold the request', () => {
    const { notifications } = step(initialNotifierState(), waiting('Req0000001', 'ls', false), {
      events: [toPermission],
    })
    expect(notifications[0]?.answer).toBeUndefined()
    expect(notificationActions(notifications[0]!).map((a) => a.id)).toEqual(['session'])
  })

  it('is withdrawn once the request is answered anywhere (the session moved on)', () => {
    const first = step(initialNotifierState(), waiting('Req0000001', 'ls'), {
      events: [toPermission],
    })
    const same = step(first.state, waiting('Req0000001', 'ls'))
    expect(same).toMatchObject({ notifications: [], withdraw: [] })
    const answered = step(same.state, makeSession({ id: 's1', status: 'working' }))
    expect(answered.withdraw).toEqual(['session:s1'])
    expect(answered.notifications).toEqual([])
    // Withdrawn once: nothing left to take off.
    expect(step(answered.state, makeSession({ id: 's1', status: 'working' })).withdraw).toEqual([])
  })

  it('is withdrawn when the session ends or goes away, even while notifications are silenced', () => {
    const first = step(initialNotifierState(), waiting('Req0000001', 'ls'), {
      events: [toPermission],
    })
    expect(step(first.state, null, { popover: { visible: true } }).withdraw).toEqual(['session:s1'])
  })

  it('is redrawn with Allow / Deny, still one request, when the hooks name the same call a moment later', () => {
    const unnamed = waiting('Req0000001', 'ls')
    unnamed.pending_request = { ...unnamed.pending_request!, request_id: null, input_digest: null }
    const first = step(initialNotifierState(), unnamed, { events: [toPermission] })
    expect(first.notifications[0]?.answer).toBeUndefined()
    const named = step(first.state, waiting('Req0000001', 'ls'))
    expect(named.withdraw).toEqual([])
    expect(named.notifications).toHaveLength(1)
    expect(named.notifications[0]).toMatchObject({
      title: 'navi: needs your permission',
      tag: 'session:s1',
      answer: { request_id: 'Req0000001' },
    })
    // Its hold over (no tmux server known): redrawn without the buttons, still the one request.
    const over = step(named.state, waiting('Req0000001', 'ls', false))
    expect(over.notifications[0]?.answer).toBeUndefined()
    expect(over.notifications[0]?.title).toBe('navi: needs your permission')
  })

  it('is replaced when the session waits on another request, counting the requests', () => {
    const first = step(initialNotifierState(), waiting('Req0000001', 'ls'), {
      events: [toPermission],
    })
    const next = step(first.state, waiting('Req0000002', 'make test'))
    expect(next.withdraw).toEqual([])
    expect(next.notifications).toHaveLength(1)
    expect(next.notifications[0]).toMatchObject({
      title: 'navi: needs your permission (2 requests)',
      body: expect.stringContaining('fixer asks Bash: make test'),
      tag: 'session:s1',
      answer: { request_id: 'Req0000002' },
    })
    // Silenced meanwhile: the stale one is withdrawn rather than left showing an answered request.
    const silenced = step(next.state, waiting('Req0000003', 'npm i'), {
      popover: { visible: true },
    })
    expect(silenced).toMatchObject({ notifications: [], withdraw: ['session:s1'] })
  })
})

describe('a session waiting for input', () => {
  it('offers a reply field where Navi can type into its pane (tmux, server known), not elsewhere', () => {
    const toInput = {
      ...makeEvent('session_status_change', 'navi', { from: 'working', to: 'waiting_input' }),
      session: 's1',
    }
    const session = (socket: string | null) =>
      makeSession({ id: 's1', status: 'waiting_input', tmux_pane: '%3', tmux_socket: socket })
    const inTmux = step(initialNotifierState(), session('/tmp/tmux-1/default'), {
      events: [toInput],
    })
    expect(inTmux.notifications[0]).toMatchObject({
      reply: { session_id: 's1' },
      tag: 'session:s1',
    })
    expect(inTmux.notifications[0]?.answer).toBeUndefined()
    const unknownServer = step(initialNotifierState(), session(null), { events: [toInput] })
    expect(unknownServer.notifications[0]?.reply).toBeUndefined()
  })
})
