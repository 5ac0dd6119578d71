import { describe, expect, it } from 'vitest'
import {
  countAtOrAfter,
  eventId,
  filterEvents,
  parseEventLine,
  pruneEventLines,
  serializeEvent,
  splitLogLines,
} from '../../electron/engine/core/event-line.ts'
import { engineEventSchema, type EngineEvent, type EventType } from '../../shared/schemas/event.ts'

const event = (
  id: string,
  timestamp: string,
  type: EventType = 'commit',
  project = 'apollo',
): EngineEvent =>
  engineEventSchema.parse({ id, timestamp, type, project, details: { sha: id, message: id } })

describe('serializeEvent / parseEventLine', () => {
  it('round-trips an event on one line, even with newlines in its details', () => {
    const e: EngineEvent = {
      id: 'abc',
      timestamp: '2025-06-01T10:00:00.000Z',
      type: 'commit',
      project: 'apollo',
      session: 's-1',
      details: { sha: 'deadbeef', message: 'fix: a\nb\r\n"quoted"\u2028', branch: 'main' },
    }
    const line = serializeEvent(e)
    expect(line).not.toContain('\n')
    expect(line).not.toContain('\r')
    expect(parseEventLine(line)).toEqual(e)
  })

  it('writes the seed fields first and omits an absent session', () => {
    const line = serializeEvent({ ...event('x', '2025-06-01T10:00:00Z'), session: undefined })
    expect(Object.keys(JSON.parse(line))).toEqual(['id', 'timestamp', 'type', 'project', 'details'])
  })

  it.each([
    ['empty', ''],
    ['not JSON', '{"id":"a",'],
    ['an array', '[1,2]'],
    [
      'unknown type',
      '{"id":"a","timestamp":"2025-06-01T10:00:00Z","type":"boom","project":"p","details":{}}',
    ],
    [
      'missing id',
      '{"timestamp":"2025-06-01T10:00:00Z","type":"commit","project":"p","details":{}}',
    ],
    [
      'bad timestamp',
      '{"id":"a","timestamp":"yesterday","type":"commit","project":"p","details":{}}',
    ],
    [
      'a detail of the wrong type',
      '{"id":"a","timestamp":"2025-06-01T10:00:00Z","type":"commit","project":"p","details":{"sha":7}}',
    ],
    [
      'a status change to a status that does not exist',
      '{"id":"a","timestamp":"2025-06-01T10:00:00Z","type":"session_status_change","project":"p","details":{"from":"working","to":"asleep"}}',
    ],
  ])('returns null for %s', (_name, line) => {
    expect(parseEventLine(line)).toBeNull()
  })

  it('reads each type with its own details: what an older line left out gets a neutral value', () => {
    const line =
      '{"id":"a","timestamp":"2025-06-01T10:00:00Z","type":"turn_completed","project":"p","details":{"name":"n","prompt":"fix it","extra":1}}'
    const event = parseEventLine(line)
    expect(event?.type).toBe('turn_completed')
    if (event?.type !== 'turn_completed') return
    expect(event.details).toEqual({
      name: 'n',
      prompt: 'fix it',
      reply: null,
      duration_ms: null,
      turns: 1,
      tokens: 0,
    })
  })

  it('tolerates a trailing CR', () => {
    expect(parseEventLine(`${serializeEvent(event('a', '2025-06-01T10:00:00Z'))}\r`)?.id).toBe('a')
  })
})

describe('eventId', () => {
  it('is stable, short and depends on every part and their boundaries', () => {
    const id = eventId(['commit', '/repo', 'abc123'])
    expect(id).toMatch(/^[0-9a-f]{16}$/)
    expect(eventId(['commit', '/repo', 'abc123'])).toBe(id)
    expect(eventId(['commit', '/repo', 'abc124'])).not.toBe(id)
    expect(eventId(['a', 'bc'])).not.toBe(eventId(['ab', 'c']))
  })
})

describe('pruneEventLines', () => {
  const now = Date.parse('2025-06-02T12:00:00Z')
  const day = 24 * 3600_000
  const line = (id: string, timestamp: string) => JSON.stringify(event(id, timestamp))

  it('keeps lines of events not older than the max age, verbatim and in order', () => {
    const lines = [
      line('old', '2025-06-01T11:59:59.999Z'),
      line('edge', '2025-06-01T12:00:00.000Z'),
      line('new', '2025-06-02T11:00:00Z'),
    ]
    const ids = (kept: string[]) => kept.map((l) => (JSON.parse(l) as { id: string }).id)
    expect(ids(pruneEventLines(lines, now, day).kept)).toEqual(['edge', 'new'])
    expect(pruneEventLines(lines, new Date(now)).kept).toEqual(lines.slice(1))
    expect(ids(pruneEventLines(lines, now, 3600_000).kept)).toEqual(['new'])
    expect(pruneEventLines(lines, now, day).dropped).toBe(1)
  })

  it('drops a repeated id, sets aside what is not an event, and lists the kept ids with their times', () => {
    const lines = [
      line('a', '2025-06-02T10:00:00Z'),
      '{"half": ',
      line('a', '2025-06-02T10:00:00Z'),
      line('b', '2025-06-02T11:00:00Z'),
    ]
    const pruned = pruneEventLines(lines, now, day)
    expect(pruned.kept).toEqual([lines[0], lines[3]])
    expect(pruned.corrupt).toEqual(['{"half": '])
    expect(pruned.dropped).toBe(1)
    expect([...pruned.keptIds]).toEqual([
      ['a', Date.parse('2025-06-02T10:00:00Z')],
      ['b', Date.parse('2025-06-02T11:00:00Z')],
    ])
  })

  it('takes the first exactLines as they are and validates the rest, counting the exact ones it keeps', () => {
    // Valid JSON but no event (no type): trusted where a marker vouched for it, set aside elsewhere.
    const odd = JSON.stringify({ id: 'odd', timestamp: '2025-06-02T10:30:00Z' })
    const lines = [line('old', '2025-05-30T10:00:00Z'), odd, line('a', '2025-06-02T10:00:00Z'), odd]
    const pruned = pruneEventLines(lines, now, day, 3)
    expect(pruned.kept).toEqual([odd, lines[2]])
    expect(pruned.corrupt).toEqual([odd])
    expect(pruned.dropped).toBe(1)
    expect(pruned.keptExact).toBe(2)
    expect(pruneEventLines(lines, now, day).corrupt).toEqual([odd, odd])
  })
})

describe('filterEvents', () => {
  const events = [
    event('1', '2025-06-02T09:00:00Z', 'commit', 'apollo'),
    event('2', '2025-06-02T11:00:00Z', 'session_started', 'hermes'),
    event('3', '2025-06-02T10:00:00Z', 'task_completed', 'apollo'),
    event('4', '2025-06-02T11:00:00Z', 'commit', 'apollo'),
  ]

  it('sorts newest first, later-logged first on equal timestamps', () => {
    expect(filterEvents(events).map((e) => e.id)).toEqual(['4', '2', '3', '1'])
  })

  it('filters by since, project and types', () => {
    const since = Date.parse('2025-06-02T10:00:00Z')
    expect(filterEvents(events, { since }).map((e) => e.id)).toEqual(['4', '2', '3'])
    expect(filterEvents(events, { since: new Date(since) }).map((e) => e.id)).toEqual([
      '4',
      '2',
      '3',
    ])
    expect(filterEvents(events, { project: 'apollo' }).map((e) => e.id)).toEqual(['4', '3', '1'])
    expect(filterEvents(events, { types: ['commit'] }).map((e) => e.id)).toEqual(['4', '1'])
    expect(filterEvents(events, { types: [] })).toHaveLength(4)
    expect(
      filterEvents(events, { project: 'apollo', types: ['commit'], since }).map((e) => e.id),
    ).toEqual(['4'])
  })

  it('does not modify its input', () => {
    const copy = [...events]
    filterEvents(events)
    expect(events).toEqual(copy)
  })
})

describe('countAtOrAfter', () => {
  it('counts the newest-first events at or after a moment, as filtering each would', () => {
    // Runs of equal timestamps, at both ends and in the middle.
    const minutes = [9, 9, 8, 7, 7, 7, 5, 3, 3, 1]
    const newestFirst = minutes.map((m, i) =>
      event(String(i), `2025-06-02T10:${String(m).padStart(2, '0')}:00Z`),
    )
    for (let m = 0; m <= 10; m++) {
      const at = Date.parse(`2025-06-02T10:${String(m).padStart(2, '0')}:00Z`)
      const filtered = newestFirst.filter((e) => Date.parse(e.timestamp) >= at).length
      expect(countAtOrAfter(newestFirst, at), `minute ${m}`).toBe(filtered)
    }
    expect(countAtOrAfter(newestFirst, -Infinity)).toBe(minutes.length)
    expect(countAtOrAfter(newestFirst, Infinity)).toBe(0)
    expect(countAtOrAfter([], 0)).toBe(0)
  })
})

describe('splitLogLines', () => {
  it('separates complete lines from an unterminated tail', () => {
    expect(splitLogLines('a\n\nb\r\nc')).toEqual({ lines: ['a', 'b'], partial: 'c' })
    expect(splitLogLines('a\n')).toEqual({ lines: ['a'], partial: '' })
    expect(splitLogLines('')).toEqual({ lines: [], partial: '' })
  })
})
