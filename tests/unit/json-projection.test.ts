import { describe, expect, it } from 'vitest'
import { projectJson } from '../../electron/engine/core/json-projection.ts'
import {
  compileProjection,
  type Projection,
} from '../../electron/engine/core/json-projection-spec.ts'

const KEEP_ALL = compileProjection('keep')

/** Projects `text` (as bytes, inside a larger buffer so offsets are exercised). */
function project(text: string, projection: Projection | ReturnType<typeof compileProjection>) {
  const compiled =
    typeof projection === 'object' && 'root' in projection
      ? projection
      : compileProjection(projection as Projection)
  const padded = Buffer.from(`xx\n${text}\nyy`, 'utf8')
  const start = 3
  return projectJson(padded, start, padded.length - 3, compiled)
}

/** What a projection should give, computed from JSON.parse's value: the reference the scanner must match. */
function reference(value: unknown, projection: Projection): unknown {
  if (projection === 'keep') return value
  if (Array.isArray(value)) {
    return projection.items === undefined
      ? []
      : value.map((v) => reference(v, projection.items as Projection))
  }
  if (value !== null && typeof value === 'object') {
    const fields = projection.fields ?? {}
    if (Object.keys(fields).length === 0) return {}
    const out: Record<string, unknown> = {}
    for (const [key, child] of Object.entries(value)) {
      if (Object.hasOwn(fields, key)) out[key] = reference(child, fields[key] as Projection)
    }
    return out
  }
  if (typeof value === 'string') return projection.strings ? value : ''
  return value
}

describe('projectJson with everything kept', () => {
  it.each([
    '{}',
    '[]',
    '{"a":1,"b":[true,false,null],"c":{"d":"e"}}',
    '  { "spaced" :\t[ 1 , 2 ] }  ',
    '"a string"',
    '-12.5e+3',
    '0',
    '{"esc":"quote \\" backslash \\\\ slash \\/ \\b\\f\\n\\r\\t \\u00e9 \\ud83d\\ude00"}',
    '{"ends with backslash":"\\\\","then":"\\\\\\""}',
    '{"unicode":"ünï € 😀","中文":"键"}',
    '{"dup":1,"dup":2}',
    '{"__proto__":{"polluted":true}}',
    `${'['.repeat(80)}1${']'.repeat(80)}`,
    `{"deep":${'['.repeat(200)}${']'.repeat(200)}}`,
    '{"big":123456789012345678901234567890,"neg":-0,"frac":0.000001,"exp":1E-7}',
  ])('%s equals JSON.parse', (text) => {
    expect(project(text, KEEP_ALL)).toEqual(JSON.parse(text))
  })
})

describe('projectJson refuses what JSON.parse refuses', () => {
  it.each([
    ['a truncated object', '{"a":1'],
    ['a truncated string', '{"a":"abc'],
    ['a string cut right after a backslash', '{"a":"abc\\"}'],
    ['trailing text', '{"a":1}x'],
    ['two values', '{"a":1}{"b":2}'],
    ['a mismatched bracket', '{"a":[1}'],
    ['a mismatched bracket in a skipped part', '{"skip":{"x":[1}}'],
    ['a truncated skipped part', '{"skip":{"x":[1,2'],
    ['a deep skipped part left open', `{"skip":${'['.repeat(200)}${']'.repeat(199)}}`],
    ['a bad literal', '{"a":tru}'],
    ['a leading zero', '{"a":01}'],
    ['a lone minus', '{"a":-}'],
    ['a fraction without digits', '{"a":1.}'],
    ['a missing colon', '{"a" 1}'],
    ['a missing comma', '{"a":1 "b":2}'],
    ['an unquoted key', '{a:1}'],
    ['nothing', ''],
    ['only spaces', '   '],
  ])('%s', (_name, text) => {
    expect(() => JSON.parse(text)).toThrow()
    expect(() => project(text, { fields: { a: 'keep' } })).toThrow(SyntaxError)
  })
})

describe('projectJson keeps only the named fields', () => {
  const projection: Projection = {
    fields: {
      type: 'keep',
      message: {
        fields: {
          id: 'keep',
          content: { strings: true, items: { fields: { type: 'keep', text: 'keep' } } },
        },
      },
      result: { fields: { agentId: 'keep' } },
    },
  }

  it('drops unnamed fields and keeps the shape the fold checks', () => {
    const line = {
      type: 'user',
      uuid: 'drop me',
      message: {
        id: 'm1',
        role: 'drop',
        content: [
          { type: 'tool_result', tool_use_id: 't', content: 'x'.repeat(5000) },
          { type: 'text', text: 'kept text' },
          'a bare string',
        ],
      },
      result: 'an error string where an object is expected',
    }
    const out = project(JSON.stringify(line), projection)
    expect(out).toEqual(reference(line, projection))
    expect(out).toEqual({
      type: 'user',
      message: {
        id: 'm1',
        content: [{ type: 'tool_result' }, { type: 'text', text: 'kept text' }, ''],
      },
      result: '',
    })
  })

  it('keeps a string content whole where the node keeps strings', () => {
    const line = { type: 'user', message: { content: 'a prompt "quoted" \\ and 😀' } }
    expect(project(JSON.stringify(line), projection)).toEqual(line)
  })

  it('reads a kept string that repeats from line to line as JSON.parse does when it changes', () => {
    const compiled = compileProjection({ fields: { cwd: 'keep', at: 'keep' } })
    // Same lengths with one byte changed, non-ASCII and escaped values between ASCII ones (a backslash
    // then a backspace: the same three bytes as written), and a field (`at`) whose values never
    // repeat, long enough for it to stop being compared.
    const values = [
      '/a/one',
      '/a/one',
      '/a/two',
      '/a/é',
      '/a/é',
      '/a/"q"',
      '/a/one',
      '/a/\\b',
      '/a/\b',
    ]
    for (let i = 0; i < 200; i++) {
      const line = {
        cwd: values[i % values.length],
        at: `2026-11-26T10:00:${String(i).padStart(3, '0')}Z`,
      }
      expect(project(JSON.stringify(line), compiled)).toEqual(line)
    }
  })

  it('finds a key written with escapes, as JSON.parse does', () => {
    expect(project('{"\\u0074ype":"user","t\\u0079pe2":1}', projection)).toEqual({ type: 'user' })
  })

  it('never assigns __proto__ unless it is named, and then as an own field', () => {
    const out = project('{"__proto__":{"polluted":true},"type":"x"}', projection) as Record<
      string,
      unknown
    >
    expect(out).toEqual({ type: 'x' })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('matches the reference on generated values and projections', () => {
    let seed = 42
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    const keys = ['a', 'b', 'type', 'text', 'content', 'id', 'ü', 'x"y', 'back\\slash']
    const strings = [
      '',
      'plain',
      'with "quotes"',
      'back\\slash\\',
      'line\nbreak',
      'ünï €😀',
      '\\"',
      'x'.repeat(300),
    ]
    const value = (depth: number): unknown => {
      const r = random()
      if (depth > 3 || r < 0.3) {
        const s = random()
        if (s < 0.4) return strings[Math.floor(random() * strings.length)]
        if (s < 0.6)
          return (Math.floor(random() * 1e6) * (random() < 0.2 ? -1 : 1)) / (random() < 0.3 ? 8 : 1)
        if (s < 0.8) return random() < 0.5
        return null
      }
      if (r < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1))
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 5) }, () => [
          keys[Math.floor(random() * keys.length)],
          value(depth + 1),
        ]),
      )
    }
    const projectionOf = (depth: number): Projection => {
      if (depth > 2 || random() < 0.25) return 'keep'
      const fields: Record<string, Projection> = {}
      for (const key of keys) if (random() < 0.4) fields[key] = projectionOf(depth + 1)
      return {
        fields,
        ...(random() < 0.5 ? { items: projectionOf(depth + 1) } : {}),
        strings: random() < 0.5,
      }
    }
    for (let i = 0; i < 2000; i++) {
      const v = value(0)
      const p = projectionOf(0)
      const text = JSON.stringify(v, null, random() < 0.2 ? 1 : undefined)
      expect(project(text, p)).toEqual(reference(JSON.parse(text), p))
      // Every strict prefix of a composite is malformed, for both readers.
      if (text.length > 1 && (text.startsWith('{') || text.startsWith('['))) {
        const cut = text.slice(0, 1 + Math.floor(random() * (text.length - 1))).trimEnd()
        expect(() => JSON.parse(cut)).toThrow()
        expect(() => project(cut, p)).toThrow(SyntaxError)
      }
    }
  })
})
