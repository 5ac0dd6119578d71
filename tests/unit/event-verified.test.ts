/**
 * The verified prefix of the event log (core/event-verified.ts): which lines count as exact, that lines a
 * marker vouches for are read as JSON alone and the rest validated, and a pin of the event schema the
 * marker's version stands for.
 */
import { describe, expect, it } from 'vitest'
import { schemaFingerprint } from '../support/schema-fingerprint.ts'
import { parseLogText, serializeEvent } from '../../electron/engine/core/event-line.ts'
import {
  exactEventOf,
  exactPrefixBytes,
  parseVerifiedLog,
  VERIFIED_EVENT_LINES_VERSION,
} from '../../electron/engine/core/event-verified.ts'
import { engineEventSchema, type EngineEvent } from '../../shared/schemas/event.ts'

const commit = (id: string): EngineEvent => ({
  id,
  timestamp: '2026-11-24T10:00:00.000Z',
  type: 'commit',
  project: 'apollo',
  details: { sha: id, message: `commit ${id}`, branch: 'main' },
})
const line = (event: EngineEvent) => serializeEvent(event)

describe('exactEventOf', () => {
  it('takes a line Navi writes', () => {
    expect(exactEventOf(line(commit('a')))).toEqual(commit('a'))
  })

  it.each([
    ['a field the schema defaults is missing', { ...commit('b'), details: { sha: 'b' } }],
    ['a field the schema drops is there', { ...commit('c'), extra: 1 }],
    ['a value of the wrong type', { ...commit('d'), details: { ...commit('d').details, sha: 4 } }],
    ['a time that is no date', { ...commit('e'), timestamp: 'yesterday' }],
  ])('refuses a line where %s', (_name, value) => {
    expect(exactEventOf(JSON.stringify(value))).toBeNull()
  })
})

describe('parseVerifiedLog', () => {
  const a = line(commit('a'))
  const b = line(commit('b'))
  const bytes = (text: string) => Buffer.from(text, 'utf8')

  it('reads the vouched lines as they are and validates the rest', () => {
    const loose = JSON.stringify({ ...commit('c'), details: { sha: 'c' } })
    const text = `${a}\n${b}\n${loose}\nnot json\n`
    const vouched = Buffer.byteLength(`${a}\n${b}\n`)
    const read = parseVerifiedLog(bytes(text), vouched)
    // The unvouched line gets the schema's defaults, as every line did before.
    expect(read).toEqual(parseLogText(text))
    expect(read.events.map((e) => e.id)).toEqual(['a', 'b', 'c'])
    expect(read.corrupt).toBe(1)
  })

  it('counts a vouched line that is not JSON as corrupt instead of failing', () => {
    const read = parseVerifiedLog(
      bytes(`${a}\n{broken\n${b}\n`),
      Buffer.byteLength(`${a}\n{broken\n`),
    )
    expect(read.events.map((e) => e.id)).toEqual(['a', 'b'])
    expect(read.corrupt).toBe(1)
  })

  it('without a vouched prefix, is parseLogText', () => {
    const text = `${a}\n{"id":"x"}\n${b}`
    expect(parseVerifiedLog(bytes(text), 0)).toEqual(parseLogText(text))
  })
})

describe('exactPrefixBytes', () => {
  it('stops at the first line that is not exact', () => {
    const loose = JSON.stringify({ ...commit('c'), details: { sha: 'c' } })
    const lines = [line(commit('a')), line(commit('ü')), loose, line(commit('d'))]
    expect(exactPrefixBytes(lines)).toBe(Buffer.byteLength(`${lines[0]}\n${lines[1]}\n`))
  })
})

describe('VERIFIED_EVENT_LINES_VERSION', () => {
  it('is bumped with the event schema (update both pins when it changes what a line reads as)', () => {
    const fingerprint = schemaFingerprint(engineEventSchema)
    expect({ version: VERIFIED_EVENT_LINES_VERSION, fingerprint }).toEqual({
      version: 1,
      fingerprint: '1da062466356efa6',
    })
  })
})
