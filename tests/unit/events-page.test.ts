import { describe, expect, it } from 'vitest'
import { pageEvents } from '../../electron/runtime/events-page.ts'
import { makeEvent } from '../support/contract-fakes.ts'

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`
/** Newest first, as the engine lists them: ids name their minute (and a suffix for equal times). */
const log = (...minutes: (number | string)[]) =>
  minutes.map((m) => makeEvent(String(m), at(Number(String(m).replace(/\D.*$/, '')))))
const ids = (page: ReturnType<typeof pageEvents>) => page.events.map((e) => e.id)

describe('pageEvents', () => {
  it.each<[string, (number | string)[], { limit: number; before?: string }, string[], boolean]>([
    ['all when few', [5, 4, 3], { limit: 10 }, ['5', '4', '3'], false],
    ['the newest limit', [5, 4, 3, 2], { limit: 2 }, ['5', '4'], true],
    ['exactly limit', [5, 4], { limit: 2 }, ['5', '4'], false],
    ['strictly before', [5, 4, 3, 2], { limit: 2, before: at(4) }, ['3', '2'], false],
    ['before the oldest', [5, 4], { limit: 2, before: at(1) }, [], false],
    ['cut before a run of equal times', [5, '4a', '4b', 3], { limit: 2 }, ['5'], true],
    [
      'a run filling the page grows it',
      ['4a', '4b', '4c', 3],
      { limit: 2 },
      ['4a', '4b', '4c'],
      true,
    ],
    ['a run to the end', ['4a', '4b', '4c'], { limit: 2 }, ['4a', '4b', '4c'], false],
    ['a run ending at the cut is kept', [5, 4, 3], { limit: 2 }, ['5', '4'], true],
    ['an unreadable before gives nothing', [5], { limit: 2, before: 'yesterday' }, [], false],
  ])('%s', (_, minutes, query, expected, hasMore) => {
    const page = pageEvents(log(...minutes), query)
    expect(ids(page)).toEqual(expected)
    expect(page.has_more).toBe(hasMore)
  })

  it('pages through everything, each event once', () => {
    const events = log(9, '8a', '8b', '8c', 7, 6, '5a', '5b', 4)
    const seen: string[] = []
    let before: string | undefined
    for (let i = 0; i < 20; i++) {
      const page = pageEvents(events, { limit: 2, ...(before ? { before } : {}) })
      seen.push(...ids(page))
      if (!page.has_more) break
      before = page.events.at(-1)?.timestamp
    }
    expect(seen).toEqual(events.map((e) => e.id))
  })
})
