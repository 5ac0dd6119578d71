/**
 * Durations as people write them in config.yaml, settings.json and on the command line: `500ms`, `30s`,
 * `1.5m`, `2h`, or a number of seconds. The one reader every part uses. Pure; no node:*.
 */

/** The text form: a decimal number and a unit. */
export const DURATION_PATTERN = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)$/

export const DURATION_HINT = 'expected a duration such as 500ms, 30s, 2m or 1h'

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const

/** `'30s'` → 30000, `'500ms'` → 500, `'1.5m'` → 90000; a number counts seconds. Null when unreadable or 0. */
export function parseDuration(value: string | number): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value * 1000 : null
  const match = DURATION_PATTERN.exec(value.trim())
  if (!match) return null
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS]
  return ms > 0 ? ms : null
}
