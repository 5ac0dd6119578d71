import { describe, expect, it } from 'vitest'
import { summarizeUsage } from '../../electron/pm/core/usage.ts'

const now = new Date(2026, 10, 21, 15, 0, 0)
const line = (at: Date, over: Record<string, unknown> = {}) =>
  JSON.stringify({
    timestamp: at.toISOString(),
    trigger: 'commit',
    input_tokens: 1000,
    output_tokens: 200,
    cost_usd: 0.01,
    duration_ms: 4000,
    num_turns: 3,
    ok: true,
    ...over,
  })

describe('summarizeUsage', () => {
  it("totals today's runs and the last 7 days', skipping and counting corrupt lines", () => {
    const text = [
      line(new Date(2026, 10, 21, 9, 0)),
      line(new Date(2026, 10, 21, 14, 0), { ok: false, cost_usd: 0.02 }),
      line(new Date(2026, 10, 19, 12, 0)),
      line(new Date(2026, 10, 1, 12, 0)),
      'not json',
      '',
    ].join('\n')
    const report = summarizeUsage(text, now)
    expect(report.today).toMatchObject({
      runs: 2,
      failed: 1,
      input_tokens: 2000,
      output_tokens: 400,
    })
    expect(report.today.cost_usd).toBeCloseTo(0.03)
    expect(report.week.runs).toBe(3)
    expect(report.corrupt).toBe(1)
  })
})
