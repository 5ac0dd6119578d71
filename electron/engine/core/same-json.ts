/**
 * Equality of two JSON-like values (what `JSON.stringify` would print alike), without printing either:
 * the engine asks it of every project's snapshot every cycle, and most are unchanged. Pure. Keys are
 * compared as sets (order does not matter for a snapshot); `undefined` fields count as absent, as in JSON.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    // NaN and ±Infinity print as null in JSON; the snapshots never hold them, so plain equality will do.
    return false
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  let count = 0
  for (const key in left) {
    if (left[key] === undefined) continue
    count++
    if (!sameJson(left[key], right[key])) return false
  }
  for (const key in right) if (right[key] !== undefined) count--
  return count === 0
}
