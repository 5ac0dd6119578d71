import { mkdtempSync, rmSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readDismissals, writeDismissals } from '../../electron/pm/dismissals-file.ts'
import type { Log } from '../../shared/log.ts'

const dir = mkdtempSync(join(tmpdir(), 'navi-dismissals-'))
afterEach(() => rmSync(join(dir, 'dismissed.json'), { force: true }))

function recordingLog(): Log & { warnings: string[] } {
  const warnings: string[] = []
  return {
    warnings,
    info: () => undefined,
    warn: (message) => void warnings.push(message),
    error: (message) => void warnings.push(message),
  }
}

describe('dismissed.json', () => {
  const file = join(dir, 'dismissed.json')

  it('round-trips, and none is no dismissal, quietly', async () => {
    const log = recordingLog()
    expect(await readDismissals(file, log)).toEqual([])
    expect(log.warnings).toEqual([])
    await writeDismissals(file, [{ key: 'apollo\u0000Open a PR', until: null }])
    expect(await readDismissals(file, log)).toEqual([{ key: 'apollo\u0000Open a PR', until: null }])
    expect(JSON.parse(await readFile(file, 'utf8'))).toHaveProperty('dismissals')
  })

  it('a file that is not one dismisses nothing, and says so', async () => {
    const log = recordingLog()
    await writeFile(file, '{"dismissals": "all of them"}')
    expect(await readDismissals(file, log)).toEqual([])
    expect(log.warnings.join('\n')).toMatch(/dismissed\.json is not a list of dismissals/)
  })
})
