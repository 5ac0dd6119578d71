/** Narrowing of parsed JSON for the hot folds, where a zod parse per line would cost too much. */
export type JsonObject = Record<string, unknown>

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export const asString = (value: unknown): string | null =>
  typeof value === 'string' ? value : null

/** A finite number, or 0. */
export const asCount = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0

/** Times read from files before this are bad values (no agent CLI wrote them). */
export const EARLIEST_PLAUSIBLE_MS = Date.UTC(2000, 0, 1)
/** How far ahead of the reader's clock a time read from a file may be (another machine's clock). */
const CLOCK_SKEW_MS = 24 * 60 * 60_000

/** The latest believable time for a value read at `now`. */
export const latestPlausibleMs = (now: number): number => now + CLOCK_SKEW_MS

/**
 * A time from a file as a canonical ISO string (so string order is time order), or null when it is not
 * a time, before 2000, or later than `latestMs` (a year-9999 stamp must not keep a session "active").
 */
export function asTimestamp(value: unknown, latestMs = Number.POSITIVE_INFINITY): string | null {
  if (typeof value !== 'string' || value.length > 64) return null
  // Fast path for what the CLIs write (millions of lines): a canonical ISO time compares as a string.
  if (value.length === 24 && CANONICAL_ISO.test(value)) {
    return value >= EARLIEST_PLAUSIBLE_ISO && value <= isoOf(latestMs) ? value : null
  }
  const ms = Date.parse(value)
  if (!Number.isFinite(ms) || ms < EARLIEST_PLAUSIBLE_MS || ms > latestMs) return null
  return new Date(ms).toISOString()
}

/** `YYYY-MM-DDTHH:MM:SS.sssZ` with months, days and hours in range: sorts as it is timed. */
export const CANONICAL_ISO =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/
const EARLIEST_PLAUSIBLE_ISO = new Date(EARLIEST_PLAUSIBLE_MS).toISOString()

/** The ISO form of `ms`, remembered for the last value asked (the bound changes once a millisecond). */
let lastBound = { ms: Number.NaN, iso: '' }
function isoOf(ms: number): string {
  if (ms === lastBound.ms) return lastBound.iso
  // Beyond what a Date can hold (Infinity): every four-digit year sorts below it.
  const iso = Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : '~'
  lastBound = { ms, iso }
  return iso
}

/** Epoch milliseconds from a file, within the same bounds as `asTimestamp`; else null. */
export function asEpochMs(
  value: number | null | undefined,
  latestMs = Number.POSITIVE_INFINITY,
): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null
  return value >= EARLIEST_PLAUSIBLE_MS && value <= latestMs ? value : null
}

/** More tokens than any model's context in one response: a count above this is a bad value. */
const MAX_TOKENS_PER_RESPONSE = 1_000_000_000

/** A token count: a non-negative integer up to `MAX_TOKENS_PER_RESPONSE`, anything else 0. */
export const asTokenCount = (value: unknown): number =>
  typeof value === 'number' &&
  Number.isInteger(value) &&
  value >= 0 &&
  value <= MAX_TOKENS_PER_RESPONSE
    ? value
    : 0

/** True for a value that is present but not a token count (1e308, -5, '12', 0.5). */
export const isBadCount = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== 0 && asTokenCount(value) === 0

/** A string cut to `max` UTF-16 units (never half a surrogate pair); non-strings are null. */
export function asCappedString(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null
  if (value.length <= max) return value
  const code = value.charCodeAt(max - 2)
  const cut = code >= 0xd800 && code <= 0xdbff ? max - 2 : max - 1
  return `${value.slice(0, cut)}…`
}

/** An HTTP status code (100–599), or null for anything else. */
export function asHttpStatus(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599
    ? value
    : null
}
