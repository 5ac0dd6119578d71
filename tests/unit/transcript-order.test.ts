import { describe, expect, it } from 'vitest'
import { newestFirst } from '../../electron/engine/core/transcript-order.ts'
import { emptyTranscriptSummary } from '../../electron/engine/core/transcript-fold.ts'
import type { TranscriptSummary } from '../../electron/engine/core/source-records.ts'

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Times from a few minutes, so that ties are common; some transcripts have none. */
const timeFor = (next: () => number): string | null =>
  next() < 0.1 ? null : new Date(Date.UTC(2026, 10, 20, 10, Math.floor(next() * 6))).toISOString()

/** What the order must be: a stable sort by last activity, newest first. */
function expected(list: readonly TranscriptSummary[]): TranscriptSummary[] {
  const at = (t: TranscriptSummary) => (t.lastActivity ? Date.parse(t.lastActivity) : 0)
  return [...list].sort((a, b) => at(b) - at(a))
}

describe('newestFirst', () => {
  it('orders by last activity, newest first, equal times in list order', () => {
    const a = emptyTranscriptSummary('a', '/p/a.jsonl')
    const b = emptyTranscriptSummary('b', '/p/b.jsonl')
    const c = emptyTranscriptSummary('c', '/p/c.jsonl')
    a.lastActivity = '2026-11-20T10:00:00.000Z'
    b.lastActivity = '2026-11-20T11:00:00.000Z'
    c.lastActivity = '2026-11-20T10:00:00.000Z'
    expect(newestFirst([a, b, c])).toEqual([b, a, c])
  })

  it('gives what a fresh sort gives after transcripts move in place, join or leave', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed)
      let list = Array.from({ length: 5 + Math.floor(next() * 120) }, (_, i) => {
        const t = emptyTranscriptSummary(`s${i}`, `/p/${i}.jsonl`)
        t.lastActivity = timeFor(next)
        return t
      })
      for (let round = 0; round < 12; round++) {
        const roll = next()
        if (roll < 0.6) {
          // A few agents write: their summaries are folded in place.
          const moves = roll < 0.1 ? 0 : 1 + Math.floor(next() * (roll < 0.5 ? 3 : 80))
          for (let m = 0; m < moves; m++) {
            const t = list[Math.floor(next() * list.length)] as TranscriptSummary
            t.lastActivity = timeFor(next)
          }
        } else if (roll < 0.8) {
          const t = emptyTranscriptSummary(`n${round}`, `/p/n${round}.jsonl`)
          t.lastActivity = timeFor(next)
          list = [...list, t]
        } else {
          list = list.filter((_, i) => i !== Math.floor(next() * list.length))
        }
        expect(newestFirst(list), `seed ${seed}, round ${round}`).toEqual(expected(list))
      }
    }
  })

  it('gives the same array again when nothing moved, and a new one when something did', () => {
    const list = ['x', 'y'].map((id) => emptyTranscriptSummary(id, `/p/${id}.jsonl`))
    const first = newestFirst(list)
    expect(newestFirst(list)).toBe(first)
    ;(list[0] as TranscriptSummary).lastActivity = '2026-11-20T12:00:00.000Z'
    const moved = newestFirst(list)
    expect(moved).not.toBe(first)
    expect(first.map((t) => t.sessionId)).toEqual(['x', 'y'])
  })
})
