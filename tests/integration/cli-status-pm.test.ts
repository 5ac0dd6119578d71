/**
 * The PM's attention items outside the PM view: `navi status` ends with how many the latest briefing holds
 * (read from the cached briefing, the PM is not started), and says nothing of them before any briefing.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { naviFiles } from '../../electron/engine/core/paths.ts'
import { writeCachedBriefing } from '../../electron/pm/run-state-files.ts'
import { cachedBriefingSchema } from '../../shared/schemas/briefing.ts'
import { createNaviEnv, enginePathsOf, type NaviEnv, runNavi } from '../support/navi-cli.ts'
import { sampleOutput } from '../support/pm-invoke-fixture.ts'

let env: NaviEnv | null = null
afterEach(async () => {
  for (const dir of [env?.NAVI_HOME, env?.CLAUDE_CONFIG_DIR, env?.CODEX_HOME])
    if (dir) await rm(dir, { recursive: true, force: true })
  env = null
})

describe('navi status and the PM', () => {
  it('ends with the attention items of the latest briefing, in the text only', async () => {
    env = await createNaviEnv()
    const before = await runNavi(['status'], env)
    expect(before.exitCode).toBe(0)
    expect(before.stdout).not.toMatch(/^PM:/m)

    const paths = enginePathsOf(env)
    await mkdir(naviFiles(paths).pmDir, { recursive: true })
    const output = sampleOutput('Two things need you.')
    output.attention_items.push({
      project: 'apollo',
      priority: 'high',
      title: 'Open a PR for PBI-8',
    })
    await writeCachedBriefing(naviFiles(paths).lastOutput, {
      output: cachedBriefingSchema.shape.output.parse(output),
      generated_at: new Date().toISOString(),
      trigger: 'commit',
    })
    const after = await runNavi(['status'], env)
    expect(after.exitCode).toBe(0)
    expect(after.stdout.trimEnd().split('\n').at(-1)).toBe(
      'PM: 2 items need attention (navi brief shows them)',
    )
    const json = await runNavi(['status', '--json'], env)
    expect(json.stdout).not.toContain('need attention')
    // One of them dismissed in the popover: the count leaves it out.
    await writeFile(
      naviFiles(paths).dismissed,
      JSON.stringify({ dismissals: [{ key: 'apollo\u0000Open a PR for PBI-8', until: null }] }),
    )
    const fewer = await runNavi(['status'], env)
    expect(fewer.stdout.trimEnd().split('\n').at(-1)).toBe(
      'PM: 1 item needs attention (navi brief shows them)',
    )
  })
})
