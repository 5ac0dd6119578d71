/**
 * Daily digests: one compact line per project and day, kept 90 days, so the PM can see patterns across
 * weeks while the event log holds only 24 hours. Pure.
 *
 * A day's counts are recomputed from the event log each time and merged by taking, field by field, the
 * larger of the stored and the fresh count: events only come in during a day and leave the log 24 hours
 * later, so the largest count seen is the day's. Any number of Navi processes can update the same file
 * without counting an event twice.
 */
import type { EngineEvent } from '../../../shared/schemas/event.ts'

export interface DayDigest {
  /** Local calendar day, `YYYY-MM-DD`. */
  day: string
  project: string
  commits: number
  tasks_done: number
  /** Times a session started waiting on its user (a permission, a question). */
  waits: number
  /** Trouble the rules saw (stalled, looping, failing, API errors, long waits). */
  stalls: number
  turns: number
  /** Tokens the project's sessions spent (Navi keeps no price table: tokens, not cost). */
  tokens: number
}

export const DIGEST_KEEP_DAYS = 90
const COUNTS = ['commits', 'tasks_done', 'waits', 'stalls', 'turns', 'tokens'] as const

/** The local calendar day of an instant. */
export function localDay(ms: number): string {
  const d = new Date(ms)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${String(d.getFullYear())}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

function increments(event: EngineEvent): Partial<Record<(typeof COUNTS)[number], number>> {
  switch (event.type) {
    case 'commit': {
      const more = event.details.more_commits
      return { commits: 1 + (typeof more === 'number' && more > 0 ? Math.floor(more) : 0) }
    }
    case 'task_completed':
      return { tasks_done: 1 }
    case 'session_status_change':
      return event.details.to === 'needs_permission' || event.details.to === 'waiting_input'
        ? { waits: 1 }
        : {}
    case 'session_trouble':
      return { stalls: 1 }
    case 'turn_completed':
      return { turns: Math.max(1, event.details.turns), tokens: event.details.tokens }
    default:
      return {}
  }
}

/** The digests of the days the events cover, per project. */
export function digestEvents(
  events: readonly EngineEvent[],
  dayOf: (ms: number) => string = localDay,
): DayDigest[] {
  const byKey = new Map<string, DayDigest>()
  for (const event of events) {
    const add = increments(event)
    if (Object.keys(add).length === 0) continue
    const ms = Date.parse(event.timestamp)
    if (!Number.isFinite(ms)) continue
    const day = dayOf(ms)
    const key = `${day}\u0000${event.project}`
    const digest =
      byKey.get(key) ??
      ({
        day,
        project: event.project,
        commits: 0,
        tasks_done: 0,
        waits: 0,
        stalls: 0,
        turns: 0,
        tokens: 0,
      } as DayDigest)
    for (const field of COUNTS) digest[field] += add[field] ?? 0
    byKey.set(key, digest)
  }
  return [...byKey.values()]
}

/**
 * The stored digests with the fresh ones merged (field-wise maximum per day and project), without days
 * older than `keepDays` before `today`; newest day first, projects by name.
 */
export function mergeDigests(
  stored: readonly DayDigest[],
  fresh: readonly DayDigest[],
  today: string,
  keepDays = DIGEST_KEEP_DAYS,
): DayDigest[] {
  const byKey = new Map<string, DayDigest>()
  for (const digest of [...stored, ...fresh]) {
    const key = `${digest.day}\u0000${digest.project}`
    const prev = byKey.get(key)
    if (!prev) {
      byKey.set(key, { ...digest })
      continue
    }
    for (const field of COUNTS) prev[field] = Math.max(prev[field], digest[field])
  }
  const oldest = localDay(Date.parse(`${today}T12:00:00`) - keepDays * 86_400_000)
  return [...byKey.values()]
    .filter((d) => d.day > oldest)
    .sort((a, b) => (a.day === b.day ? a.project.localeCompare(b.project) : a.day < b.day ? 1 : -1))
}

/**
 * One digest as the PM reads it: `2026-11-25 apollo: 4 commits, 2 tasks done, 1 wait, 0 stalls, 9 turns,
 * 1.2M tokens`.
 */
export function digestLine(d: DayDigest): string {
  const n = (count: number, one: string, many = `${one}s`) =>
    `${String(count)} ${count === 1 ? one : many}`
  return (
    `${d.day} ${d.project}: ${n(d.commits, 'commit')}, ${n(d.tasks_done, 'task done', 'tasks done')}, ` +
    `${n(d.waits, 'wait')}, ${n(d.stalls, 'stall')}, ${n(d.turns, 'turn')}, ` +
    `${compactTokens(d.tokens)} tokens`
  )
}

function compactTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(1)}M`
  if (tokens >= 1_000) return `${(tokens / 1_000).toFixed(1)}k`
  return String(tokens)
}
