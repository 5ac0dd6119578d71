/**
 * The real Codex CLI (pinned `@openai/codex`) runs against the scripted Responses API in a real git
 * repo; then Navi's engine, in process and as the `navi` CLI, must show the session it left behind.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execa } from 'execa'
import { describe, expect, it, onTestFinished } from 'vitest'
import { z } from 'zod'
import { createEngine } from '../../electron/engine/index.ts'
import type { EnginePaths } from '../../electron/engine/core/paths.ts'
import { sessionsOutputSchema } from '../../shared/schemas/cli.ts'
import {
  codexBinary,
  createCodexEnv,
  disposeCodexEnv,
  hasCodexBinary,
  hermeticBaseEnv,
  listRollouts,
  runCodexExec,
  type CodexExecResult,
} from '../support/codex-driver.ts'
import { createRepoFixture } from '../support/repo-fixture.ts'
import { waitUntil } from '../support/wait.ts'
import {
  defaultResponsesUsage,
  execCommand,
  responsesHttpError,
  startScriptedResponsesApi,
  textAnswer,
  type ScriptedResponsesApi,
} from '../support/scripted-responses-api.ts'

const RUN_TIMEOUT_MS = 60_000
const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
const codexMissing = !hasCodexBinary()

const threadStartedSchema = z.object({ type: z.literal('thread.started'), thread_id: z.string() })
const commandItemSchema = z.object({
  type: z.literal('item.completed'),
  item: z.object({
    type: z.literal('command_execution'),
    command: z.string(),
    aggregated_output: z.string(),
    exit_code: z.number().nullable(),
  }),
})
const agentMessageSchema = z.object({
  type: z.literal('item.completed'),
  item: z.object({ type: z.literal('agent_message'), text: z.string() }),
})

function eventsOf<T>(run: CodexExecResult, schema: z.ZodType<T>): T[] {
  return run.events.flatMap((e) => {
    const parsed = schema.safeParse(e)
    return parsed.success ? [parsed.data] : []
  })
}

function threadIdOf(run: CodexExecResult): string {
  const [started] = eventsOf(run, threadStartedSchema)
  if (!started)
    throw new Error(`no thread.started event; stdout:\n${run.stdout}\nstderr:\n${run.stderr}`)
  return started.thread_id
}

/** What Navi should report for `requests` model requests answered with the default usage. */
function expectedTokens(requests: number) {
  const u = defaultResponsesUsage
  const input = (u.input_tokens - u.cached_tokens) * requests
  const cacheRead = u.cached_tokens * requests
  const output = u.output_tokens * requests
  return {
    input,
    output,
    cache_read: cacheRead,
    cache_creation: 0,
    total: input + output + cacheRead,
  }
}

const modelRequests = (api: ScriptedResponsesApi) =>
  api.requests.filter((r) => r.route === 'scripted' || r.route === 'exhausted').length

/** A git repo, a scripted API, a Codex home and empty Navi/Claude dirs; all removed after the test. */
async function setUp() {
  const api = await startScriptedResponsesApi()
  const env = await createCodexEnv({ apiUrl: api.baseUrl })
  const repo = await createRepoFixture({ prefix: 'navi-codex-repo-' })
  const scratch = await mkdtemp(join(tmpdir(), 'navi-codex-navi-'))
  onTestFinished(async () => {
    await api.close()
    await disposeCodexEnv(env)
    await repo.cleanup()
    await rm(scratch, { recursive: true, force: true })
  })
  const paths = (name: string): EnginePaths => ({
    naviHome: join(scratch, name, 'navi'),
    claudeConfigDir: join(scratch, name, 'claude'),
    codexHome: env.CODEX_HOME,
  })
  const exec = (prompt: string, args: string[] = []) =>
    runCodexExec({ cwd: repo.dir, env, prompt, timeoutMs: RUN_TIMEOUT_MS, args })
  return { api, env, repo, paths, exec }
}

/** One forced engine cycle over `paths`, the way the tray app starts. */
async function engineView(paths: EnginePaths) {
  const engine = createEngine({ paths, watch: false })
  try {
    const state = await engine.refresh({ force: true })
    return { state, sessions: engine.getSessions(), diagnostics: engine.diagnostics() }
  } finally {
    await engine.stop()
  }
}

function describeRun(run: CodexExecResult): string {
  return `exit ${String(run.exitCode)}, timedOut ${String(run.timedOut)}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`
}

describe.skipIf(codexMissing)(
  codexMissing
    ? 'codex session (SKIPPED: the codex binary is missing, run npm ci)'
    : 'codex session seen by Navi',
  () => {
    it('an exec run with a command and an answer is a codex session of the repo, in the engine and the navi CLI', async () => {
      const { api, env, repo, paths, exec } = await setUp()
      api.enqueue(
        execCommand('echo codex-ran', { reasoning: 'Planning: run echo first.' }),
        textAnswer('All done in codex.'),
      )

      const run = await exec('run the echo please')
      expect(run.exitCode, describeRun(run)).toBe(0)
      const threadId = threadIdOf(run)
      const [command] = eventsOf(run, commandItemSchema)
      expect(command?.item.aggregated_output).toContain('codex-ran')
      expect(command?.item.exit_code).toBe(0)
      expect(eventsOf(run, agentMessageSchema).map((e) => e.item.text)).toEqual([
        'All done in codex.',
      ])
      expect(api.consumed).toBe(2)
      expect(api.exhaustedCount).toBe(0)
      expect(api.functionCallOutputs()[0]?.output).toEqual(expect.stringContaining('codex-ran'))

      const rollouts = await listRollouts(env.CODEX_HOME)
      expect(rollouts).toHaveLength(1)
      const rollout = rollouts[0] ?? ''
      expect(rollout).toMatch(
        new RegExp(`/sessions/\\d{4}/\\d{2}/\\d{2}/rollout-[0-9T-]+-${threadId}\\.jsonl$`),
      )
      expect(await readFile(rollout, 'utf8')).toContain('"type":"task_complete"')

      const { state, sessions, diagnostics } = await engineView(paths('engine'))
      expect(state.errors).toEqual([])
      expect(diagnostics.corruptLines.codex).toBe(0)
      const project = state.projects.find((p) => p.project_dir === repo.dir)
      expect(project, JSON.stringify(state.projects.map((p) => p.project_dir))).toBeDefined()
      expect(project?.is_git).toBe(true)
      expect(project?.sessions).toHaveLength(1)
      const session = project?.sessions[0]
      expect(session).toMatchObject({
        id: threadId,
        agent: 'codex',
        cwd: repo.dir,
        project_dir: repo.dir,
        branch: 'main',
        status: 'ended',
        status_source: 'rollout',
        last_prompt: 'run the echo please',
        transcript_path: rollout,
        tokens: expectedTokens(modelRequests(api)),
      })
      expect(session?.turns).toBeGreaterThanOrEqual(1)
      expect(session?.tokens.total).toBeGreaterThan(0)
      const listed = sessions.filter((s) => s.agent === 'codex')
      expect(listed.map((s) => [s.id, s.project])).toEqual([[threadId, project?.name]])

      const cli = await execa(process.execPath, ['bin/navi.cjs', 'sessions', '--json', '--all'], {
        cwd: repoRoot,
        env: {
          ...hermeticBaseEnv(),
          NAVI_HOME: paths('cli').naviHome,
          CLAUDE_CONFIG_DIR: paths('cli').claudeConfigDir,
          CODEX_HOME: env.CODEX_HOME,
        },
        extendEnv: false,
        stdin: 'ignore',
        timeout: RUN_TIMEOUT_MS,
        reject: false,
      })
      expect(cli.exitCode, String(cli.stderr)).toBe(0)
      const out = sessionsOutputSchema.parse(JSON.parse(String(cli.stdout)))
      const fromCli = out.sessions.filter((s) => s.agent === 'codex')
      expect(fromCli).toHaveLength(1)
      expect(fromCli[0]).toMatchObject({
        id: threadId,
        project: project?.name,
        project_dir: repo.dir,
        status: 'ended',
        turns: session?.turns,
        tokens: session?.tokens,
      })
    })

    it('exec resume appends to the same rollout: still one session, two turns, cumulative tokens', async () => {
      const { api, env, repo, paths, exec } = await setUp()
      api.enqueue(textAnswer('first answer'))
      const first = await exec('first prompt')
      expect(first.exitCode, describeRun(first)).toBe(0)
      const threadId = threadIdOf(first)

      api.enqueue(execCommand('echo resumed'), textAnswer('resumed answer'))
      const second = await exec('continue', ['resume', threadId])
      expect(second.exitCode, describeRun(second)).toBe(0)
      expect(threadIdOf(second)).toBe(threadId)
      expect(await listRollouts(env.CODEX_HOME)).toHaveLength(1)

      const { sessions } = await engineView(paths('engine'))
      const codex = sessions.filter((s) => s.agent === 'codex')
      expect(codex).toHaveLength(1)
      expect(codex[0]).toMatchObject({
        id: threadId,
        project_dir: repo.dir,
        status: 'ended',
        turns: 2,
        // The session is named after its first prompt; the last prompt is what it last worked on.
        name: 'first prompt',
        last_prompt: 'continue',
        tokens: expectedTokens(modelRequests(api)),
      })
      expect(modelRequests(api)).toBe(3)
    })

    it('a turn that fails with HTTP 401 leaves an ended session without tokens', async () => {
      const { api, repo, paths, exec } = await setUp()
      api.enqueue(responsesHttpError(401, { message: 'fake 401 error' }))
      const run = await exec('this will fail')
      expect(run.exitCode, describeRun(run)).toBe(1)
      expect(run.events).toContainEqual(
        expect.objectContaining({
          type: 'turn.failed',
          error: expect.objectContaining({ message: expect.stringContaining('401') }),
        }),
      )
      // request_max_retries = 0: exactly one attempt.
      expect(modelRequests(api)).toBe(1)

      const { sessions } = await engineView(paths('engine'))
      const codex = sessions.filter((s) => s.agent === 'codex')
      expect(codex).toHaveLength(1)
      expect(codex[0]).toMatchObject({
        id: threadIdOf(run),
        project_dir: repo.dir,
        status: 'ended',
        turns: 1,
        tokens: expectedTokens(0),
      })
      // 0.169's rollout ends the turn with the error: the evidence, classed. 0.140's says nothing of it.
      const version = /(\d+)\.(\d+)\.\d+/.exec((await execa(codexBinary(), ['--version'])).stdout)
      if (version && Number(version[1]) === 0 && Number(version[2]) < 169) {
        expect(codex[0]?.api_failure).toBeNull()
      } else {
        expect(codex[0]?.api_failure).toMatchObject({ kind: 'authentication', status: 401 })
        expect(codex[0]?.api_failure?.message).toContain('fake 401 error')
      }
    })

    it('the same command failing three times in a row is failing_command while the run goes on', async () => {
      const { api, repo, paths, exec } = await setUp()
      const missing = `/nonexistent-navi-codex-${String(process.pid)}`
      // The answer after the third failure waits until the test has looked: the session is working meanwhile.
      let looked = false
      api.enqueue(
        execCommand(`ls ${missing}`),
        execCommand(`ls ${missing}`),
        execCommand(`ls ${missing}`),
        textAnswer('It is not there.', { holdUntil: () => looked }),
      )
      const run = exec('list that folder')
      const where = paths('trouble')
      const engine = createEngine({ paths: where, watch: false })
      try {
        let seen: unknown = null
        const failing = await waitUntil(
          async () => {
            await engine.refresh()
            const session = engine.getSessions().find((s) => s.agent === 'codex')
            seen = session ?? null
            return session?.trouble?.kind === 'failing_command' ? session : null
          },
          45_000,
          () =>
            `the codex session to be failing the same command; last seen: ${JSON.stringify(seen)}`,
          250,
        )
        expect(failing.status).toBe('working')
        expect(failing.cwd).toBe(repo.dir)
        expect(failing.trouble?.reason).toBe(
          `the same command failed 3 times in a row: ls ${missing}`,
        )
      } finally {
        looked = true
        await engine.stop()
      }
      const done = await run
      expect(done.exitCode, describeRun(done)).toBe(0)
    })
  },
)
