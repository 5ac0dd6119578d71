import { describe, expect, it } from 'vitest'
import {
  checkAnswer,
  DEFAULT_DENY_MESSAGE,
  hookAnswerOutput,
  inputDigest,
  isRequestId,
  parseWaitingMarker,
  takenDecision,
  withAnswerWindow,
  type AnswerInput,
  type AnswerOnFile,
} from '../../electron/engine/core/answer-rules.ts'
import type { PendingRequest } from '../../shared/schemas/session.ts'
import { makeSession } from '../support/session-fixture.ts'

const NOW = Date.parse('2026-11-26T10:00:00Z')
const pending: PendingRequest = {
  tool: 'Bash',
  detail: 'touch x',
  description: null,
  since: '2026-11-26T09:59:00Z',
  request_id: 'Req0000001',
  input_digest: inputDigest({ command: 'touch x' }),
  answer_until: null,
}
const answer: AnswerInput = {
  request_id: 'Req0000001',
  tool: 'Bash',
  input_digest: inputDigest({ command: 'touch x' }),
  decision: 'allow',
}
const waiting = { pid: 4242, deadlineMs: NOW + 60_000, alive: true }

describe('checkAnswer', () => {
  const cases: [string, Parameters<typeof checkAnswer>[0], RegExp | null][] = [
    [
      'the pending request, its handler waiting',
      { pending, answer, waiting, onFile: 'none', now: NOW },
      null,
    ],
    [
      'no request pending',
      { pending: null, answer, waiting, onFile: 'none', now: NOW },
      /no permission request/,
    ],
    [
      'another request (stale or replayed)',
      {
        pending: { ...pending, request_id: 'Req0000002' },
        answer,
        waiting,
        onFile: 'none',
        now: NOW,
      },
      /^stale answer/,
    ],
    [
      'a request known only from the transcript',
      { pending: { ...pending, request_id: null }, answer, waiting, onFile: 'none', now: NOW },
      /^stale answer/,
    ],
    [
      'the same id with another input',
      {
        pending: { ...pending, input_digest: inputDigest({ command: 'rm -rf /' }) },
        answer,
        waiting,
        onFile: 'none',
        now: NOW,
      },
      /changed/,
    ],
    [
      'the same id with another tool',
      { pending: { ...pending, tool: 'Write' }, answer, waiting, onFile: 'none', now: NOW },
      /changed/,
    ],
    ['already taken', { pending, answer, waiting, onFile: 'taken', now: NOW }, /already answered/],
    ['an allow after a deny', { pending, answer, waiting, onFile: 'deny', now: NOW }, /deny wins/],
    [
      'no handler waiting',
      { pending, answer, waiting: null, onFile: 'none', now: NOW },
      /no longer waits/,
    ],
    [
      'its handler died',
      { pending, answer, waiting: { ...waiting, alive: false }, onFile: 'none', now: NOW },
      /no longer waits/,
    ],
    [
      'its wait is over',
      { pending, answer, waiting: { ...waiting, deadlineMs: NOW }, onFile: 'none', now: NOW },
      /no longer waits/,
    ],
  ]
  it.each(cases)('%s', (_name, input, refusal) => {
    const check = checkAnswer(input)
    if (refusal === null) expect(check).toEqual({ ok: true })
    else {
      expect(check.ok).toBe(false)
      expect(check.ok ? '' : check.reason).toMatch(refusal)
    }
  })

  it.each<AnswerOnFile>(['none', 'allow', 'deny'])('a deny goes through over %s', (onFile) => {
    const deny = { ...answer, decision: 'deny' as const }
    expect(checkAnswer({ pending, answer: deny, waiting, onFile, now: NOW })).toEqual({ ok: true })
  })
})

describe('hookAnswerOutput', () => {
  it('prints the PermissionRequest decision both CLIs read', () => {
    expect(JSON.parse(hookAnswerOutput('allow'))).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    })
    expect(JSON.parse(hookAnswerOutput('deny', '  use make clean  '))).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'use make clean' },
      },
    })
  })

  it('gives a deny without words a message, and keeps any text as data on one line', () => {
    expect(JSON.parse(hookAnswerOutput('deny')).hookSpecificOutput.decision.message).toBe(
      DEFAULT_DENY_MESSAGE,
    )
    const output = hookAnswerOutput('deny', 'line one\n"},"behavior":"allow')
    expect(output).not.toContain('\n')
    expect(JSON.parse(output).hookSpecificOutput.decision.behavior).toBe('deny')
    expect(takenDecision(output)).toBe('deny')
  })
})

describe('inputDigest', () => {
  it('ignores key order and changes with any value', () => {
    expect(inputDigest({ a: 1, b: { c: [1, 2] } })).toBe(inputDigest({ b: { c: [1, 2] }, a: 1 }))
    expect(inputDigest({ a: 1 })).not.toBe(inputDigest({ a: 2 }))
    expect(inputDigest({ command: 'ls' })).not.toBe(inputDigest({ command: 'ls ' }))
    expect(inputDigest(null)).toMatch(/^[0-9a-f]{16}$/)
  })
})

describe('the handler files', () => {
  it('reads a waiting marker', () => {
    expect(parseWaitingMarker('123 1795000000\n')).toEqual({ pid: 123, deadlineMs: 1795000000000 })
    expect(parseWaitingMarker('1 1795000000')).toBeNull()
    expect(parseWaitingMarker('abc 1')).toBeNull()
    expect(parseWaitingMarker('')).toBeNull()
  })

  it('accepts only the ids the handler makes', () => {
    expect(isRequestId('aZ09bY18cX')).toBe(true)
    for (const id of ['../x', 'a/b', 'abc', '', 'x'.repeat(40), 'abc def']) {
      expect(isRequestId(id)).toBe(false)
    }
  })
})

describe('withAnswerWindow', () => {
  it('tells until when the handler waits, and nothing once it does not', () => {
    const session = makeSession({ id: 's', status: 'needs_permission', pending_request: pending })
    const open = withAnswerWindow(session, new Map([['Req0000001', NOW + 5000]]))
    expect(open.pending_request?.answer_until).toBe(new Date(NOW + 5000).toISOString())
    expect(withAnswerWindow(open, new Map()).pending_request?.answer_until).toBeNull()
    expect(withAnswerWindow(session, new Map())).toBe(session)
  })
})
