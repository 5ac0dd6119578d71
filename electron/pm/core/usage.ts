/**
 * `$NAVI_HOME/pm/usage.jsonl`: the line of one CLI attempt, and the totals of `navi usage` (today, local
 * day, and the last 7 days).
 */
import { pmUsageSchema, type PmTrigger, type PmUsage } from '../../../shared/schemas/briefing.ts'
import type { PmReplyUsage } from './parse-reply.ts'
import { parseJsonAs } from '../../engine/core/parse-json.ts'

export interface UsageTotals {
  runs: number
  failed: number
  input_tokens: number
  output_tokens: number
  cost_usd: number
  duration_ms: number
}

export interface UsageReport {
  today: UsageTotals
  week: UsageTotals
  corrupt: number
}

const empty = (): UsageTotals => ({
  runs: 0,
  failed: 0,
  input_tokens: 0,
  output_tokens: 0,
  cost_usd: 0,
  duration_ms: 0,
})

function add(totals: UsageTotals, u: PmUsage): void {
  totals.runs += 1
  totals.failed += u.ok ? 0 : 1
  totals.input_tokens += u.input_tokens
  totals.output_tokens += u.output_tokens
  totals.cost_usd += u.cost_usd
  totals.duration_ms += u.duration_ms
}

export function summarizeUsage(text: string, now: Date): UsageReport {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime()
  const weekAgo = now.getTime() - 7 * 24 * 60 * 60_000
  const report: UsageReport = { today: empty(), week: empty(), corrupt: 0 }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    const usage = parseJsonAs(pmUsageSchema, line)
    if (!usage) {
      report.corrupt++
      continue
    }
    const at = Date.parse(usage.timestamp)
    if (at >= weekAgo) add(report.week, usage)
    if (at >= startOfToday) add(report.today, usage)
  }
  return report
}

/** The `usage.jsonl` line of one CLI attempt: what its envelope reported, else its wall time. */
export function usageLine(input: {
  at: Date
  trigger: PmTrigger
  usage: PmReplyUsage | null
  durationMs: number
  ok: boolean
}): PmUsage {
  const u = input.usage
  return {
    timestamp: input.at.toISOString(),
    trigger: input.trigger,
    input_tokens: u?.input_tokens ?? 0,
    output_tokens: u?.output_tokens ?? 0,
    cost_usd: u?.cost_usd ?? 0,
    duration_ms: u?.duration_ms || input.durationMs,
    num_turns: u?.num_turns ?? 0,
    ok: input.ok,
  }
}
