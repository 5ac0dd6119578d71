/**
 * A setting changed through the contract reaches the next PM run of a long-running `navi serve`: the
 * model id the real claude sends to the scripted API changes without a restart.
 */
import { rm } from 'node:fs/promises'
import { afterEach, expect, it } from 'vitest'
import type { PmOutput } from '../../shared/schemas/briefing.ts'
import { claudeBinary, createClaudeEnv, disposeClaudeEnv } from '../support/claude-driver.ts'
import { createNaviEnv } from '../support/navi-cli.ts'
import { startScriptedApi, structured, type ScriptedApi } from '../support/scripted-api.ts'
import { waitUntil } from '../support/wait.ts'
import { startNaviServe } from '../e2e/support/serve-process.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const reply = (text: string): PmOutput => ({
  briefing: text,
  projects: [],
  attention_items: [],
  breadcrumbs: [],
  suggestions: [],
  patterns: [],
})

const pmModels = (api: ScriptedApi) =>
  api.requests
    .filter((r) => JSON.stringify(r.body ?? {}).includes('"StructuredOutput"'))
    .map((r) => (r.body as { model?: string }).model)

it('a model set in Settings is used by the next briefing run without restarting serve', async () => {
  const api = await startScriptedApi()
  const claudeEnv = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [] })
  const env = await createNaviEnv({ ...claudeEnv, NAVI_CLAUDE_BIN: claudeBinary() })
  cleanups.push(async () => {
    await api.close()
    await disposeClaudeEnv(claudeEnv)
    await rm(env.NAVI_HOME, { recursive: true, force: true })
  })
  api.enqueue(structured(reply('First look.')), structured(reply('Second look.')))
  const serve = await startNaviServe({ env: env as unknown as Record<string, string> })
  cleanups.push(() => serve.stop())

  // The PM never ran, so serve starts its initialization run by itself.
  await waitUntil(() => pmModels(api).length >= 1, 60_000, 'the initialization run')
  const settings = await serve.data<{ model?: string }>('settings:set', {
    model: 'claude-navi-test-model',
  })
  expect(settings.model).toBe('claude-navi-test-model')
  await waitUntil(
    async () => (await serve.data<{ running: unknown }>('briefing:get')).running === null,
    60_000,
    'the initialization run to end',
  )
  expect(await serve.data('briefing:refresh')).toMatchObject({ done: true })
  await waitUntil(
    async () =>
      (await serve.data<{ state: { briefing: { output: PmOutput } | null } }>('briefing:get')).state
        .briefing?.output.briefing === 'Second look.',
    60_000,
    'the second briefing',
  )
  const models = pmModels(api)
  expect(models[0]).not.toBe('claude-navi-test-model')
  expect(models.at(-1)).toBe('claude-navi-test-model')
})
