/**
 * `events.verified` beside the event log: appends and prunes keep it vouching for exactly the lines Navi
 * wrote, two writers keep it whole, and a reader believes it only for bytes that still hash as it says (an
 * edited line is validated again, and refused when it is no event), or, unhashed, for a log it names as the
 * log still stands (identity, size, modification and change times).
 */
import { type Stats, statSync } from 'node:fs'
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { EventLog } from '../../electron/engine/adapters/event-log.ts'
import { useEventLogFile } from '../support/event-log-file.ts'
import { waitUntil } from '../support/wait.ts'
import {
  verifiedBytesOf,
  verifiedMarkerOf,
} from '../../electron/engine/adapters/event-log-verified.ts'
import { serializeEvent } from '../../electron/engine/core/event-line.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'

const NOW = Date.parse('2026-11-24T12:00:00Z')

const event = (id: string, minutesAgo = 30): EngineEvent => ({
  id,
  timestamp: new Date(NOW - minutesAgo * 60_000).toISOString(),
  type: 'commit',
  project: 'apollo',
  details: { sha: id, message: `commit ${id}`, branch: 'main' },
})

const logs = useEventLogFile('navi-event-verified-', NOW)
const open = (): EventLog => logs.open()
const vouched = async () => verifiedBytesOf(verifiedMarkerOf(logs.file), await readFile(logs.file))
const size = async () => (await readFile(logs.file)).length

describe('events.verified', () => {
  it('vouches for every line appended, by one writer or two taking turns', async () => {
    const one = open()
    const two = open()
    await one.append([event('a'), event('b')])
    expect(await vouched()).toBe(await size())
    await two.append([event('c')])
    await one.append([event('d')])
    expect(await vouched()).toBe(await size())
    expect((await open().readAll()).events.map((e) => e.id)).toEqual(['a', 'b', 'c', 'd'])
  })

  it('stops vouching where a line it did not write begins, and goes on after a prune', async () => {
    const log = open()
    await log.append([event('a')])
    const before = await size()
    // A hand-written line without the fields the schema defaults: valid, but not exact.
    await writeFile(logs.file, `${JSON.stringify({ ...event('b'), details: { sha: 'b' } })}\n`, {
      flag: 'a',
    })
    await log.append([event('c')])
    expect(await vouched()).toBe(before)
    const read = await open().readAll()
    expect(read.events.map((e) => e.id)).toEqual(['a', 'b', 'c'])
    // The unvouched line still gets the schema's defaults.
    expect(read.events[1]?.details).toMatchObject({ sha: 'b', message: '', branch: null })

    await log.prune(NOW)
    expect(await vouched()).toBe(before)
  })

  it('is believed only for bytes that still hash as it says', async () => {
    const log = open()
    await log.append([event('a'), event('b')])
    const text = await readFile(logs.file, 'utf8')
    // Same length, the second line made no event: a reader must not take it as one.
    await writeFile(
      logs.file,
      text.replace(
        '"type":"commit","project":"apollo","details":{"sha":"b"',
        '"type":"commit","project":"apollo","details":{"sha":true',
      ),
    )
    expect(await vouched()).toBe(0)
    const read = await open().readAll()
    expect(read.events.map((e) => e.id)).toEqual(['a'])
    expect(read.corrupt).toBe(1)
  })

  it('is written by the prune for a log an older Navi wrote, over its exact lines', async () => {
    await mkdir(join(logs.dir, 'pm'), { recursive: true })
    const exact = [event('a'), event('b')].map(serializeEvent)
    const loose = JSON.stringify({ ...event('c'), details: { sha: 'c' } })
    await writeFile(logs.file, `${[...exact, loose].join('\n')}\n`)
    expect(await vouched()).toBe(0)
    await open().prune(NOW)
    expect(await vouched()).toBe(Buffer.byteLength(`${exact.join('\n')}\n`))
    expect((await open().readAll()).events.map((e) => e.id)).toEqual(['a', 'b', 'c'])
  })

  it('follows a prune that rewrites the log', async () => {
    const log = open()
    await log.append([event('old', 25 * 60), event('new')])
    expect((await log.prune(NOW)).dropped).toBe(1)
    expect(await vouched()).toBe(await size())
    await log.append([event('later')])
    expect(await vouched()).toBe(await size())
    expect((await open().readAll()).events.map((e) => e.id)).toEqual(['new', 'later'])
  })

  it('is believed unhashed for the log it names as it still stands, and hashed once it was written', async () => {
    const log = open()
    await log.append([event('a'), event('b')])
    const marker = verifiedMarkerOf(logs.file)
    const body = JSON.parse(await readFile(marker, 'utf8')) as Record<string, unknown>
    expect(body.log).toMatchObject({ size: await size() })
    // A wrong hash: only a reader that does not hash believes it.
    await writeFile(marker, `${JSON.stringify({ ...body, sha256: '0'.repeat(64) })}\n`)
    const bytes = await readFile(logs.file)
    expect(verifiedBytesOf(marker, bytes, await stat(logs.file))).toBe(bytes.length)
    expect(verifiedBytesOf(marker, bytes)).toBe(0)

    // The same bytes written again once the clock the file system stamps with has ticked: the hash
    // decides, and it is wrong.
    const before = await stat(logs.file)
    const probe = `${logs.file}.tick`
    await waitUntil(
      async () => {
        await writeFile(probe, 'tick')
        return statSync(probe).ctimeMs > before.ctimeMs
      },
      5_000,
      () => 'the file system clock did not tick',
    )
    await writeFile(logs.file, bytes)
    expect(verifiedBytesOf(marker, bytes, await stat(logs.file))).toBe(0)
    // A modification time set back (utimes) does not set back the change time, which alone differs.
    const changedOnly = Object.assign(
      Object.create(Object.getPrototypeOf(before)) as Stats,
      before,
      {
        ctimeMs: before.ctimeMs + 1,
      },
    )
    expect(verifiedBytesOf(marker, bytes, before)).toBe(bytes.length)
    expect(verifiedBytesOf(marker, bytes, changedOnly)).toBe(0)
  })
})
