/**
 * Temp folders removed after each test. `useTempPaths('navi-x-')`: a fresh root per test with Navi's three
 * directories under it (`temp.root`, `temp.paths`). `useTempDirs('navi-x-')`: a function that makes as
 * many fresh folders as a test asks for.
 */
import { mkdtempSync, rmSync } from 'node:fs'
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

export function useTempDirs(prefix: string): () => string {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix))
    dirs.push(dir)
    return dir
  }
}
