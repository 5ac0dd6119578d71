import { appendFile, mkdtemp, rename, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createJsonlTail } from '../../electron/engine/adapters/jsonl-tail.ts'

let dir: string
let file: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'navi-jsonl-tail-'))
  file = join(dir, 'session.jsonl')
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const jsonl = (...values: unknown[]) => values.map((v) => `${JSON.stringify(v)}\n`).join('')

describe('createJsonlTail', () => {
  it('reads only the bytes appended since the last call', async () => {
    const first = jsonl({ n: 1 }, { n: 2 })
    await writeFile(file, first)
    const tail = createJsonlTail(file)
    const r1 = await tail.readNew()
    expect(r1).toEqual({
      lines: [{ n: 1 }, { n: 2 }],
      corrupt: 0,
      reset: false,
      bytesRead: first.length,
    })
    expect(tail.offset).toBe(first.length)

    const again = await tail.readNew()
    expect(again).toEqual({ lines: [], corrupt: 0, reset: false, bytesRead: 0 })

    const second = jsonl({ n: 3 })
    await appendFile(file, second)
    const r2 = await tail.readNew()
    expect(r2.lines).toEqual([{ n: 3 }])
    expect(r2.bytesRead).toBe(second.length)
    expect(tail.offset).toBe(first.length + second.length)
  })

  it('keeps a half-written last line until its newline arrives', async () => {
    await writeFile(file, '{"n":1}\n{"n":')
    const tail = createJsonlTail(file)
    expect((await tail.readNew()).lines).toEqual([{ n: 1 }])
    await appendFile(file, '2,"s":"ü')
    expect(await tail.readNew()).toMatchObject({ lines: [], corrupt: 0 })
    await appendFile(file, '"}\n')
    expect(await tail.readNew()).toMatchObject({
      lines: [{ n: 2, s: 'ü' }],
      corrupt: 0,
      reset: false,
    })
  })

  it('resumes from a position: says it back before any read, then reads only what came after it', async () => {
    const first = jsonl({ n: 1 }, { n: 2 })
    await writeFile(file, `${first}{"n":`)
    const reader = createJsonlTail(file)
    await reader.readNew()
    const position = reader.position()
    // The half-written line is not part of the position: a resumed tail reads it again, whole.
    expect(position?.offset).toBe(first.length)

    const resumed = createJsonlTail(file, undefined, position)
    expect(resumed.position()).toEqual(position)
    await appendFile(file, '3}\n')
    expect(await resumed.readNew()).toMatchObject({ lines: [{ n: 3 }], corrupt: 0, reset: false })
    expect(resumed.position()?.offset).toBe(first.length + '{"n":3}\n'.length)
  })

  it('starts over when the file is truncated', async () => {
    await writeFile(file, jsonl({ n: 1 }, { n: 2 }, { n: 3 }))
    const tail = createJsonlTail(file)
    await tail.readNew()
    await truncate(file, 0)
    await appendFile(file, jsonl({ fresh: true }))
    const result = await tail.readNew()
    expect(result).toMatchObject({ lines: [{ fresh: true }], reset: true })
    expect(tail.offset).toBe(jsonl({ fresh: true }).length)
  })

  it('starts over when the file is replaced by a rename, even if it is larger', async () => {
    await writeFile(file, jsonl({ old: 1 }))
    const tail = createJsonlTail(file)
    await tail.readNew()
    const replacement = join(dir, 'next.jsonl')
    await writeFile(replacement, jsonl({ new: 1 }, { new: 2 }, { new: 3 }))
    await rename(replacement, file)
    const result = await tail.readNew()
    expect(result).toMatchObject({ lines: [{ new: 1 }, { new: 2 }, { new: 3 }], reset: true })
  })

  it('skips and counts corrupt lines', async () => {
    await writeFile(file, `{"ok":1}\n{not json\n\n[1,2\n{"ok":2}\n`)
    const result = await createJsonlTail(file).readNew()
    expect(result.lines).toEqual([{ ok: 1 }, { ok: 2 }])
    expect(result.corrupt).toBe(2)
  })

  it('reads a 5 MB single line in bounded chunks, also when it arrives in pieces', async () => {
    const big = { text: 'x'.repeat(5 * 1024 * 1024) }
    const line = JSON.stringify(big)
    const tail = createJsonlTail(file, 256 * 1024)
    await writeFile(file, line.slice(0, 3_000_000))
    expect((await tail.readNew()).lines).toEqual([])
    await appendFile(file, `${line.slice(3_000_000)}\n{"after":true}\n`)
    const result = await tail.readNew()
    expect(result.lines).toHaveLength(2)
    expect((result.lines[0] as { text: string }).text.length).toBe(big.text.length)
    expect(result.lines[1]).toEqual({ after: true })
    expect(result.bytesRead).toBe(line.length + 1 + '{"after":true}\n'.length - 3_000_000)
    expect(tail.offset).toBe(line.length + 1 + '{"after":true}\n'.length)
  })

  it('returns nothing for a missing file and picks it up once it exists', async () => {
    const tail = createJsonlTail(file)
    expect(await tail.readNew()).toEqual({ lines: [], corrupt: 0, reset: false, bytesRead: 0 })
    await writeFile(file, jsonl({ n: 1 }))
    expect((await tail.readNew()).lines).toEqual([{ n: 1 }])
    await rm(file)
    expect(await tail.readNew()).toMatchObject({ lines: [], reset: true })
    expect(tail.offset).toBe(0)
  })

  it('streams lines to onLine after onReset', async () => {
    await writeFile(file, jsonl({ n: 1 }))
    const tail = createJsonlTail(file)
    await tail.readNew()
    await writeFile(join(dir, 'n'), jsonl({ n: 9 }))
    await rename(join(dir, 'n'), file)
    const events: unknown[] = []
    const result = await tail.readNew({
      onReset: () => events.push('reset'),
      onLine: (line) => events.push(line),
    })
    expect(events).toEqual(['reset', { n: 9 }])
    expect(result.lines).toEqual([])
  })
})
