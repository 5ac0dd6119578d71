import { tmpdir } from 'node:os'
import { basename, dirname } from 'node:path'
import { describe, expect, it } from 'vitest'

describe('the test run', () => {
  it('takes its temp folders from a folder of its own, which the run removes at its end', () => {
    expect(basename(tmpdir())).toMatch(/^navi-test-run-/)
    expect(dirname(tmpdir())).not.toBe(tmpdir())
  })
})
