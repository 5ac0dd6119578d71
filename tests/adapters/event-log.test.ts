import { appendFile, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { execa } from 'execa'
import { beforeEach, describe, expect, it } from 'vitest'
import { useEventLogFile } from '../support/event-log-file.ts'
import { serializeEvent } from '../../electron/engine/core/event-line.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'

const NOW = Date.parse('2025-06-02T12:00:00Z')
const HOUR = 3600_000
const REPO_ROOT = resolve(import.meta.dirname, '../..')
const EVENT_LOG_MODULE = join(REPO_ROOT, 'electron/engine/adapters/event-log.ts')

const event = (id: string, at = NOW - HOUR): EngineEvent => ({
  id,
  timestamp: new Date(at).toISOString(),
  type: 'commit',
  project: 'apollo',
  details: { sha: id, message: `commit ${id}`, branch: 'main' },
})

const logs = useEventLogFile('navi-event-log-', NOW)
let dir: string
let file: string
const open = logs.open

/** Ids of the lines in the file, straight from the bytes (readAll could hide a duplicate). */
async function idsInFile(path = file): Promise<string[]> {
  const text = await readFile(path, 'utf8')
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { id: string }).id)
}

beforeEach(() => {
  dir = logs.dir
  file = logs.file
})

describe('event log', () => {
  it('appends events as lines and reads them back', async () => {
    const log = open()
    expect(await log.readAll()).toEqual({ events: [], corrupt: 0 })
    const first = [event('a'), event('b')]
    expect(await log.append(first)).toEqual(first)
    expect(await log.append([event('c')])).toEqual([event('c')])
    expect(await log.readAll()).toEqual({ events: [...first, event('c')], corrupt: 0 })
    expect(await readFile(file, 'utf8')).toBe(
      `${[...first, event('c')].map(serializeEvent).join('\n')}\n`,
    )
  })

  it('reads an unchanged log once, and sees whatever changes it: an append by another writer, a prune', async () => {
    const reader = open()
    await open().append([event('a'), event('b')])
    const first = await reader.readAll()
    expect(first.events.map((e) => e.id)).toEqual(['a', 'b'])
    // The same answer again, not parsed again: the very array (read-only to its callers).
    const again = await reader.readAll()
    expect(again.events.map((e) => e.id)).toEqual(['a', 'b'])
    expect(again.events).toBe(first.events)

    await open().append([event('c')])
    expect((await reader.readAll()).events.map((e) => e.id)).toEqual(['a', 'b', 'c'])

    // Replaced by a prune of another instance, one event older than a day dropped.
    await appendFile(file, `${serializeEvent(event('old', NOW - 25 * HOUR))}\n`)
    expect((await reader.readAll()).events).toHaveLength(4)
    await open().prune(NOW)
    expect((await reader.readAll()).events.map((e) => e.id)).toEqual(['a', 'b', 'c'])
  })

  it('skips ids already logged, within a batch, across calls and after a restart', async () => {
    const log = open()
    expect((await log.append([event('a'), event('a'), event('b')])).map((e) => e.id)).toEqual([
      'a',
      'b',
    ])
    expect(await log.append([event('b')])).toEqual([])
    await log.close()

    const restarted = open()
    expect((await restarted.append([event('a'), event('b'), event('c')])).map((e) => e.id)).toEqual(
      ['c'],
    )
    expect(await idsInFile()).toEqual(['a', 'b', 'c'])
  })

  it('lets two instances append concurrently without duplicates or lost lines', async () => {
    const one = open()
    const two = open()
    const batches = Array.from({ length: 20 }, (_, i) => [
      event(`shared-${i}`),
      event(`shared-${i + 1}`),
    ])
    const results = await Promise.all(
      batches.flatMap((batch, i) => [
        one.append([...batch, event(`one-${i}`)]),
        two.append([...batch, event(`two-${i}`)]),
      ]),
    )
    const ids = await idsInFile()
    expect(new Set(ids).size).toBe(ids.length)
    const expected = [
      ...Array.from({ length: 21 }, (_, i) => `shared-${i}`),
      ...Array.from({ length: 20 }, (_, i) => `one-${i}`),
      ...Array.from({ length: 20 }, (_, i) => `two-${i}`),
    ]
    expect([...ids].sort()).toEqual([...expected].sort())
    // What each call reported as written is exactly what the file holds.
    expect(
      results
        .flat()
        .map((e) => e.id)
        .sort(),
    ).toEqual([...expected].sort())
  })

  it('lets two processes append concurrently without duplicates or lost lines', async () => {
    await Promise.all([appendFromChild('p1', 60), appendFromChild('p2', 60)])
    const ids = await idsInFile()
    expect(new Set(ids).size).toBe(ids.length)
    const expected = [
      ...Array.from({ length: 60 }, (_, i) => [`shared-${i}`, `p1-${i}`, `p2-${i}`]).flat(),
    ]
    expect([...ids].sort()).toEqual(expected.sort())
  })

  it('prunes events older than 24 h and keeps the newer ones', async () => {
    const log = open()
    await log.append([event('old', NOW - 25 * HOUR), event('edge', NOW - 24 * HOUR), event('new')])
    expect(await log.prune(NOW)).toEqual({ kept: 2, dropped: 1, corrupt: 0 })
    expect(await idsInFile()).toEqual(['edge', 'new'])
    // Still deduplicating after the rewrite, in this instance and in a fresh one.
    expect(await log.append([event('new'), event('later')])).toEqual([event('later')])
    expect(await open().append([event('edge'), event('later')])).toEqual([])
    expect(await idsInFile()).toEqual(['edge', 'new', 'later'])
  })

  it('loses nothing appended while a prune runs (other instance and other process)', async () => {
    const seed = open()
    const old = Array.from({ length: 50 }, (_, i) => event(`old-${i}`, NOW - 30 * HOUR))
    const kept = Array.from({ length: 50 }, (_, i) => event(`kept-${i}`))
    await seed.append([...old, ...kept])

    const pruner = open()
    const appender = open()
    const racing = Array.from({ length: 15 }, (_, i) => event(`race-${i}`))
    const child = appendFromChild('child', 40)
    const [pruned] = await Promise.all([
      pruner.prune(NOW),
      ...racing.map((e) => appender.append([e])),
      pruner.prune(NOW),
      ...racing.map((e) => appender.append([e])),
      child,
    ])
    await pruner.prune(NOW)

    expect(pruned.dropped).toBe(50)
    const ids = await idsInFile()
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.filter((id) => id.startsWith('old-'))).toEqual([])
    const expected = [
      ...kept.map((e) => e.id),
      ...racing.map((e) => e.id),
      ...Array.from({ length: 40 }, (_, i) => [`shared-${i}`, `child-${i}`]).flat(),
    ]
    expect([...ids].sort()).toEqual(expected.sort())
  })

  it('skips corrupt lines, counts them and moves them to events.corrupt.jsonl on prune', async () => {
    const log = open()
    await log.append([event('a')])
    const garbage = ['{"not":"an event"}', 'plain text', '{"id":"x","timestamp":"never"']
    await appendFile(file, `${garbage.join('\n')}\n`)
    await log.append([event('b')])

    expect(await log.readAll()).toEqual({ events: [event('a'), event('b')], corrupt: 3 })
    expect(await log.prune(NOW)).toEqual({ kept: 2, dropped: 0, corrupt: 3 })
    expect(log.corruptFile).toBe(join(dir, 'pm', 'events.corrupt.jsonl'))
    expect(await readFile(log.corruptFile, 'utf8')).toBe(`${garbage.join('\n')}\n`)
    expect(await log.readAll()).toEqual({ events: [event('a'), event('b')], corrupt: 0 })
  })

  it('tolerates a half-written last line, and does not glue the next event to it', async () => {
    const log = open()
    await log.append([event('a')])
    const half = serializeEvent(event('torn')).slice(0, 30)
    await appendFile(file, half)
    expect(await log.readAll()).toEqual({ events: [event('a')], corrupt: 0 })

    // A new instance appends after a crash left the torn line: its event stays readable.
    expect(await open().append([event('b')])).toEqual([event('b')])
    expect(await log.readAll()).toEqual({ events: [event('a'), event('b')], corrupt: 1 })
    await log.prune(NOW)
    expect(await readFile(log.corruptFile, 'utf8')).toBe(`${half}\n`)
    expect(await idsInFile()).toEqual(['a', 'b'])
  })

  it('notices a prune by another instance (the file is replaced) and keeps deduplicating', async () => {
    const one = open()
    const two = open()
    await one.append([event('old', NOW - 30 * HOUR), event('a')])
    const inodeBefore = (await stat(file)).ino
    await two.prune(NOW)
    expect((await stat(file)).ino).not.toBe(inodeBefore)
    await two.append([event('b')])
    expect(await one.append([event('a'), event('b'), event('c')])).toEqual([event('c')])
    expect(await idsInFile()).toEqual(['a', 'b', 'c'])
  })

  it('prunes when due only', async () => {
    let now = NOW
    const log = open(() => now, { pruneEveryMs: 5 * 60_000 })
    await log.append([event('old', NOW - 25 * HOUR)])
    expect(await log.pruneIfDue()).toEqual({ kept: 0, dropped: 1, corrupt: 0 })
    await log.append([event('old2', NOW - 25 * HOUR)])
    now += 60_000
    expect(await log.pruneIfDue()).toBeNull()
    expect(await idsInFile()).toEqual(['old2'])
    now += 5 * 60_000
    expect(await log.pruneIfDue()).toEqual({ kept: 0, dropped: 1, corrupt: 0 })
  })

  it('looks at an empty or missing log without locking it or marking a prune', async () => {
    const log = open()
    expect(await log.pruneIfDue()).toBeNull()
    await mkdir(dirname(file), { recursive: true })
    await appendFile(file, '')
    expect(await log.pruneIfDue()).toBeNull()
    // Nothing was written beside it: no lock, no marker (an empty log has nothing to prune).
    expect((await readdir(dirname(file))).sort()).toEqual([basename(file)])
    // Once it holds an event, the next process prunes it as before.
    await log.append([event('old', NOW - 25 * HOUR)])
    expect(await open().pruneIfDue()).toEqual({ kept: 0, dropped: 1, corrupt: 0 })
  })

  it('skips a due prune that would drop nothing, and prunes the moment the oldest event is a day old', async () => {
    let now = NOW
    const log = open(() => now)
    // The older event is appended last: the marker must know the oldest, not the first.
    await log.append([event('recent', NOW - HOUR)])
    await log.append([event('older', NOW - 23 * HOUR)])
    expect(await log.pruneIfDue()).toBeNull()
    // No prune ran: nothing marked it (a prune that reads the log marks it, even when it drops nothing).
    expect(await readdir(dirname(file))).not.toContain('events.pruned')
    now = NOW + HOUR + 60_000
    expect(await log.pruneIfDue()).toEqual({ kept: 1, dropped: 1, corrupt: 0 })
    expect(await idsInFile()).toEqual(['recent'])
  })

  it('reads the log at a due prune when its marker cannot tell: a line added by hand, an older marker', async () => {
    let now = NOW
    const log = open(() => now)
    await log.append([event('a')])
    // A line Navi did not write (a day old): the marker no longer names the log as it stands.
    await appendFile(file, `${serializeEvent(event('by-hand', NOW - 25 * HOUR))}\n`)
    expect(await log.pruneIfDue()).toEqual({ kept: 1, dropped: 1, corrupt: 0 })
    // A marker written before it said how old its events are: the prune reads the log, then says so.
    const marker = join(dirname(file), 'events.verified')
    const { oldestMs, ...older } = JSON.parse(await readFile(marker, 'utf8')) as {
      oldestMs: number
    }
    expect(oldestMs).toBe(NOW - HOUR)
    await writeFile(marker, `${JSON.stringify(older)}\n`)
    now += 10 * 60_000
    expect(await log.pruneIfDue()).toEqual({ kept: 1, dropped: 0, corrupt: 0 })
    expect(JSON.parse(await readFile(marker, 'utf8'))).toMatchObject({ oldestMs: NOW - HOUR })
    now += 10 * 60_000
    expect(await log.pruneIfDue()).toBeNull()
  })

  it('does not rewrite a file that needs no pruning', async () => {
    const log = open()
    await log.append([event('a')])
    const before = await stat(file)
    expect(await log.prune(NOW)).toEqual({ kept: 1, dropped: 0, corrupt: 0 })
    expect((await stat(file)).ino).toBe(before.ino)
  })

  it('refuses to write after close', async () => {
    const log = open()
    await log.append([event('a')])
    await log.close()
    await expect(log.append([event('b')])).rejects.toThrow(/closed/)
  })

  it('writes only events that read back as events', async () => {
    const log = open()
    const bad = { ...event('bad'), timestamp: 'not a date' }
    expect(await log.append([bad, event('good')])).toEqual([event('good')])
    expect(await idsInFile()).toEqual(['good'])
  })

  it('takes over a lock dated in the future instead of waiting on it for ever', async () => {
    const log = open()
    await log.append([event('a')])
    const lock = `${file}.lock`
    await mkdir(lock)
    const future = new Date(Date.now() + 365 * 24 * HOUR)
    await utimes(lock, future, future)
    expect((await log.append([event('b')])).map((e) => e.id)).toEqual(['b'])
    expect(await idsInFile()).toEqual(['a', 'b'])
  })

  it('gives up on a lock held by a live writer after a bounded wait, with the lock named', async () => {
    const log = open()
    await log.append([event('a')])
    const lock = `${file}.lock`
    await mkdir(lock)
    // A live holder keeps touching its lock; this one is touched while the append waits.
    const keepFresh = setInterval(() => void utimes(lock, new Date(), new Date()), 200)
    try {
      // It gives up by itself (about 5 s, not the 41 s it once waited) and says which lock to remove.
      await expect(log.append([event('b')])).rejects.toThrow(
        /is locked by another process .*\.lock/,
      )
    } finally {
      clearInterval(keepFresh)
    }
    await rm(lock, { recursive: true })
    expect((await log.append([event('b')])).map((e) => e.id)).toEqual(['b'])
  })

  it('refuses a FIFO in place of the log at once (no blocking open)', async () => {
    await mkdir(join(dir, 'pm'), { recursive: true })
    await execa('mkfifo', [file])
    const log = open()
    await expect(log.append([event('a')])).rejects.toThrow(/FIFO/)
    await expect(log.readAll()).rejects.toThrow(/FIFO/)
  })
})

/**
 * Append from a separate Node process: `count` batches of `[shared-i, <prefix>-i]`, so two children
 * (or a child and the test) race on the same ids through the file lock.
 */
async function appendFromChild(prefix: string, count: number): Promise<void> {
  const script = `
    const { createEventLog } = await import(${JSON.stringify(EVENT_LOG_MODULE)})
    const log = createEventLog(${JSON.stringify(file)}, { clock: () => ${NOW} })
    const at = new Date(${NOW - HOUR}).toISOString()
    const ev = (id) => ({ id, timestamp: at, type: 'commit', project: 'apollo', details: { sha: id } })
    for (let i = 0; i < ${count}; i++) await log.append([ev('shared-' + i), ev(${JSON.stringify(prefix)} + '-' + i)])
    await log.close()
  `
  await execa(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
  })
}
