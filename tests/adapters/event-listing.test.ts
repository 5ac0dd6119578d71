/**
 * The engine's listing of its event log (event-listing.ts) over a real log file: newest first, sorted once
 * per read of the log, a `sinceMs` window and a project.
 */
import { describe, expect, it } from 'vitest'
import { createEventListing } from '../../electron/engine/event-listing.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import { useEventLogFile } from '../support/event-log-file.ts'

const NOW = Date.parse('2025-06-02T12:00:00Z')
const MINUTE = 60_000

const event = (id: string, minutesAgo: number, project = 'apollo'): EngineEvent => ({
  id,
  timestamp: new Date(NOW - minutesAgo * MINUTE).toISOString(),
  type: 'commit',
  project,
  details: { sha: id, message: `commit ${id}`, branch: 'main' },
})

const logs = useEventLogFile('navi-event-listing-', NOW)

describe('the event listing', () => {
  it('lists newest first, the same array while the log is unchanged, a new one after an append', async () => {
    const log = logs.open()
    // Logged out of time order (a task's event logged late), with a tie at 10 minutes ago.
    await log.append([event('a', 30), event('b', 10), event('c', 20), event('d', 10, 'hermes')])
    const list = createEventListing(log, () => NOW)
    const first = await list({})
    expect(first.map((e) => e.id)).toEqual(['d', 'b', 'c', 'a'])
    expect(await list({})).toBe(first)

    await logs.open().append([event('e', 1)])
    const after = await list({})
    expect(after).not.toBe(first)
    expect(after.map((e) => e.id)).toEqual(['e', 'd', 'b', 'c', 'a'])
    expect(first.map((e) => e.id)).toEqual(['d', 'b', 'c', 'a'])
  })

  it('takes the events of the last sinceMs (a bound included) and of one project', async () => {
    const log = logs.open()
    await log.append([event('a', 30), event('b', 10), event('c', 20), event('d', 10, 'hermes')])
    const list = createEventListing(log, () => NOW)
    expect((await list({ sinceMs: 20 * MINUTE })).map((e) => e.id)).toEqual(['d', 'b', 'c'])
    expect((await list({ sinceMs: 5 * MINUTE })).map((e) => e.id)).toEqual([])
    expect((await list({ project: 'apollo' })).map((e) => e.id)).toEqual(['b', 'c', 'a'])
    expect((await list({ sinceMs: 15 * MINUTE, project: 'hermes' })).map((e) => e.id)).toEqual([
      'd',
    ])
  })
})
