import { describe, expect, it } from 'vitest'
import { sameJson } from '../../electron/engine/core/same-json.ts'
import { createRandom } from '../support/seeded-random.ts'

/** JSON text with keys sorted: equal for values `sameJson` must call equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  )
}

describe('sameJson', () => {
  it.each([
    [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, true],
    [{ a: 1 }, { a: 1, b: null }, false],
    [[1, 2], [2, 1], false],
    [{ a: [] }, { a: {} }, false],
    [{ a: '1' }, { a: 1 }, false],
    [null, {}, false],
    ['x', 'x', true],
    [{ a: { b: { c: 'd' } } }, { a: { b: { c: 'e' } } }, false],
  ])('%j vs %j: %s', (a, b, same) => {
    expect(sameJson(a, b)).toBe(same)
  })

  it('agrees with comparing canonical JSON text on generated values and small changes', () => {
    const random = createRandom(3)
    const value = (depth: number): unknown => {
      const r = random()
      if (depth > 3 || r < 0.35) return [1, 'a', null, true, 2.5, ''][Math.floor(random() * 6)]
      if (r < 0.65) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1))
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, () => [
          'abcd'[Math.floor(random() * 4)] ?? 'a',
          value(depth + 1),
        ]),
      )
    }
    const tweak = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.length > 0 && random() < 0.5 ? v.slice(1) : [...v, 1]
      if (v !== null && typeof v === 'object') return { ...v, z: random() < 0.5 ? 1 : undefined }
      return random() < 0.5 ? v : 'changed'
    }
    for (let i = 0; i < 3000; i++) {
      const a = value(0)
      const b = random() < 0.5 ? structuredClone(a) : tweak(structuredClone(a))
      expect(sameJson(a, b)).toBe(canonical(a) === canonical(b))
    }
  })
})
