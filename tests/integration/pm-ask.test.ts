/**
 * `navi ask` with the real claude against the scripted API: the question and the projects reach the PM as
 * data, the answer comes back (made inert), a follow-up carries the previous exchange, and the PM runs with
 * the same least privilege as a briefing (Read/Write/Edit only, no user settings).
 */
import { readFile, rm, writeFile } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { pmAskResultSchema } from '../../shared/schemas/ask.ts'
import { naviFiles } from '../../electron/engine/core/paths.ts'
import { createNaviRuntime } from '../../electron/runtime/index.ts'
import { createNaviEnv, enginePathsOf, runNavi } from '../support/navi-cli.ts'
import { toolNames } from '../support/pm-invoke-fixture.ts'
import { startPmWorld } from '../support/pm-world.ts'
import { structured, type ScriptedApi } from '../support/scripted-api.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

/** The text of a request's first user message: the question's inbox. */
function inboxText(request: ScriptedApi['requests'][number] | undefined): string {
  const messages = (request?.body as { messages?: { content: unknown }[] } | undefined)?.messages
  const content = messages?.[0]?.content
  if (typeof content === 'string') return content
  return Array.isArray(content)
    ? content.map((b: { text?: string }) => b.text ?? '').join('\n')
    : ''
}

describe('navi ask', () => {
  it('answers from the projects and the day, remembers the last exchange, with least privilege', async () => {
    const { api, env, repo, dispose } = await startPmWorld('pm-ask-')
    cleanups.push(dispose)
    const paths = enginePathsOf(env)
    await writeFile(naviFiles(paths).config, `projects:\n  - path: ${repo.dir}\n    name: apollo\n`)
    expect((await runNavi(['status'], env)).exitCode).toBe(0)

    api.enqueue(
      structured({
        answer: 'Apollo had one commit today, \u001b[2Jthe initial one.',
        actions: [{ kind: 'open_project', project: 'apollo', label: 'Open apollo' }],
      }),
    )
    const first = await runNavi(['ask', 'what did apollo do this morning?'], env)
    expect(first.exitCode, first.stderr).toBe(0)
    expect(first.stdout).toBe(
      'Apollo had one commit today,  [2Jthe initial one.\n  → Open apollo (project apollo)',
    )

    const [request] = api.requests.filter((r) => toolNames(r.body).includes('StructuredOutput'))
    const inbox = inboxText(request)
    expect(inbox).toContain('"question":"what did apollo do this morning?"')
    expect(inbox).toContain('"name":"apollo"')
    expect(inbox).toContain('"previous_exchanges":[]')
    // The same tools as a briefing run, nothing of the user's settings.
    expect(toolNames(request?.body)).toEqual(['Edit', 'Read', 'StructuredOutput', 'Write'])

    api.enqueue(structured({ answer: 'Nothing yesterday: Navi started watching today.' }))
    const followUp = await runNavi(['ask', 'and yesterday?', '--json'], env)
    expect(followUp.exitCode, followUp.stderr).toBe(0)
    expect(pmAskResultSchema.parse(followUp.json).answer?.answer).toBe(
      'Nothing yesterday: Navi started watching today.',
    )
    const second = api.requests.filter((r) => toolNames(r.body).includes('StructuredOutput'))[1]
    const carried = inboxText(second)
    expect(carried).toContain('"question":"and yesterday?"')
    expect(carried).toContain('"question":"what did apollo do this morning?"')
    expect(carried).toContain('Apollo had one commit today')

    // Both exchanges kept; a question is logged in the usage like a run.
    const history = (await readFile(naviFiles(paths).askHistory, 'utf8')).trim().split('\n')
    expect(history).toHaveLength(2)
    expect(await readFile(naviFiles(paths).usageLog, 'utf8')).toContain('"trigger":"ask"')
  })

  it('streams the answer as the PM writes it: each push a longer beginning of the answer it then gives', async () => {
    const { api, env, dispose } = await startPmWorld('pm-ask-stream-')
    cleanups.push(dispose)
    const paths = enginePathsOf(env)
    const runtime = await createNaviRuntime({ paths, mode: 'once', pm: true, env })
    cleanups.push(() => runtime.stop())
    await runtime.start()
    const pushed: string[] = []
    runtime.hub.subscribe((channel, payload) => {
      if (channel === 'pm:answer') pushed.push((payload as { text: string }).text)
    })
    const answer =
      'Apollo had a quiet morning: one commit, the initial one, and no session ran there. ' +
      'Navi saw nothing else "new" in it today.'
    api.enqueue(structured({ answer }))
    const result = await runtime.handlers['pm:ask']({
      question: 'what did apollo do this morning?',
    })
    expect(result.error).toBeNull()
    expect(result.answer?.answer).toBe(answer)
    expect(pushed.length).toBeGreaterThanOrEqual(2)
    for (const [i, text] of pushed.entries()) {
      expect(answer.startsWith(text)).toBe(true)
      if (i > 0) expect(text.length).toBeGreaterThan(pushed[i - 1]!.length)
    }
    expect(pushed.at(-1)).toBe(answer)
  })

  it('says why when it cannot answer, and exits 1', async () => {
    const env = await createNaviEnv({ NAVI_CLAUDE_BIN: '/nonexistent/claude' })
    cleanups.push(async () => {
      for (const dir of [env.NAVI_HOME, env.CLAUDE_CONFIG_DIR, env.CODEX_HOME])
        await rm(dir, { recursive: true, force: true })
    })
    const run = await runNavi(['ask', 'anything?'], env)
    expect(run.exitCode).toBe(1)
    expect(run.stderr).toMatch(/^navi: the PM could not answer: .*claude/m)
    expect((await runNavi(['ask'], env)).exitCode).toBe(2)
  })
})
