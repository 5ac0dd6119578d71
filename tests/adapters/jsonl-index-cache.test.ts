/**
 * The on-disk transcript index (jsonl-index-cache.ts) against real files in a temp dir: written ASCII,
 * read back trusted and equal, and an index an older Navi wrote (raw UTF-8) is still trusted.
 */
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  loadJsonlIndex,
  saveJsonlIndex,
  type IndexedFile,
} from '../../electron/engine/adapters/jsonl-index-cache.ts'
import { useTempDirs } from '../support/temp-paths.ts'
import { asciiJson } from '../../electron/engine/core/ascii-json.ts'

const tempDir = useTempDirs('navi-index-')

function indexFile(): string {
  return join(tempDir(), 'cache', 'claude-transcripts.json')
}

const entry = (path: string, prompt: string): IndexedFile => ({
  path,
  dev: 1,
  ino: 2,
  size: 300,
  mtimeMs: 1_700_000_000_000,
  offset: 300,
  summary: { lastPrompt: prompt, cwd: '/home/zoë/проект' },
})

describe('the transcript index file', () => {
  it('is written as ASCII and read back trusted, every value as it was', async () => {
    const file = indexFile()
    const files = [entry('/t/a.jsonl', 'fix the … in “quotes”, 🚀'), entry('/t/b.jsonl', 'plain')]
    await saveJsonlIndex(file, 7, files)
    const bytes = readFileSync(file)
    expect(bytes.every((b) => b < 0x80)).toBe(true)
    const loaded = await loadJsonlIndex(file, 7)
    expect(loaded.trusted).toBe(true)
    expect([...loaded.files.values()]).toEqual(files)
  })

  it('holds, after its header, one line per file: its JSON text, non-ASCII escaped, summary last', async () => {
    const file = indexFile()
    const files = [
      entry('/t/a.jsonl', 'plain'),
      entry('/t/b.jsonl', 'a … and a \u202e'),
      entry('/t/c.jsonl', 'plain again'),
    ]
    await saveJsonlIndex(file, 7, files)
    const text = readFileSync(file, 'latin1')
    const body = text.slice(text.indexOf('\n') + 1)
    expect(body).toBe(files.map((f) => `${asciiJson(JSON.stringify(f))}\n`).join(''))
    const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as { sha256: string }
    expect(header.sha256).toBe(createHash('sha256').update(body).digest('hex'))
  })

  it('gives each summary of a trusted index as its text, to be written again as it is', async () => {
    const file = indexFile()
    const files = [entry('/t/a.jsonl', 'fix the … in “quotes”'), entry('/t/b.jsonl', 'plain')]
    await saveJsonlIndex(file, 7, files)
    const loaded = await loadJsonlIndex(file, 7)
    expect([...loaded.summaryTexts]).toEqual(
      files.map((f) => [f.path, asciiJson(JSON.stringify(f.summary))]),
    )
    // Written again from those texts: the same bytes.
    const before = readFileSync(file, 'latin1').split('\n').slice(1)
    await saveJsonlIndex(
      file,
      7,
      files.map(({ summary: _summary, ...identity }) => ({
        ...identity,
        summaryJson: loaded.summaryTexts.get(identity.path) ?? '',
      })),
    )
    expect(readFileSync(file, 'latin1').split('\n').slice(1)).toEqual(before)
    // An index that is not trusted gives no texts: its summaries are encoded again.
    writeFileSync(
      file,
      readFileSync(file, 'latin1').replace(/"sha256":"[0-9a-f]+"/, `"sha256":"${'0'.repeat(64)}"`),
      'latin1',
    )
    expect((await loadJsonlIndex(file, 7)).summaryTexts.size).toBe(0)
    // Nor does one trusted but not ASCII (Navi writes it ASCII): its texts would not be written as read.
    const utf8 = files.map((f) => `${JSON.stringify(f)}\n`).join('')
    const sha256 = createHash('sha256').update(utf8).digest('hex')
    const header = JSON.stringify({ format: 'navi-jsonl-index/3', summaryVersion: 7, sha256 })
    writeFileSync(file, `${header}\n${utf8}`)
    const fromUtf8 = await loadJsonlIndex(file, 7)
    expect(fromUtf8.trusted).toBe(true)
    expect([...fromUtf8.files.values()]).toEqual(files)
    expect(fromUtf8.summaryTexts.size).toBe(0)
  })

  it('reads an index of the array layout (an older Navi), and skips only a broken line of this one', async () => {
    const file = indexFile()
    await saveJsonlIndex(file, 7, [])
    const files = [entry('/t/a.jsonl', 'plain'), entry('/t/b.jsonl', 'other')]
    const array = asciiJson(JSON.stringify(files))
    const header = (format: string, body: string) =>
      JSON.stringify({
        format,
        summaryVersion: 7,
        sha256: createHash('sha256').update(body).digest('hex'),
      })
    writeFileSync(file, `${header('navi-jsonl-index/2', array)}\n${array}`)
    const old = await loadJsonlIndex(file, 7)
    expect(old.trusted).toBe(true)
    expect([...old.files.values()]).toEqual(files)
    expect(old.summaryTexts.size).toBe(0)
    const lines = `${asciiJson(JSON.stringify(files[0]))}\n{"path": broken\n`
    writeFileSync(file, `${header('navi-jsonl-index/3', 'not these bytes')}\n${lines}`)
    const partly = await loadJsonlIndex(file, 7)
    expect(partly.trusted).toBe(false)
    expect([...partly.files.values()]).toEqual([files[0]])
  })

  it('is whole when two saves and a load of one index overlap (two engines of one process)', async () => {
    const file = indexFile()
    const many = (tag: string, n: number) =>
      Array.from({ length: n }, (_, i) =>
        entry(`/t/${tag}-${String(i)}.jsonl`, `${tag} … ${'x'.repeat(i)}`),
      )
    const first = many('first', 400)
    const second = many('second', 300)
    await saveJsonlIndex(file, 7, first)
    const [, loaded] = await Promise.all([
      saveJsonlIndex(file, 7, second),
      loadJsonlIndex(file, 7),
      saveJsonlIndex(file, 7, first),
    ])
    // The load saw one whole index (the first, or a save's), never a mix.
    expect(loaded.trusted).toBe(true)
    expect([first.length, second.length]).toContain(loaded.files.size)
    const after = await loadJsonlIndex(file, 7)
    expect(after.trusted).toBe(true)
    const paths = [...after.files.keys()]
    expect(
      paths.every((p) => p.startsWith('/t/first-')) ||
        paths.every((p) => p.startsWith('/t/second-')),
    ).toBe(true)
  })

  it('still trusts an index written with raw UTF-8 (by an older Navi)', async () => {
    const file = indexFile()
    await saveJsonlIndex(file, 7, [])
    const files = [entry('/t/a.jsonl', 'café …')]
    const body = JSON.stringify(files)
    const header = JSON.stringify({
      format: 'navi-jsonl-index/2',
      summaryVersion: 7,
      sha256: createHash('sha256').update(body).digest('hex'),
    })
    writeFileSync(file, `${header}\n${body}`)
    const loaded = await loadJsonlIndex(file, 7)
    expect(loaded.trusted).toBe(true)
    expect(loaded.stamped).toBe(false)
    expect([...loaded.files.values()]).toEqual(files)
  })

  it('carries its stamp, believed without hashing while the file keeps it, else hashed', async () => {
    const file = indexFile()
    const files = [entry('/t/a.jsonl', 'plain')]
    await saveJsonlIndex(file, 7, files)
    const text = readFileSync(file, 'latin1')
    const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as {
      stamp: number
      sha256: string
    }
    expect(Math.round(statSync(file).mtimeMs)).toBe(header.stamp)
    expect(await loadJsonlIndex(file, 7)).toMatchObject({ trusted: true, stamped: true })

    // The same file with a wrong hash, its time put back to the stamp: believed, so not hashed…
    const wrong = text.replace(header.sha256, '0'.repeat(64))
    writeFileSync(file, wrong, 'latin1')
    utimesSync(file, header.stamp / 1000, header.stamp / 1000)
    const believed = await loadJsonlIndex(file, 7)
    expect(believed).toMatchObject({ trusted: true, stamped: true })
    expect([...believed.files.values()]).toEqual(files)
    // …while any time but the stamp (every edit moves it) has the hash decide.
    utimesSync(file, header.stamp / 1000 + 1, header.stamp / 1000 + 1)
    expect(await loadJsonlIndex(file, 7)).toMatchObject({ trusted: false, stamped: false })
    writeFileSync(file, text, 'latin1')
    expect(await loadJsonlIndex(file, 7)).toMatchObject({ trusted: true, stamped: false })
  })
})
