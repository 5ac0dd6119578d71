import { describe, expect, it } from 'vitest'
import { asciiJson } from '../../electron/engine/core/ascii-json.ts'

describe('asciiJson', () => {
  it('writes every non-ASCII character as an escape, and parses back to the same value', () => {
    const value = {
      prompt: 'fix the … in “quotes” — café, 日本語, emoji 🚀, RTL \u202e, zero-width \u200b',
      nested: [{ clé: 'ü' }, 'plain ascii', 42, null],
    }
    const json = asciiJson(JSON.stringify(value))
    expect([...json].every((c) => c.charCodeAt(0) < 0x80)).toBe(true)
    expect(JSON.parse(json)).toEqual(value)
    expect(json).toContain('\\u2026')
    expect(json).toContain('\\ud83d\\ude80')
  })

  it('leaves ASCII JSON as it is, escapes included', () => {
    const json = JSON.stringify({ a: 'line\nbreak "quoted" \\ back', b: [1, 2] })
    expect(asciiJson(json)).toBe(json)
  })
})
