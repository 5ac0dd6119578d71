/**
 * The real `claude` takes Navi's `output-schema.json` as `--json-schema`: it becomes the
 * StructuredOutput tool's input_schema unchanged, a valid briefing ends the run with
 * `structured_output`, and a briefing the schema rejects is sent back to the model as an error.
 */
import { realpathSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { z } from 'zod'
import { outputJsonSchema } from '../../electron/pm/templates.ts'
import { pmOutputSchema } from '../../shared/schemas/briefing.ts'
import { createClaudeEnv, disposeClaudeEnv, runClaudePrint } from '../support/claude-driver.ts'
import { startScriptedApi, structured } from '../support/scripted-api.ts'

const RUN_TIMEOUT_MS = 60_000

const envelopeSchema = z.object({
  is_error: z.boolean(),
  structured_output: z.unknown().optional(),
})
const requestSchema = z.object({
  tools: z.array(z.object({ name: z.string(), input_schema: z.unknown() })),
})

const briefing = {
  briefing: 'Apollo finished PBI-8 and needs a PR. Navi waits on a permission prompt.',
  projects: [
    { name: 'apollo', status: 'pbi_complete', summary: 'PBI-8 done, no PR yet' },
    { name: 'navi', status: 'needs_input', summary: 'permission prompt', current_work: 'PBI-29' },
  ],
  attention_items: [{ project: 'navi', priority: 'high', title: 'Permission pending' }],
  breadcrumbs: [{ project: 'apollo', message: 'left off at the connection resolver' }],
  suggestions: [
    {
      kind: 'open_pr',
      project: 'apollo',
      title: 'PBI-8 is done: ready for a PR?',
      evidence: ['5 of 5 tasks done', 'no PR'],
      action: { type: 'open_project', project: 'apollo' },
    },
  ],
  patterns: [],
}

async function setUp() {
  const cwd = realpathSync(await mkdtemp(join(tmpdir(), 'navi-pm-schema-')))
  const api = await startScriptedApi()
  const env = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [cwd], maxRetries: 0 })
  onTestFinished(async () => {
    await api.close()
    await disposeClaudeEnv(env)
    await rm(cwd, { recursive: true, force: true })
  })
  const run = () =>
    runClaudePrint({
      cwd,
      env,
      prompt: '{"trigger":"on_demand"}',
      args: [
        '--output-format',
        'json',
        '--json-schema',
        JSON.stringify(outputJsonSchema()),
        '--tools',
        'Read',
      ],
      timeoutMs: RUN_TIMEOUT_MS,
    })
  return { api, run }
}

describe('output-schema.json with the real claude CLI', () => {
  it('is the StructuredOutput input_schema, and a valid briefing comes back as structured_output', async () => {
    const { api, run } = await setUp()
    api.enqueue(structured(briefing))

    const result = await run()

    expect(result.exitCode).toBe(0)
    const envelope = envelopeSchema.parse(result.json)
    expect(envelope.is_error).toBe(false)
    expect(pmOutputSchema.parse(envelope.structured_output)).toEqual(briefing)
    const request = api.requests.find((r) => r.route === 'scripted')
    const tool = requestSchema.parse(request?.body).tools.find((t) => t.name === 'StructuredOutput')
    expect(tool?.input_schema).toEqual(outputJsonSchema())
  })

  it('rejects a briefing that violates the schema, then takes the corrected one', async () => {
    const { api, run } = await setUp()
    api.enqueue(
      structured({ ...briefing, projects: [{ name: 'apollo', status: 'busy', summary: 'x' }] }),
      structured(briefing),
    )

    const result = await run()

    expect(result.exitCode).toBe(0)
    expect(envelopeSchema.parse(result.json).structured_output).toEqual(briefing)
    const errors = api.toolResults().filter((r) => r.is_error === true)
    expect(errors).toHaveLength(1)
    expect(JSON.stringify(errors[0]?.content)).toMatch(/status/)
  })
})
