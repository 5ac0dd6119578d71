import { describe, expect, it } from 'vitest'
import { pendingRequestOf } from '../../electron/engine/core/session-evidence.ts'
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
