/**
 * What a warm start of the built `navi` loads: a command run again over files it already indexed
 * believes its cache files by their stamps (core/file-stamp.ts) and hashes nothing, so it never loads
 * `node:crypto` (~3 ms of every command, with the ciphers and streams it brings). The first command, which
 * writes the index, the snapshots and their hashes, loads it: the probe sees a module when it is loaded.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNaviEnv, type NaviEnv } from '../support/navi-cli.ts'
import { bundleNaviForTest } from '../support/node-bundle.ts'
import { useTempDirs } from '../support/temp-paths.ts'

let bundle: Awaited<ReturnType<typeof bundleNaviForTest>>
const tempDir = useTempDirs('navi-warm-')

beforeAll(async () => {
  bundle = await bundleNaviForTest(`cli-warm-test-${process.pid}`)
})

afterAll(() => bundle?.dispose())

/** A session of a project folder, as Claude Code writes its transcript (two lines). */
function writeSession(env: NaviEnv, projectDir: string): void {
  const dir = join(env.CLAUDE_CONFIG_DIR, 'projects', projectDir.replaceAll('/', '-'))
  mkdirSync(dir, { recursive: true })
  const id = '6f1d2c3b-0000-4000-8000-000000000001'
  const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString()
  const lines = [
    {
      type: 'user',
      sessionId: id,
      cwd: projectDir,
      timestamp: at(120),
      message: { role: 'user', content: 'fix the parser' },
    },
    {
      type: 'assistant',
      sessionId: id,
      cwd: projectDir,
      timestamp: at(100),
      message: {
        id: 'msg_1',
        role: 'assistant',
        content: [{ type: 'text', text: 'fixed' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
  ]
  writeFileSync(join(dir, `${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`)
}

/** `navi sessions --json`, and the built-in modules the process loaded beyond a bare `node`. */
async function sessionsLoading(env: NaviEnv): Promise<{ sessions: number; modules: string[] }> {
  const dir = tempDir()
  const listFile = join(dir, 'modules.json')
  const probe = join(dir, 'probe.cjs')
  writeFileSync(
    probe,
    `const before = new Set(process.moduleLoadList)
process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(listFile)},
  JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m)))))`,
  )
  const run = await execa('node', ['--require', probe, bundle.file, 'sessions', '--json'], {
    env,
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  })
  expect(run.exitCode, String(run.stderr)).toBe(0)
  const answer = JSON.parse(String(run.stdout)) as { sessions: unknown[] }
  return {
    sessions: answer.sessions.length,
    modules: JSON.parse(readFileSync(listFile, 'utf8')) as string[],
  }
}

describe('a warm start of the built navi', () => {
  it('hashes nothing: node:crypto is loaded by the first command, not by the next', async () => {
    const env = await createNaviEnv({
      NAVI_HOME: tempDir(),
      CLAUDE_CONFIG_DIR: tempDir(),
      CODEX_HOME: tempDir(),
    })
    writeSession(env, tempDir())
    const first = await sessionsLoading(env)
    expect(first.sessions).toBe(1)
    expect(first.modules).toContain('NativeModule crypto')
    const warm = await sessionsLoading(env)
    expect(warm.sessions).toBe(1)
    expect(warm.modules.filter((m) => m.includes('crypto'))).toEqual([])
  })
})
