import { describe, expect, it } from 'vitest'
import type { TokenUsage } from '../../shared/schemas/session.ts'
import {
  emptyTranscriptSummary,
  foldTranscriptLine,
} from '../../electron/engine/core/transcript-fold.ts'
import { summarizeTokens as tokensOf } from '../../electron/engine/core/usage-tally.ts'
import {
  RECENT_USAGE_IDS,
  recentUsageMap,
  emptyUsageTally,
  tallyUsage,
} from '../../electron/engine/core/usage-tally.ts'

const usage = (input: number, output: number, cacheRead = 0, cacheCreation = 0): TokenUsage => ({
  input,
  output,
  cache_read: cacheRead,
  cache_creation: cacheCreation,
  total: input + output + cacheRead + cacheCreation,
})

describe('tallyUsage', () => {
  it('counts a response split over consecutive lines once, its last usage winning', () => {
    const tally = emptyUsageTally()
    tallyUsage(tally, 'msg_1', usage(100, 1, 10, 5))
    tallyUsage(tally, 'msg_1', usage(100, 25, 10, 5))
    tallyUsage(tally, 'msg_2', usage(50, 7))
    expect(tally.messages).toBe(2)
    expect(tally.totals).toEqual(usage(150, 32, 10, 5))
  })

  it('still counts once when responses interleave within the window', () => {
    const tally = emptyUsageTally()
    tallyUsage(tally, 'a', usage(1, 1))
    tallyUsage(tally, 'b', usage(10, 10))
    tallyUsage(tally, 'a', usage(1, 3))
    tallyUsage(tally, 'b', usage(10, 20))
    expect(tally.messages).toBe(2)
    expect(tally.totals).toEqual(usage(11, 23))
    // Ordered by last use: `b` was repeated last.
    expect([...recentUsageMap(tally.recent).keys()]).toEqual(['a', 'b'])
  })

  it('remembers only the window whatever the number of responses', () => {
    const tally = emptyUsageTally()
    for (let i = 0; i < 10_000; i++) {
      tallyUsage(tally, `msg_${i}`, usage(1, 2, 3, 4))
      tallyUsage(tally, `msg_${i}`, usage(1, 2, 3, 4))
    }
    expect(tally.messages).toBe(10_000)
    expect(tally.totals).toEqual(usage(10_000, 20_000, 30_000, 40_000))
    const recent = recentUsageMap(tally.recent)
    expect(recent.size).toBe(RECENT_USAGE_IDS)
    expect(recent.has('msg_9999')).toBe(true)
    expect(recent.has(`msg_${9999 - RECENT_USAGE_IDS}`)).toBe(false)
  })

  it('counts an id again when it comes back after leaving the window (documented limit)', () => {
    const tally = emptyUsageTally()
    tallyUsage(tally, 'a', usage(5, 5), 2)
    tallyUsage(tally, 'b', usage(1, 1), 2)
    tallyUsage(tally, 'a', usage(5, 6), 2) // still remembered: replaces
    tallyUsage(tally, 'c', usage(1, 1), 2) // evicts b
    tallyUsage(tally, 'b', usage(1, 1), 2) // forgotten: counted a second time
    expect(tally.messages).toBe(4)
    // a (5, 6) + b (1, 1) twice + c (1, 1): one response too many.
    expect(tally.totals).toEqual(usage(8, 9))
  })
})

describe('summarizeTokens over a long transcript', () => {
  it('matches a per-id sum while keeping only the recent ids', () => {
    const summary = emptyTranscriptSummary('s', 'p')
    const expected = usage(0, 0)
    for (let i = 0; i < 500; i++) {
      const final = usage(100 + i, 10 + (i % 7), 1000, i % 3)
      for (const block of ['text', 'tool_use']) {
        foldTranscriptLine(summary, {
          type: 'assistant',
          timestamp: '2026-11-21T10:00:00.000Z',
          message: {
            id: `msg_${i}`,
            content: [{ type: block, text: 'x', id: `toolu_${i}`, name: 'Read', input: {} }],
            stop_reason: 'tool_use',
            usage: {
              input_tokens: final.input,
              output_tokens: final.output,
              cache_read_input_tokens: final.cache_read,
              cache_creation_input_tokens: final.cache_creation,
            },
          },
        })
      }
      expected.input += final.input
      expected.output += final.output
      expected.cache_read += final.cache_read
      expected.cache_creation += final.cache_creation
    }
    expected.total =
      expected.input + expected.output + expected.cache_read + expected.cache_creation
    expect(tokensOf(summary)).toEqual(expected)
    expect(summary.usage.messages).toBe(500)
    expect(recentUsageMap(summary.usage.recent).size).toBeLessThanOrEqual(RECENT_USAGE_IDS)
  })

  it('returns a copy that later lines do not change', () => {
    const summary = emptyTranscriptSummary('s', 'p')
    const line = (id: string) => ({
      type: 'assistant',
      message: { id, content: [], usage: { input_tokens: 3, output_tokens: 4 } },
    })
    foldTranscriptLine(summary, line('m1'))
    const before = tokensOf(summary)
    foldTranscriptLine(summary, line('m2'))
    expect(before.total).toBe(7)
    expect(tokensOf(summary).total).toBe(14)
  })
})
