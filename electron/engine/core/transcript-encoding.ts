/**
 * A transcript summary as the index keeps it, and back: its Maps and Sets as arrays of entries. Free of
 * zod (summary-codec.ts validates what was not written by a Navi), so that a fold worker encodes what it
 * folded before handing it over. Pure.
 */
import type { TranscriptSummary } from './source-records.ts'
import type { EncodedTranscript } from './summary-codec.ts'

/**
 * Responses whose usage the index remembers by id. A file resumes at a line boundary, and only a response
 * whose lines straddle it can repeat an id after the resume; those lines are consecutive, so the last few
 * ids are all that can matter (the fold's own window, RECENT_USAGE_IDS, is wider for interleaved
 * sub-agents). Most of an index entry was these ids, parsed again by every start.
 */
export const PERSISTED_USAGE_IDS = 8

/** Maps and Sets become arrays of entries, in their iteration order. */
export function encodeTranscriptSummary(summary: TranscriptSummary): EncodedTranscript {
  const { recent } = summary.usage
  return {
    ...summary,
    usage: {
      ...summary.usage,
      // Entries still as the index had them (no fold since) are written as they were read.
      recent:
        recent instanceof Map
          ? [...recent]
              .slice(-PERSISTED_USAGE_IDS)
              .map(([id, u]) => [id, u.input, u.output, u.cache_read, u.cache_creation])
          : recent.slice(-PERSISTED_USAGE_IDS).map(([id, i, o, cr, cc]) => [id, i, o, cr, cc]),
    },
    subagentIds: [...summary.subagentIds],
    taskCalls: [...summary.taskCalls],
    pendingToolUses: [...(summary.pendingToolUses ?? [])],
  }
}

/**
 * `decodeTranscriptSummary` without the validation, for what `encodeTranscriptSummary` wrote itself (an
 * index whose hash matched, jsonl-index-cache.ts). `data` becomes the summary: its collections are made
 * Maps and Sets again in place. Copying each of 500 summaries (33 fields) was a third of reviving them.
 */
export function reviveTranscriptSummary(data: unknown, path: string): TranscriptSummary | null {
  const encoded = data as EncodedTranscript
  if (encoded.path !== path) return null
  // `usage.recent` stays the index's entries until a fold counts into it (usage-tally.ts).
  const summary = encoded as unknown as TranscriptSummary
  summary.subagentIds = new Set(encoded.subagentIds)
  summary.taskCalls = new Map(encoded.taskCalls)
  summary.pendingToolUses = new Map(encoded.pendingToolUses)
  return summary
}
