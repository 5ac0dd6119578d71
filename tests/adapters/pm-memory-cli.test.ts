/**
 * `navi memory list|restore` over real files: a version is taken before a run, the run (here: a bad
 * edit) changes memory, and a bare `navi memory restore` brings the previous version back, undoably.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { snapshotMemory } from '../../electron/pm/memory-versions.ts'
import { ensurePmLayout } from '../../electron/pm/storage.ts'
import { createNaviEnv, runNavi } from '../support/navi-cli.ts'
import { useTempPaths } from '../support/temp-paths.ts'

const temp = useTempPaths('navi-memory-cli-')

describe('navi memory', () => {
  it('restore without a version rolls back the last run, and can itself be undone', async () => {
    await mkdir(temp.paths.naviHome, { recursive: true })
    await ensurePmLayout(temp.paths)
    const shortTerm = join(temp.paths.naviHome, 'pm', 'memory', 'short-term.md')
    await writeFile(shortTerm, '# Short-Term Memory\n\ngood state\n')
    await snapshotMemory(temp.paths, { reason: 'pre-run' })
    await writeFile(shortTerm, '# Short-Term Memory\n\na bad run wrote nonsense\n')
    const env = await createNaviEnv({
      NAVI_HOME: temp.paths.naviHome,
      CLAUDE_CONFIG_DIR: temp.paths.claudeConfigDir,
      CODEX_HOME: temp.paths.codexHome,
    })

    const list = await runNavi(['memory', 'list', '--json'], env)
    expect((list.json as { versions: { reason: string }[] }).versions.map((v) => v.reason)).toEqual(
      ['pre-run'],
    )
    const restore = await runNavi(['memory', 'restore'], env)
    expect(restore.exitCode, restore.stderr).toBe(0)
    expect(await readFile(shortTerm, 'utf8')).toBe('# Short-Term Memory\n\ngood state\n')

    const undoId = /navi memory restore (\S+)/.exec(restore.stdout)?.[1]
    expect(undoId).toBeTruthy()
    expect((await runNavi(['memory', 'restore', undoId as string], env)).exitCode).toBe(0)
    expect(await readFile(shortTerm, 'utf8')).toBe(
      '# Short-Term Memory\n\na bad run wrote nonsense\n',
    )
  })
})
