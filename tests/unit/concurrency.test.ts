import { describe, expect, it } from 'vitest'
import { createLimiter, mapLimit } from '../../electron/engine/core/concurrency.ts'
import { filterOverrideArgs } from '../../electron/engine/adapters/git-trust.ts'

const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('createLimiter', () => {
  it('never runs more than its limit at once, and runs every task in call order', async () => {
    const limit = createLimiter(2)
    let active = 0
    let peak = 0
    const started: number[] = []
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        limit(async () => {
          started.push(i)
          active++
          peak = Math.max(peak, active)
          await tick()
          await tick()
          active--
          return i * 2
        }),
      ),
    )
    expect(peak).toBe(2)
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(results).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18])
  })

  it('frees the slot of a task that throws', async () => {
    const limit = createLimiter(1)
    await expect(limit(() => Promise.reject(new Error('no')))).rejects.toThrow('no')
    expect(await limit(async () => 'next')).toBe('next')
  })
})

describe('mapLimit', () => {
  it('keeps the order of the items', async () => {
    expect(await mapLimit([3, 1, 2], 2, async (n) => n * 10)).toEqual([30, 10, 20])
  })
})

describe('filterOverrideArgs', () => {
  it('switches off every driver named, once, whatever its name holds', () => {
    const names = 'filter.evil.clean\0filter.evil.process\0filter.a.b.smudge\0core.x\0'
    expect(filterOverrideArgs(names)).toEqual([
      ...['clean=', 'smudge=', 'process=', 'required=false'].flatMap((s) => [
        '-c',
        `filter.evil.${s}`,
      ]),
      ...['clean=', 'smudge=', 'process=', 'required=false'].flatMap((s) => [
        '-c',
        `filter.a.b.${s}`,
      ]),
    ])
    expect(filterOverrideArgs('')).toEqual([])
  })
})
