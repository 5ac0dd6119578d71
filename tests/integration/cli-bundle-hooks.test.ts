/**
 * `navi hooks install` from the built CLI bundle, run from another directory: the handler is found next to
 * the bundle (out/…/../../resources/hooks), never through the working directory.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNaviEnv, type NaviEnv } from '../support/navi-cli.ts'
import { bundleNaviForTest } from '../support/node-bundle.ts'

let bundle: Awaited<ReturnType<typeof bundleNaviForTest>>
let elsewhere: string
let env: NaviEnv

beforeAll(async () => {
  // Same depth as out/cli/navi.cjs, so the bundle looks for its resources as the real one does.
  bundle = await bundleNaviForTest(`cli-test-${process.pid}`)
  elsewhere = mkdtempSync(join(tmpdir(), 'navi-cwd-'))
  env = await createNaviEnv()
})

afterAll(() => {
  bundle?.dispose()
  for (const dir of [elsewhere, env?.NAVI_HOME, env?.CLAUDE_CONFIG_DIR, env?.CODEX_HOME])
    if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('the CLI bundle', () => {
  it('installs the hooks when run from another directory', async () => {
    const run = await execa('node', [bundle.file, 'hooks', 'install', '--json'], {
      cwd: elsewhere,
      env,
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    })
    expect(run.exitCode, String(run.stderr)).toBe(0)
    const result = JSON.parse(String(run.stdout)) as { changed: boolean; handlerPath: string }
    expect(result.changed).toBe(true)
    expect(statSync(result.handlerPath).isFile()).toBe(true)
  })
})
