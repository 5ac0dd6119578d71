/**
 * The runtime every face uses, run directly the way the tray runs it (live, with the PM): a setting changed
 * in `settings.json` by someone else (a text editor, `navi serve`, the CLI) reaches the settings store, the
 * configuration and the PM's next scheduling decision without a restart.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { installHooks } from '../../electron/engine/adapters/hooks-install.ts'
import { naviFiles } from '../../electron/engine/core/paths.ts'
import { writeCachedBriefing } from '../../electron/pm/run-state-files.ts'
import { createNaviRuntime, type NaviRuntime } from '../../electron/runtime/index.ts'
import { recentLogErrors } from '../../electron/runtime/logger.ts'
import type { BriefingState } from '../../shared/schemas/briefing.ts'
import { cachedBriefingSchema } from '../../shared/schemas/briefing.ts'
import { sampleOutput } from '../support/pm-invoke-fixture.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'
import { useTempPaths } from '../support/temp-paths.ts'
import { waitUntil } from '../support/wait.ts'

const temp = useTempPaths('navi-runtime-')
let runtime: NaviRuntime | null = null
let repo: RepoFixture | null = null
afterEach(async () => {
  await runtime?.stop()
  runtime = null
  await repo?.cleanup()
  repo = null
})

const writeSettings = (settings: Record<string, unknown>) =>
  writeFile(naviFiles(temp.paths).settings, JSON.stringify(settings))

describe('createNaviRuntime (live, with the PM)', () => {
  it('a batch window edited in settings.json applies to the batch already waiting, without a restart', async () => {
    repo = await createRepoFixture({ prefix: 'navi-runtime-repo-' })
    const files = naviFiles(temp.paths)
    // A registered project, a PM that ran a day ago (no initialization run), and a claude that is not
    // there: a run that starts ends at once as "claude missing", which is all this test needs to see.
    await mkdir(temp.paths.naviHome, { recursive: true })
    await writeFile(files.config, `projects:\n  - path: ${repo.dir}\n`)
    await writeCachedBriefing(files.lastOutput, {
      output: cachedBriefingSchema.shape.output.parse(sampleOutput('Yesterday: all quiet.')),
      generated_at: new Date(Date.now() - 24 * 3_600_000).toISOString(),
      trigger: 'commit',
    })
    const missingClaude = join(temp.root, 'no-such-claude')
    await writeSettings({ batch_window: '10m', claude_path: missingClaude })

    runtime = await createNaviRuntime({ paths: temp.paths, mode: 'live', pm: true })
    const pm = runtime.pm
    if (!pm) throw new Error('no PM')
    const briefings: BriefingState[] = []
    pm.onBriefing((state) => briefings.push(state))
    await runtime.start()
    expect(pm.schedule()?.batchWindowMs).toBe(10 * 60_000)

    const before = Date.now()
    await repo.commit('feat: a commit that triggers the PM', { 'a.txt': 'a\n' })
    const waiting = await waitUntil(
      () => {
        const schedule = pm.schedule()
        return schedule && schedule.nextRunAt !== null ? schedule : null
      },
      30_000,
      () => `a batch to wait for its window (schedule ${JSON.stringify(pm.schedule())})`,
    )
    expect(waiting.nextRunAt).toBeGreaterThan(before + 9 * 60_000)
    expect(briefings).toEqual([])

    // Another process (an editor, `navi serve`) shortens the window: the waiting batch is due at once.
    await writeSettings({ batch_window: '1s', claude_path: missingClaude, model: 'haiku' })
    await waitUntil(() => briefings.length > 0, 30_000, 'the batch to run under the new window')
    expect(briefings[0]?.claude_missing).toBeTruthy()
    expect(pm.schedule()?.batchWindowMs).toBe(1000)
    expect(runtime.settings.get()).toMatchObject({ batch_window: '1s', model: 'haiku' })
    expect(runtime.config.get().config.pm).toMatchObject({ batchWindowMs: 1000, model: 'haiku' })
    // The contract answers with the same settings the store holds.
    expect(await runtime.handlers['settings:get']()).toMatchObject({ model: 'haiku' })
  })

  it('a PM run that fails before claude starts shows a failed status with its reason, and is logged', async () => {
    // The memory folder cannot be made: a file sits where it should be (root ignores permissions).
    const files = naviFiles(temp.paths)
    await mkdir(files.pmDir, { recursive: true })
    await writeFile(files.memoryDir, 'not a folder')
    runtime = await createNaviRuntime({ paths: temp.paths, mode: 'live', pm: true })
    const pm = runtime.pm
    if (!pm) throw new Error('no PM')
    const statuses: string[] = []
    const briefings: BriefingState[] = []
    pm.onStatus((status) => statuses.push(`${status.phase}: ${status.detail ?? ''}`))
    pm.onBriefing((state) => briefings.push(state))
    // The PM never ran, so it starts its first run at once, and that run cannot prepare its memory.
    await runtime.start()
    await waitUntil(() => briefings.length > 0, 30_000, 'the failed run to be told')
    expect(statuses).toHaveLength(1)
    expect(statuses[0]).toMatch(/^failed: .*memory/)
    expect(briefings[0]?.error).toMatch(/^The PM run failed: .*memory/)
    expect((await runtime.handlers['briefing:get']()).state.error).toBe(briefings[0]?.error)
    const errors = await recentLogErrors(temp.paths.naviHome)
    expect(
      errors.some((line) => /\(pm\) +PM run \(initialization\) failed before claude/.test(line)),
    ).toBe(true)
  })

  it('once: one refresh serves the read-only contract queries, and nothing is left running', async () => {
    repo = await createRepoFixture({ prefix: 'navi-runtime-once-' })
    await mkdir(temp.paths.naviHome, { recursive: true })
    await writeFile(naviFiles(temp.paths).config, `projects:\n  - path: ${repo.dir}\n`)
    runtime = await createNaviRuntime({ paths: temp.paths, mode: 'once', pm: false })
    const state = await runtime.start({ force: true })
    expect(state.projects.map((p) => p.project_dir)).toEqual([repo.dir])
    expect(await runtime.handlers['state:get']()).toEqual(state)
    expect(await runtime.handlers['sessions:list']({ all: true })).toMatchObject({ sessions: [] })
    expect(runtime.pm).toBeNull()
    await runtime.stop()
    // Stopping twice is one stop.
    await runtime.stop()
    await expect(runtime.start()).rejects.toThrow(/started already/)
  })

  it('live: a hook handler copy left by an older Navi is replaced by this Navi’s on start', async () => {
    await mkdir(temp.paths.claudeConfigDir, { recursive: true })
    await installHooks(temp.paths)
    const handler = naviFiles(temp.paths).hookHandler
    const shipped = await readFile(handler, 'utf8')
    await writeFile(handler, "#!/bin/sh\n# an older Navi's handler\nexit 0\n")
    runtime = await createNaviRuntime({ paths: temp.paths, mode: 'live', pm: false })
    await runtime.start()
    expect(await readFile(handler, 'utf8')).toBe(shipped)
  })

  it('a dismissed attention item stays hidden after a restart, with or without the PM; a snooze ends', async () => {
    const files = naviFiles(temp.paths)
    await mkdir(files.pmDir, { recursive: true })
    const output = sampleOutput('Two things need you.')
    output.attention_items.push({ project: 'apollo', priority: 'high', title: 'Open a PR' })
    await writeCachedBriefing(files.lastOutput, {
      output: cachedBriefingSchema.shape.output.parse(output),
      generated_at: new Date().toISOString(),
      trigger: 'commit',
    })
    const titles = async (r: NaviRuntime) =>
      (await r.handlers['briefing:get']()).state.briefing?.output.attention_items.map(
        (i) => i.title,
      )

    runtime = await createNaviRuntime({ paths: temp.paths, mode: 'once', pm: true })
    await runtime.start()
    const pm = runtime.pm
    if (!pm) throw new Error('no PM')
    const told: (string[] | undefined)[] = []
    pm.onBriefing((state) => told.push(state.briefing?.output.attention_items.map((i) => i.title)))
    expect(await titles(runtime)).toEqual(['Review the PM tests', 'Open a PR'])
    expect(
      await runtime.handlers['attention:dismiss']({ project: 'apollo', title: 'Open a PR' }),
    ).toEqual({
      done: true,
      message: 'dismissed',
    })
    expect(await titles(runtime)).toEqual(['Review the PM tests'])
    // The faces hear of it at once (the push hub, the tray, the notifications listen here).
    expect(told).toEqual([['Review the PM tests']])
    await runtime.stop()

    for (const withPm of [true, false]) {
      runtime = await createNaviRuntime({ paths: temp.paths, mode: 'once', pm: withPm })
      await runtime.start()
      expect(await titles(runtime)).toEqual(['Review the PM tests'])
      await runtime.stop()
    }

    // A snooze that has ended shows the item again.
    runtime = await createNaviRuntime({ paths: temp.paths, mode: 'once', pm: false })
    await runtime.start()
    await runtime.handlers['attention:dismiss']({
      project: 'navi',
      title: 'Review the PM tests',
      snooze_minutes: 60,
    })
    expect(await titles(runtime)).toEqual([])
    const dismissed = JSON.parse(await readFile(files.dismissed, 'utf8')) as {
      dismissals: { key: string; until: string | null }[]
    }
    for (const d of dismissals(dismissed))
      if (d.until) d.until = new Date(Date.now() - 1000).toISOString()
    await writeFile(files.dismissed, JSON.stringify(dismissed))
    expect(await titles(runtime)).toEqual(['Review the PM tests'])
  })
})

const dismissals = (file: { dismissals: { key: string; until: string | null }[] }) =>
  file.dismissals
