/**
 * `Date.parse` of the times a cycle compares again and again (every session's last activity, in every
 * sort and window check of every cycle), remembered. Pure as far as callers can tell: the same string
 * always gives the same number. The strings are the same objects cycle after cycle (they come from the
 * summaries), so a lookup costs a fraction of a parse; the memo is dropped whole when it fills.
 */
const MAX_REMEMBERED = 50_000
const remembered = new Map<string, number>()

/** Milliseconds since the epoch of an ISO time, NaN when it is not one (as `Date.parse`). */
export function isoMs(value: string): number {
  let ms = remembered.get(value)
  if (ms === undefined) {
    ms = Date.parse(value)
    if (remembered.size >= MAX_REMEMBERED) remembered.clear()
    remembered.set(value, ms)
  }
  return ms
}
