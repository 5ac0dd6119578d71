import { describe, expect, it } from 'vitest'
import {
  apiFailureOf,
  codexFailureOf,
  pendingRequestOf,
} from '../../electron/engine/core/session-evidence.ts'
import { foldHookLine } from '../../electron/engine/core/hook-fold.ts'
import { hookRecord } from '../../electron/engine/core/hook-record.ts'
import type { HookSessionState } from '../../electron/engine/core/source-records.ts'
import { emptyTranscriptSummary } from '../../electron/engine/core/transcript-fold.ts'
import { hookState } from '../support/claude-records.ts'

const NOW = Date.parse('2026-11-25T12:00:00.000Z')
const SINCE = '2026-11-25T11:58:00.000Z'

describe('pendingRequestOf', () => {
  const waiting = () => {
    const t = emptyTranscriptSummary('s1', '/t.jsonl')
    t.tail = {
      kind: 'tool_pending',
      at: SINCE,
      toolName: 'Bash',
      toolUseId: 'toolu_1',
      detail: 'rm -rf build',
      description: 'Clean the build folder',
    }
    return t
  }

  it('takes what the hooks named, with the agent’s own words', () => {
    const hook = hookState(NOW, {
      toolName: 'Write',
      toolDetail: '/p/notes.md',
      toolDescription: null,
      requestId: 'Req0000001',
      inputDigest: '0123456789abcdef',
    })
    // With the request's id and digest, which an answer from Navi must name.
    expect(pendingRequestOf(hook, waiting(), SINCE)).toEqual({
      tool: 'Write',
      detail: '/p/notes.md',
      description: null,
      since: SINCE,
      request_id: 'Req0000001',
      input_digest: '0123456789abcdef',
      answer_until: null,
    })
  })

  it('falls back to the call the transcript shows waiting', () => {
    expect(pendingRequestOf(hookState(NOW, { toolName: null }), waiting(), SINCE)).toEqual({
      tool: 'Bash',
      detail: 'rm -rf build',
      description: 'Clean the build folder',
      since: SINCE,
      // Known from the transcript only: nothing Navi could answer.
      request_id: null,
      input_digest: null,
      answer_until: null,
    })
    expect(pendingRequestOf(null, emptyTranscriptSummary('s1', '/t.jsonl'), SINCE)).toBeNull()
  })
})

describe('apiFailureOf', () => {
  /** The hook lines of a turn that ran out of credit, as claude 2.1.331 sent them (observed). */
  const folded = () => {
    const states = new Map()
    const base = { session_id: 's1', cwd: '/p', claude_pid: 4242 }
    foldHookLine(states, { ...base, hook_event_name: 'UserPromptSubmit', received_at: SINCE })
    const record = hookRecord(
      {
        agentPid: 4242,
        truncated: false,
        payload: {
          session_id: 's1',
          cwd: '/p',
          hook_event_name: 'StopFailure',
          error: 'billing_error',
          last_assistant_message: 'Credit balance is too low',
        },
      },
      new Date(NOW).toISOString(),
    )
    foldHookLine(states, record)
    return states.get('s1') as HookSessionState
  }

  it('takes a StopFailure of the hooks when the transcript shows none, classed', () => {
    const hook = folded()
    expect(hook.message).toBe('turn failed: billing_error (Credit balance is too low)')
    expect(apiFailureOf(emptyTranscriptSummary('s1', '/t.jsonl'), hook)).toEqual({
      kind: 'quota',
      message: 'Credit balance is too low',
      status: null,
      retrying: false,
      attempt: null,
      at: new Date(NOW).toISOString(),
    })
  })

  it('clears once the next prompt starts a turn', () => {
    const states = new Map([['s1', folded()]])
    foldHookLine(states, {
      session_id: 's1',
      hook_event_name: 'UserPromptSubmit',
      received_at: new Date(NOW + 1000).toISOString(),
    })
    expect(apiFailureOf(null, states.get('s1') ?? null)).toBeNull()
  })
})

describe('codexFailureOf', () => {
  const rollout = (message: string, inTurn = false) => ({
    inTurn,
    lastActivity: SINCE,
    turnError: { message, at: SINCE },
  })
  it.each([
    [
      'unexpected status 401 Unauthorized: fake 401 error, url: http://127.0.0.1:1/v1/responses',
      'authentication',
      401,
    ],
    ['exceeded retry limit, last status: 429 Too Many Requests', 'rate_limit', 429],
    ['We’re currently experiencing high demand, which may cause temporary errors.', 'other', null],
  ] as const)('classes %s', (message, kind, status) => {
    expect(codexFailureOf(rollout(message))).toMatchObject({ kind, status, message, at: SINCE })
  })

  it('is none while a new turn runs, or when the last turn ended well', () => {
    expect(codexFailureOf(rollout('unexpected status 401', true))).toBeNull()
    expect(codexFailureOf({ inTurn: false, lastActivity: SINCE, turnError: null })).toBeNull()
  })
})
