/**
 * Main transcripts newest first, as every cycle of a running engine asks for them (side-transcripts.ts
 * mainTranscriptsById). An agent writing moves one transcript at a time: when the same summaries come in the
 * same order and only a few of them have a new last activity (a summary is folded in place), those few are
 * put in their new places in the order kept from the call before, instead of parsing and sorting all of
 * them again (2,000 transcripts: about 1 ms of every append). The answer is the one a stable sort by last
 * activity, newest first, gives; a unit test holds the two together.
 */
import type { TranscriptSummary } from './source-records.ts'
import { isoMs } from './iso-ms.ts'

/** More moved transcripts than this are sorted afresh (each one placed costs a splice). */
const MAX_PLACED = 64

interface Ordered {
  /** The list this order was made for, and each one's last activity then. */
  transcripts: TranscriptSummary[]
  lastActivities: (string | null)[]
  /** Each one's last activity in ms (0 when none), by its index in `transcripts`. */
  at: number[]
  /** Indexes into `transcripts`, newest first; equal times in list order. */
  order: number[]
  sorted: readonly TranscriptSummary[]
}

let last: Ordered | null = null

const msOf = (t: TranscriptSummary): number => (t.lastActivity ? isoMs(t.lastActivity) || 0 : 0)

/**
 * `transcripts` newest first by last activity, equal times in the order given. The same array as the call
 * before when nothing moved; never changed by a later call.
 */
export function newestFirst(
  transcripts: readonly TranscriptSummary[],
): readonly TranscriptSummary[] {
  const moved = last === null ? null : movedSince(last, transcripts)
  if (last !== null && moved !== null) {
    if (moved.length === 0) return last.sorted
    if (moved.length <= MAX_PLACED) return place(last, moved)
  }
  last = sortAll(transcripts)
  return last.sorted
}

/** Indexes whose last activity changed, when the list is the same summaries in the same order; else null. */
function movedSince(ordered: Ordered, transcripts: readonly TranscriptSummary[]): number[] | null {
  if (ordered.transcripts.length !== transcripts.length) return null
  const moved: number[] = []
  for (let i = 0; i < transcripts.length; i++) {
    const t = transcripts[i] as TranscriptSummary
    if (ordered.transcripts[i] !== t) return null
    if (ordered.lastActivities[i] !== t.lastActivity) moved.push(i)
  }
  return moved
}

function sortAll(transcripts: readonly TranscriptSummary[]): Ordered {
  const at = transcripts.map(msOf)
  // Stable: equal times keep the list's order.
  const order = transcripts.map((_, i) => i).sort((a, b) => (at[b] as number) - (at[a] as number))
  return {
    transcripts: [...transcripts],
    lastActivities: transcripts.map((t) => t.lastActivity),
    at,
    order,
    sorted: order.map((i) => transcripts[i] as TranscriptSummary),
  }
}

/** Takes the moved indexes out of the kept order and puts each back where the sort would. */
function place(ordered: Ordered, moved: readonly number[]): readonly TranscriptSummary[] {
  const { transcripts, at } = ordered
  const isMoved = new Set(moved)
  const order = ordered.order.filter((i) => !isMoved.has(i))
  for (const i of moved) {
    const t = transcripts[i] as TranscriptSummary
    ordered.lastActivities[i] = t.lastActivity
    at[i] = msOf(t)
  }
  // `a` comes before `b`: newer, or as new and earlier in the list.
  const before = (a: number, b: number) =>
    (at[a] as number) > (at[b] as number) || (at[a] === at[b] && a < b)
  for (const i of moved) {
    let lo = 0
    let hi = order.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (before(order[mid] as number, i)) lo = mid + 1
      else hi = mid
    }
    order.splice(lo, 0, i)
  }
  ordered.order = order
  ordered.sorted = order.map((i) => transcripts[i] as TranscriptSummary)
  return ordered.sorted
}
