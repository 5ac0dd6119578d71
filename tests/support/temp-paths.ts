/**
 * A fresh temp root per test with Navi's three directories under it, removed after the test:
 * `const temp = useTempPaths('navi-x-')` at the top of a test file, then `temp.root` and `temp.paths`.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import type { EnginePaths } from '../../electron/engine/core/paths.ts'

export function useTempPaths(prefix: string): { root: string; paths: EnginePaths } {
  const temp = { root: '', paths: { naviHome: '', claudeConfigDir: '', codexHome: '' } }
  beforeEach(async () => {
    temp.root = await mkdtemp(join(tmpdir(), prefix))
    temp.paths = {
      naviHome: join(temp.root, 'navi'),
      claudeConfigDir: join(temp.root, 'claude'),
      codexHome: join(temp.root, 'codex'),
    }
  })
  afterEach(async () => {
    await rm(temp.root, { recursive: true, force: true })
  })
  return temp
}
