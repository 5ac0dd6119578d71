/**
 * Parsing of Linux `/proc/<pid>/stat`. Pure.
 *
 * Field 2 (`comm`, the command name in parentheses) may itself contain spaces and `)`, so the fields
 * after it are split from the LAST `)` of the line (proc(5)).
 */

/** Field 22, `starttime` (clock ticks since boot), as the decimal string Claude stores as `procStart`. */
export function parseProcStartTime(statLine: string): string | null {
  const close = statLine.lastIndexOf(')')
  if (close === -1) return null
  // After `comm` come field 3 (state) onward, so field 22 is the 20th of the rest.
  const rest = statLine
    .slice(close + 1)
    .trim()
    .split(/\s+/)
  const startTime = rest[22 - 3]
  return startTime !== undefined && /^\d+$/.test(startTime) ? startTime : null
}
