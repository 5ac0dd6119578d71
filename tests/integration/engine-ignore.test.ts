import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEngine } from '../../electron/engine/index.ts'
import { useTempPaths } from '../support/temp-paths.ts'

const temp = useTempPaths('navi-ignore-')

async function transcript(cwd: string, sessionId: string) {
  const dir = join(temp.paths.claudeConfigDir, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'))
  await mkdir(dir, { recursive: true })
  const line = {
    type: 'user',
    message: { role: 'user', content: 'hi' },
    timestamp: new Date().toISOString(),
    cwd,
    sessionId,
  }
  await writeFile(join(dir, `${sessionId}.jsonl`), `${JSON.stringify(line)}\n`)
}

describe('what the engine never shows', () => {
  it("Navi's own runs under NAVI_HOME and the configured ignore globs", async () => {
    const work = join(temp.root, 'work')
    const scratch = join(temp.root, 'scratch', 'try')
    await transcript(work, 'user-session')
    await transcript(join(temp.paths.naviHome, 'pm'), 'pm-session')
    await transcript(scratch, 'scratch-session')
    await mkdir(temp.paths.naviHome, { recursive: true })
    await writeFile(
      join(temp.paths.naviHome, 'config.yaml'),
      `ignore: ['${join(temp.root, 'scratch')}/**']\n`,
    )

    const engine = createEngine({ paths: temp.paths, watch: false })
    const state = await engine.refresh()
    await engine.stop()
    expect(state.errors).toEqual([])
    expect(state.projects.map((p) => p.project_dir)).toEqual([work])
    expect(engine.getSessions().map((s) => s.id)).toEqual(['user-session'])
  })
})
