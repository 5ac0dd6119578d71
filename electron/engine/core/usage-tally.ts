/**
 * Sums token usage once per API response (`message.id`) in constant memory. Pure.
 *
 * Claude writes one transcript line per content block of a response, each repeating the response's
 * id and usage, and those lines are consecutive (agent-cli-formats.md 8.3). Keeping every id ever
 * seen grows with the transcript (hundreds of thousands for 1 GB), so only the last few ids are
 * remembered: a repeated id replaces its earlier usage (`total += new - old`). An id that comes back
 * after more than `RECENT_USAGE_IDS` other responses is counted a second time; that never happens
 * in a transcript written by Claude Code.
 */
import type { TokenUsage } from '../../../shared/schemas/session.ts'
import type { RecentUsage, TranscriptSummary, UsageTally } from './source-records.ts'
import { asString, asTokenCount, isBadCount, isObject } from './json-narrow.ts'

/** Responses remembered by id: far more than can interleave (parallel sub-agents, retries). */
export const RECENT_USAGE_IDS = 32

export function emptyTokenUsage(): TokenUsage {
  return { input: 0, output: 0, cache_read: 0, cache_creation: 0, total: 0 }
}

export function emptyUsageTally(): UsageTally {
  return { totals: emptyTokenUsage(), messages: 0, recent: new Map() }
}

function addUsage(sum: TokenUsage, usage: TokenUsage, sign: 1 | -1): void {
  sum.input += sign * usage.input
  sum.output += sign * usage.output
  sum.cache_read += sign * usage.cache_read
  sum.cache_creation += sign * usage.cache_creation
  sum.total = sum.input + sum.output + sum.cache_read + sum.cache_creation
}

/**
 * The remembered responses as a Map, made from the index's entries the first time a fold needs them: a
 * warm start folds nothing, and making a Map of objects for each of 500 sessions was a millisecond of it.
 */
export function recentUsageMap(recent: RecentUsage): Map<string, TokenUsage> {
  if (recent instanceof Map) return recent
  return new Map(
    recent.map(([id, input, output, cache_read, cache_creation]) => [
      id,
      {
        input,
        output,
        cache_read,
        cache_creation,
        total: input + output + cache_read + cache_creation,
      },
    ]),
  )
}

/**
 * Counts `usage` for response `id` in place: a new id is added to the totals, a remembered one
 * replaces its previous usage (the last line of a response wins). `window` ids are remembered.
 */
export function tallyUsage(
  tally: UsageTally,
  id: string,
  usage: TokenUsage,
  window = RECENT_USAGE_IDS,
): void {
  const recent = recentUsageMap(tally.recent)
  tally.recent = recent
  const previous = recent.get(id)
  if (previous === undefined) {
    tally.messages++
  } else {
    addUsage(tally.totals, previous, -1)
    // Re-inserted below so the map stays ordered by last use.
    recent.delete(id)
  }
  addUsage(tally.totals, usage, 1)
  recent.set(id, usage)
  while (recent.size > window) {
    const oldest = recent.keys().next()
    if (oldest.done === true) break
    recent.delete(oldest.value)
  }
}

/** Sum of the usage of every distinct API response (`message.id`) in the transcript (a copy). */
export function summarizeTokens(summary: TranscriptSummary): TokenUsage {
  const { input, output, cache_read, cache_creation } = summary.usage.totals
  return {
    input,
    output,
    cache_read,
    cache_creation,
    total: input + output + cache_read + cache_creation,
  }
}

/** Counts the usage of one assistant line's `message` (one line per content block; the last wins). */
export function recordUsage(summary: TranscriptSummary, message: unknown): void {
  if (!isObject(message)) return
  const id = asString(message.id)
  const usage = message.usage
  if (id === null || !isObject(usage)) return
  const raw = [
    usage.input_tokens,
    usage.output_tokens,
    usage.cache_read_input_tokens,
    usage.cache_creation_input_tokens,
  ]
  if (raw.some(isBadCount)) summary.corruptLines++
  const [input, output, cacheRead, cacheCreation] = raw.map(asTokenCount) as [
    number,
    number,
    number,
    number,
  ]
  tallyUsage(summary.usage, id, {
    input,
    output,
    cache_read: cacheRead,
    cache_creation: cacheCreation,
    total: input + output + cacheRead + cacheCreation,
  })
}
