/**
 * Untrusted text into the PM's inbox: commit subjects, branch names, task titles, prompts and reasons are
 * written by whoever controls a repository or a session, so they enter only as short, single-line JSON
 * string values (quoted data), and the inbox's size is estimated in tokens.
 */
import { clipText } from '../../../shared/text.ts'

/** Longest untrusted string kept, in UTF-16 code units (an ellipsis marks a cut). @default 200 */
export const TEXT_CAP = 200

/** Items kept from an array found in event details; the rest become one "(+N more)" string. */
const ARRAY_CAP = 10
/** Keys kept from an object found in event details. */
const KEYS_CAP = 20
/** Deeper values are replaced by a marker: event details are flat in practice. */
const DEPTH_CAP = 3

/**
 * Untrusted text as a capped, single-line string value (shared/text.ts: invisible characters become a
 * space, so a newline cannot start a fake "## SYSTEM" heading and bidi overrides cannot reorder text).
 */
export function quoteText(value: string, max = TEXT_CAP): string {
  return clipText(value, max)
}

/** `quoteText` for a value that may be missing; null and undefined stay undefined (the key is omitted). */
export function quoteOptional(
  value: string | null | undefined,
  max = TEXT_CAP,
): string | undefined {
  return value === null || value === undefined ? undefined : quoteText(value, max)
}

const ISO_WITH_MS = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d{3}Z$/

/** An engine timestamp without its milliseconds (4 characters × every event); other text is quoted. */
export function compactTime(value: string): string {
  const match = ISO_WITH_MS.exec(value)
  return match ? `${match[1]}Z` : quoteText(value, 40)
}

/**
 * Any JSON-ish value from event details, with every string quoted and capped, arrays and objects capped, and
 * non-JSON values (functions, bigints, NaN) turned into strings or null, so the result always serializes.
 */
export function quoteValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return quoteText(value)
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value === 'boolean' || value === null || value === undefined) return value ?? null
  if (depth >= DEPTH_CAP) return '(nested)'
  if (Array.isArray(value)) {
    const kept = value.slice(0, ARRAY_CAP).map((item) => quoteValue(item, depth + 1))
    return value.length > ARRAY_CAP ? [...kept, `(+${value.length - ARRAY_CAP} more)`] : kept
  }
  if (typeof value === 'object') return quoteRecord(value as Record<string, unknown>, depth + 1)
  return quoteText(String(value))
}

/** An object's entries quoted (keys too, capped at 40); undefined values are left out. */
export function quoteRecord(record: Record<string, unknown>, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const entries = Object.entries(record).filter(([, v]) => v !== undefined)
  for (const [key, value] of entries.slice(0, KEYS_CAP))
    out[quoteText(key, 40)] = quoteValue(value, depth)
  if (entries.length > KEYS_CAP) out['(more keys)'] = entries.length - KEYS_CAP
  return out
}

/**
 * Token estimate of a text: ≈ 4 characters a token for ASCII (the usual rule of thumb for English and
 * JSON with Claude's tokenizers), and one token per other character, which over-counts accented Latin
 * but keeps CJK text and emoji inside the budget.
 */
export function estimateTokens(text: string): number {
  let ascii = 0
  let other = 0
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 0x80) ascii++
    else other++
  }
  return Math.ceil(ascii / 4 + other)
}
