import { describe, expect, it } from 'vitest'
import {
  asCappedString,
  asEpochMs,
  asTimestamp,
  asTokenCount,
  latestPlausibleMs,
} from '../../electron/engine/core/json-narrow.ts'
import { foldHookLine } from '../../electron/engine/core/hook-fold.ts'
import {
  emptyTranscriptSummary,
  foldTranscriptLine,
} from '../../electron/engine/core/transcript-fold.ts'
import { summarizeTokens } from '../../electron/engine/core/usage-tally.ts'
import type { HookSessionState } from '../../electron/engine/core/source-records.ts'

const NOW = Date.parse('2026-11-24T12:00:00Z')
const LATEST = latestPlausibleMs(NOW)

describe('asTimestamp', () => {
  it.each([
    ['a canonical ISO time', '2026-11-24T11:00:00.000Z', '2026-11-24T11:00:00.000Z'],
    [
      'an ISO time with an offset, normalized',
      '2026-11-24T12:00:00+01:00',
      '2026-11-24T11:00:00.000Z',
    ],
    ['words', 'zzz not a date', null],
    ['year 9999', '9999-12-31T23:59:59Z', null],
    ['year 0001', '0001-01-01T00:00:00Z', null],
    ['a number', 1e308, null],
    ['a 1 MB string', `2026-${'1'.repeat(1_000_000)}`, null],
    ['a day ahead (clock skew): kept', '2026-11-25T11:00:00.000Z', '2026-11-25T11:00:00.000Z'],
    ['two days ahead', '2026-11-26T13:00:00.000Z', null],
  ])('%s', (_name, value, expected) => {
    expect(asTimestamp(value, LATEST)).toBe(expected)
  })
})

describe('asEpochMs', () => {
  it.each([
    [NOW - 1000, NOW - 1000],
    [1e308, null],
    [-1, null],
    [Number.NaN, null],
    [253_402_300_799_000, null],
    [null, null],
  ])('%s → %s', (value, expected) => {
    expect(asEpochMs(value, LATEST)).toBe(expected)
  })
})

describe('asTokenCount', () => {
  it.each([
    [12, 12],
    [0, 0],
    [1.7e308, 0],
    [-5, 0],
    [0.5, 0],
    ['12', 0],
    [1e15, 0],
  ])('%s → %s', (value, expected) => {
    expect(asTokenCount(value)).toBe(expected)
  })
})

describe('asCappedString', () => {
  it('cuts long text with an ellipsis, never inside a surrogate pair', () => {
    expect(asCappedString('abcdef', 4)).toBe('abc…')
    expect(asCappedString('ab😀cd', 4)).toBe('ab…')
    expect(asCappedString('abc', 4)).toBe('abc')
    expect(asCappedString(5, 4)).toBeNull()
  })
})

describe('a bad field degrades only its own record', () => {
  it('a transcript: 1.7e308 tokens and a year-9999 time are dropped, the rest is kept', () => {
    const summary = emptyTranscriptSummary('s', '/t.jsonl')
    const ok = {
      type: 'user',
      message: { role: 'user', content: 'hi' },
      timestamp: '2026-11-24T11:00:00.000Z',
      cwd: '/w',
    }
    foldTranscriptLine(summary, ok, LATEST)
    foldTranscriptLine(
      summary,
      {
        type: 'assistant',
        timestamp: '9999-01-01T00:00:00Z',
        message: {
          id: 'm1',
          stop_reason: 'end_turn',
          content: [],
          usage: { input_tokens: 1.7e308, output_tokens: 7 },
        },
      },
      LATEST,
    )
    expect(summary.lastActivity).toBe('2026-11-24T11:00:00.000Z')
    expect(summarizeTokens(summary)).toMatchObject({ input: 0, output: 7, total: 7 })
    expect(summary.cwd).toBe('/w')
  })

  it('the hook inbox: a line stamped in year 9999 is corrupt, not the newest', () => {
    const states = new Map<string, HookSessionState>()
    const line = { hook_event_name: 'UserPromptSubmit', session_id: 's', cwd: '/w' }
    expect(foldHookLine(states, { ...line, received_at: '2026-11-24T11:00:00Z' }, LATEST)).toBe(
      'applied',
    )
    expect(foldHookLine(states, { ...line, received_at: '9999-01-01T00:00:00Z' }, LATEST)).toBe(
      'corrupt',
    )
    expect(foldHookLine(states, { ...line, received_at: 'soon' }, LATEST)).toBe('corrupt')
    expect(states.get('s')?.lastEventAt).toBe('2026-11-24T11:00:00.000Z')
  })
})
