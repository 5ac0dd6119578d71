/**
 * The adversarial table: one row per bad input (tests/support/bad-inputs/), each planted in a fresh
 * Navi home beside a healthy project, then `navi status`, `sessions --all` and `doctor` (JSON and human)
 * run in a child process. No row may crash, hang, run away with memory, print an escape sequence, lose
 * the healthy project or its session, or keep silent about a file it could not read.
 * `npm run bench -- --only bad-inputs` prints the same table with each row's time and peak RSS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildRunner, runCase } from '../support/bad-inputs/harness.ts'
import { createHealthyBase } from '../support/bad-inputs/healthy.ts'
import { BAD_INPUTS } from '../support/bad-inputs/table.ts'

let healthy: Awaited<ReturnType<typeof createHealthyBase>>
let runner: Awaited<ReturnType<typeof buildRunner>>

beforeAll(async () => {
  ;[healthy, runner] = await Promise.all([createHealthyBase(), buildRunner()])
}, 180_000)

afterAll(async () => {
  runner?.dispose()
  await healthy?.dispose()
})

describe('the table', () => {
  it('has at least 200 distinct rows', () => {
    expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(200)
    expect(new Set(BAD_INPUTS.map((row) => row.name)).size).toBe(BAD_INPUTS.length)
  })
})

// One row at a time: each row is a child process running six commands, and the real-claude tests
// running beside this file need the other core.
describe('bad input never stops Navi', () => {
  it.each(BAD_INPUTS.map((row) => [row.name, row] as const))(
    '%s',
    { timeout: 180_000 },
    async (_name, row) => {
      const result = await runCase(row, healthy, runner.file)
      expect(result.problems).toEqual([])
    },
  )
})
