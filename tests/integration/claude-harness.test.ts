import { existsSync, realpathSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import { z } from 'zod'
import {
  createClaudeEnv,
  disposeClaudeEnv,
  hasTmux,
  killTmuxServer,
  liveSessionPath,
  readJsonFile,
  readJsonl,
  readTaskFiles,
  runClaudePrint,
  startClaudeInTmux,
  transcriptPath,
  TASK_TOOLS_ON,
  TUI_READY,
  claudeIsAtLeast,
} from '../support/claude-driver.ts'
import {
  httpError,
  startScriptedApi,
  structured,
  text,
  toolUse,
  toolUses,
} from '../support/scripted-api.ts'
import { waitUntil } from '../support/wait.ts'

const RUN_TIMEOUT_MS = 30_000
const tmuxAvailable = hasTmux()

const envelopeSchema = z.object({
  type: z.literal('result'),
  subtype: z.string(),
  is_error: z.boolean(),
  session_id: z.string(),
  num_turns: z.number(),
  result: z.string().optional(),
  structured_output: z.unknown().optional(),
})

const transcriptLineSchema = z.object({
  type: z.string(),
  gitBranch: z.string().optional(),
  aiTitle: z.string().optional(),
  message: z
    .object({
      content: z.union([
        z.string(),
        z.array(
          z.object({
            type: z.string(),
            id: z.string().optional(),
            name: z.string().optional(),
            input: z.unknown().optional(),
          }),
        ),
      ]),
    })
    .optional(),
})

const taskFileSchema = z.object({ id: z.string(), subject: z.string(), status: z.string() })
const liveSessionSchema = z.object({
  pid: z.number(),
  sessionId: z.string(),
  status: z.string().optional(),
  waitingFor: z.string().optional(),
})

/** A git project with one commit on `main`, a scripted API and a fresh config dir; all removed after the test. */
async function setUp(maxRetries?: number, extraEnv?: Record<string, string>) {
  const project = realpathSync(await mkdtemp(join(tmpdir(), 'navi-harness-proj-')))
  const git = (...args: string[]) =>
    execa('git', ['-c', 'user.name=Navi Test', '-c', 'user.email=navi@test.invalid', ...args], {
      cwd: project,
    })
  await git('init', '-q', '-b', 'main')
  await writeFile(join(project, 'README.md'), '# fixture\n')
  await git('add', 'README.md')
  await git('commit', '-q', '-m', 'initial')
  const api = await startScriptedApi()
  const env = await createClaudeEnv({
    apiUrl: api.url,
    trustedDirs: [project],
    maxRetries,
    ...(extraEnv ? { extraEnv } : {}),
  })
  onTestFinished(async () => {
    await api.close()
    await disposeClaudeEnv(env)
    await rm(project, { recursive: true, force: true })
  })
  return { api, env, project }
}

describe('claude harness (real CLI against the scripted API)', () => {
  afterAll(() => killTmuxServer())

  it('print mode: a scripted Write really writes the file, the transcript records it, the tool_result comes back', async () => {
    const { api, env, project } = await setUp()
    const notes = join(project, 'notes.md')
    api.enqueue(
      toolUse(
        'Write',
        { file_path: notes, content: '# Notes\nline1\n' },
        { text: 'I will write a file.' },
      ),
      text('wrote the notes'),
    )

    const run = await runClaudePrint({
      cwd: project,
      env,
      prompt: 'write the notes',
      args: ['--output-format', 'json', '--permission-mode', 'acceptEdits'],
      timeoutMs: RUN_TIMEOUT_MS,
    })

    expect(run.stderr).toBe('')
    expect(run.exitCode).toBe(0)
    const envelope = envelopeSchema.parse(run.json)
    expect(envelope.is_error).toBe(false)
    expect(envelope.result).toBe('wrote the notes')
    expect(await readFile(notes, 'utf8')).toBe('# Notes\nline1\n')

    const lines = (
      await readJsonl(transcriptPath(env.CLAUDE_CONFIG_DIR, project, envelope.session_id))
    ).map((l) => transcriptLineSchema.safeParse(l))
    const toolUseBlocks = lines.flatMap((l) =>
      l.success && l.data.type === 'assistant' && Array.isArray(l.data.message?.content)
        ? l.data.message.content.filter((b) => b.type === 'tool_use' && b.name === 'Write')
        : [],
    )
    expect(toolUseBlocks).toHaveLength(1)
    expect(toolUseBlocks[0]?.input).toEqual({ file_path: notes, content: '# Notes\nline1\n' })
    expect(lines.some((l) => l.success && l.data.gitBranch === 'main')).toBe(true)
    // Up to 2.1.197 a print run asks a tool-less side request for a title (answered with the fake's
    // fixed one) and writes it as `ai-title`; 2.1.330 writes no title for print runs.
    const titles = lines.flatMap((l) =>
      l.success && l.data.type === 'ai-title' ? [l.data.aiTitle] : [],
    )
    expect(titles).toEqual(claudeIsAtLeast('2.1.330') ? [] : ['Scripted session title'])

    const writeResult = api.toolResults().find((r) => r.tool_use_id === toolUseBlocks[0]?.id)
    expect(writeResult?.is_error).not.toBe(true)
    expect(String(writeResult?.content)).toContain('File created successfully')
    expect(api.consumed).toBe(2)
    expect(api.exhaustedCount).toBe(0)
  })

  it('with the task tools on, TaskCreate x2 then TaskUpdate(completed) writes task files under tasks/<session id>/', async () => {
    const { api, env, project } = await setUp(undefined, TASK_TOOLS_ON)
    api.enqueue(
      toolUses([
        {
          name: 'TaskCreate',
          input: {
            subject: 'Write docs',
            description: 'Write the docs',
            activeForm: 'Writing docs',
          },
        },
        {
          name: 'TaskCreate',
          input: {
            subject: 'Review docs',
            description: 'Review them',
            activeForm: 'Reviewing docs',
          },
        },
      ]),
      toolUse('TaskUpdate', { taskId: '1', status: 'completed' }),
      text('tasks recorded'),
    )

    const run = await runClaudePrint({
      cwd: project,
      env,
      prompt: 'plan the docs',
      args: ['--output-format', 'json'],
      timeoutMs: RUN_TIMEOUT_MS,
    })

    expect(run.exitCode).toBe(0)
    const envelope = envelopeSchema.parse(run.json)
    const files = await readTaskFiles(env.CLAUDE_CONFIG_DIR, envelope.session_id)
    const tasks = files.map((f) => taskFileSchema.parse(f.task))
    expect(files.map((f) => f.file)).toEqual(['1.json', '2.json'])
    expect(tasks.map((t) => [t.id, t.subject, t.status])).toEqual([
      ['1', 'Write docs', 'completed'],
      ['2', 'Review docs', 'pending'],
    ])
    expect(api.exhaustedCount).toBe(0)
  })

  it('--json-schema with a StructuredOutput call puts structured_output in the json envelope', async () => {
    const { api, env, project } = await setUp()
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, count: { type: 'integer' } },
      required: ['name', 'count'],
    }
    api.enqueue(structured({ name: 'widget', count: 3 }))

    const run = await runClaudePrint({
      cwd: project,
      env,
      prompt: 'describe the widget',
      args: ['--output-format', 'json', '--json-schema', JSON.stringify(schema)],
      timeoutMs: RUN_TIMEOUT_MS,
    })

    expect(run.exitCode).toBe(0)
    const envelope = envelopeSchema.parse(run.json)
    expect(envelope.is_error).toBe(false)
    expect(envelope.structured_output).toEqual({ name: 'widget', count: 3 })
    const scripted = api.requests.find((r) => r.route === 'scripted')
    const tools = z
      .object({ tools: z.array(z.object({ name: z.string(), input_schema: z.unknown() })) })
      .parse(scripted?.body).tools
    expect(tools.find((t) => t.name === 'StructuredOutput')?.input_schema).toMatchObject(schema)
    expect(api.exhaustedCount).toBe(0)
  })

  it('a 429 with retry-after 1 is retried by the CLI and the run then succeeds', async () => {
    const { api, env, project } = await setUp(2)
    api.enqueue(httpError(429, { retryAfterSec: 1 }), text('recovered after 429'))

    const run = await runClaudePrint({
      cwd: project,
      env,
      prompt: 'say something',
      args: ['--output-format', 'json'],
      timeoutMs: RUN_TIMEOUT_MS,
    })

    expect(run.exitCode).toBe(0)
    const envelope = envelopeSchema.parse(run.json)
    expect(envelope).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: 'recovered after 429',
    })
    const [failed, retried] = api.requests.filter((r) => r.route === 'scripted')
    expect(failed && retried).toBeTruthy()
    // retry-after: 1 is honoured, so the retry comes about a second later.
    expect((retried?.receivedAt ?? 0) - (failed?.receivedAt ?? 0)).toBeGreaterThanOrEqual(900)
    expect(api.exhaustedCount).toBe(0)
  })

  it.skipIf(!tmuxAvailable)(
    tmuxAvailable
      ? 'interactive TUI in tmux: a Bash call outside the project opens the permission dialog, the live session says waiting'
      : 'interactive TUI in tmux (skipped: tmux is not installed)',
    // Two bounded waits of up to a minute each for the TUI on a loaded machine.
    { timeout: 180_000 },
    async () => {
      const { api, env, project } = await setUp()
      const outside = join(
        tmpdir(),
        `navi-harness-${String(process.pid)}-${String(Date.now())}-outside`,
      )
      onTestFinished(() => rm(outside, { force: true }))
      api.enqueue(
        toolUse('Bash', { command: `touch ${outside}`, description: 'Create a marker file' }),
      )

      const tui = await startClaudeInTmux({
        cwd: project,
        env,
        sessionName: `perm-${String(Date.now())}`,
        // The classic permission dialog: 2.1.330 starts in auto mode, whose gateway dialog differs
        // (engine-permission.test.ts runs both).
        args: ['--permission-mode', 'default'],
      })
      try {
        await tui.waitForScreen(TUI_READY, 60_000)
        const pid = await tui.claudePid()

        await tui.send('please create the marker file')
        const screen = await tui.waitForScreen(/Do you want to proceed\?/, 60_000)
        expect(screen).toContain(`touch ${outside}`)

        const live = await waitUntil(
          async () => {
            const parsed = liveSessionSchema.safeParse(
              await readJsonFile(liveSessionPath(env.CLAUDE_CONFIG_DIR, pid)),
            )
            return parsed.success && parsed.data.status === 'waiting' ? parsed.data : undefined
          },
          10_000,
          `sessions/${String(pid)}.json with status "waiting"`,
        )
        expect(live).toMatchObject({ pid, waitingFor: 'permission prompt' })
        const scripted = api.requests.find((r) => r.route === 'scripted')
        expect(scripted?.headers['x-claude-code-session-id']).toBe(live.sessionId)
        expect(existsSync(outside)).toBe(false)
        expect(api.exhaustedCount).toBe(0)
      } finally {
        // Before the config dir is removed: the CLI writes its state while exiting.
        await tui.kill()
      }
    },
  )
})
