import { describe, expect, it } from 'vitest'
import { createLineSplitter } from '../../electron/engine/core/line-splitter.ts'

const bytes = (text: string) => Buffer.from(text, 'utf8')

describe('createLineSplitter', () => {
  it('returns complete lines and keeps the unfinished last line pending', () => {
    const splitter = createLineSplitter()
    expect(splitter.push(bytes('{"a":1}\n{"b":2}\n{"c"'))).toEqual(['{"a":1}', '{"b":2}'])
    expect(splitter.pendingBytes).toBe(4)
    expect(splitter.push(bytes(':3}'))).toEqual([])
    expect(splitter.pendingBytes).toBe(7)
    expect(splitter.push(bytes('\n'))).toEqual(['{"c":3}'])
    expect(splitter.pendingBytes).toBe(0)
  })

  it('joins a line that arrives over many chunks, byte by byte', () => {
    const splitter = createLineSplitter()
    const line = 'x'.repeat(1000)
    const out: string[] = []
    for (const byte of bytes(`${line}\nnext\n`)) out.push(...splitter.push(Uint8Array.of(byte)))
    expect(out).toEqual([line, 'next'])
  })

  it('decodes a multi-byte character cut between two chunks only once complete', () => {
    const splitter = createLineSplitter()
    const encoded = bytes('{"t":"ünï €"}\n')
    const cut = encoded.indexOf(0xe2) + 1 // inside the 3-byte euro sign
    expect(splitter.push(encoded.subarray(0, cut))).toEqual([])
    expect(splitter.push(encoded.subarray(cut))).toEqual(['{"t":"ünï €"}'])
  })

  it('drops blank lines and a trailing carriage return', () => {
    const splitter = createLineSplitter()
    expect(splitter.push(bytes('a\r\n\n   \nb\n'))).toEqual(['a', 'b'])
  })

  it('does not alias the caller buffer that is reused for the next chunk', () => {
    const splitter = createLineSplitter()
    const buffer = Buffer.from('abc')
    splitter.push(buffer)
    buffer.write('zzz')
    expect(splitter.push(bytes('d\n'))).toEqual(['abcd'])
  })

  it('forgets the pending bytes on reset', () => {
    const splitter = createLineSplitter()
    splitter.push(bytes('half'))
    splitter.reset()
    expect(splitter.pendingBytes).toBe(0)
    expect(splitter.push(bytes('whole\n'))).toEqual(['whole'])
  })

  it.each([
    ['in one chunk', ['ok1\n' + 'x'.repeat(20) + '\nok2\n']],
    [
      'across chunks, never held whole',
      ['ok1\n' + 'x'.repeat(8), 'x'.repeat(8), 'x'.repeat(4) + '\nok2\n'],
    ],
    ['completing a pending line', ['ok1\nxxxxxxxx', 'x'.repeat(12) + '\nok2\n']],
  ])('skips and counts a line over the cap %s', (_name, chunks) => {
    const splitter = createLineSplitter(16)
    const lines = chunks.flatMap((chunk) => splitter.push(bytes(chunk)))
    expect(lines).toEqual(['ok1', 'ok2'])
    expect(splitter.oversized).toBe(1)
    expect(splitter.pendingBytes).toBe(0)
  })

  it('keeps a line exactly at the cap', () => {
    const splitter = createLineSplitter(16)
    expect(splitter.push(bytes(`${'y'.repeat(16)}\n`))).toEqual(['y'.repeat(16)])
    expect(splitter.oversized).toBe(0)
  })
})
