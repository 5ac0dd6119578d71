import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { lazySchema } from '../../shared/schemas/lazy-schema.ts'

describe('lazySchema', () => {
  it('builds nothing until the schema is used, then builds it once', () => {
    let builds = 0
    const point = lazySchema(() => {
      builds += 1
      return z.object({ x: z.number(), y: z.number().default(0) })
    })
    expect(builds).toBe(0)
    expect(point.parse({ x: 1 })).toEqual({ x: 1, y: 0 })
    expect(point.safeParse({ x: 'a' }).success).toBe(false)
    expect(builds).toBe(1)
  })

  it('is the real schema to zod: embedded, extended, instanceof, discriminated', () => {
    const inner = lazySchema(() => z.object({ kind: z.literal('a'), n: z.number().int() }))
    const other = lazySchema(() => z.object({ kind: z.literal('b') }))
    const union = z.discriminatedUnion('kind', [inner, other])
    expect(union.parse({ kind: 'a', n: 2 })).toEqual({ kind: 'a', n: 2 })
    expect(() => union.parse({ kind: 'a', n: 2.5 })).toThrow()
    expect(z.array(inner).parse([{ kind: 'a', n: 1 }])).toHaveLength(1)
    expect(inner.extend({ m: z.string() }).parse({ kind: 'a', n: 1, m: 'x' })).toEqual({
      kind: 'a',
      n: 1,
      m: 'x',
    })
    expect(inner instanceof z.ZodObject).toBe(true)
    expect(Object.keys(inner.shape)).toEqual(['kind', 'n'])
  })

  it('gives zod JSON Schema the same document as the schema built eagerly', () => {
    const build = () => z.object({ a: z.string().min(1), b: z.array(z.number()).default([]) })
    expect(z.toJSONSchema(z.object({ p: lazySchema(build) }))).toEqual(
      z.toJSONSchema(z.object({ p: build() })),
    )
  })

  it('refuses a wrapper at its top, whose JSON Schema zod would look up by identity', () => {
    const withDefault = lazySchema(() => z.string().default(''))
    expect(() => withDefault.parse(undefined)).toThrow(/default schema cannot be built lazily/)
    const inside = z.object({ s: lazySchema(() => z.string()).default('') })
    expect(z.toJSONSchema(inside)).toEqual(z.toJSONSchema(z.object({ s: z.string().default('') })))
  })
})
