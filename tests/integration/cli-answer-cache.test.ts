/**
 * The built `navi` keeps a read-only command's answers for the next command while nothing they were
 * computed from changed (electron/runtime/answer-cache/). Differential: after each kind of change (a
 * transcript grows, a session or a project appears, a repository is made, the configuration changes, a
 * live session's process ends, a transcript is removed, the clock passes the answers' horizon), the
 * answer the next command prints is the one a command computing everything prints
 * (NAVI_NO_ANSWER_CACHE=1); and once the change has settled, commands answer from the kept answers
 * again. Over real sessions from ../shared/corpus where it is, and sessions written here everywhere.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURE_GIT_ENV } from '../support/repo-fixture.ts'
import { createNaviEnv, type NaviEnv } from '../support/navi-cli.ts'
import { bundleNaviForTest } from '../support/node-bundle.ts'
import { CORPUS_CLAUDE } from '../support/corpus-dir.ts'
import { useTempDirs } from '../support/temp-paths.ts'
import { waitUntil } from '../support/wait.ts'

const MINUTE = 60_000
const READS = [
  ['status', '--json'],
  ['sessions', '--json', '--all'],
]

let bundle: Awaited<ReturnType<typeof bundleNaviForTest>>
let env: NaviEnv
let work: string
let sleeper: ChildProcess | null = null
const tempDir = useTempDirs('navi-answers-')

beforeAll(async () => {
  bundle = await bundleNaviForTest(`cli-answers-test-${process.pid}`)
  work = tempDir()
  // No tmux server to ask (a command that starts a process keeps no answers).
  env = await createNaviEnv({ TMUX_TMPDIR: tempDir() })
  if (existsSync(CORPUS_CLAUDE)) cpSync(CORPUS_CLAUDE, env.CLAUDE_CONFIG_DIR, { recursive: true })
  writeSession('alpha', 'a0000000-0000-4000-8000-000000000001')
})

afterAll(() => {
  sleeper?.kill('SIGKILL')
  bundle?.dispose()
  for (const dir of [env?.NAVI_HOME, env?.CLAUDE_CONFIG_DIR, env?.CODEX_HOME])
    if (dir) rmSync(dir, { recursive: true, force: true })
})

/** A session's transcript folder for a project folder under `work`. */
const transcriptDir = (project: string) =>
  join(env.CLAUDE_CONFIG_DIR, 'projects', join(work, project).replaceAll('/', '-'))

/** Transcript lines of a finished turn, `minutesAgo` old: settled, so the clock cannot change it. */
function turnLines(project: string, id: string, minutesAgo: number, prompt: string): string {
  const at = (extra: number) => new Date(Date.now() - (minutesAgo * MINUTE - extra)).toISOString()
  const cwd = join(work, project)
  const lines = [
    {
      type: 'user',
      sessionId: id,
      cwd,
      timestamp: at(0),
      message: { role: 'user', content: prompt },
    },
    {
      type: 'assistant',
      sessionId: id,
      cwd,
      timestamp: at(1000),
      message: {
        id: `msg_${String(minutesAgo)}`,
        role: 'assistant',
        content: [{ type: 'text', text: `done: ${prompt}` }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
  ]
  return lines.map((l) => `${JSON.stringify(l)}\n`).join('')
}

function writeSession(project: string, id: string): string {
  mkdirSync(join(work, project), { recursive: true })
  mkdirSync(transcriptDir(project), { recursive: true })
  const file = join(transcriptDir(project), `${id}.jsonl`)
  writeFileSync(file, turnLines(project, id, 20, 'fix the parser'))
  return file
}

async function navi(args: string[], over: Record<string, string> = {}, cwd?: string) {
  const run = await execa('node', [bundle.file, ...args], {
    env: { ...env, NAVI_ANSWER_CACHE_TRACE: '1', ...over },
    ...(cwd ? { cwd } : {}),
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  })
  expect(run.exitCode, String(run.stderr)).toBe(0)
  return { stdout: String(run.stdout), stderr: String(run.stderr) }
}

/** An answer without the times it was made at (a kept one was made before). */
function comparable(stdout: string): unknown {
  return JSON.parse(stdout, (key, value: unknown) =>
    key === 'generated_at' || key === 'captured_at' ? undefined : value,
  )
}

/** Every read answers as a command computing everything answers; returns the traces. */
async function expectComputedAnswers(): Promise<string[]> {
  const traces: string[] = []
  for (const args of READS) {
    const answered = await navi(args)
    const computed = await navi(args, { NAVI_NO_ANSWER_CACHE: '1' })
    expect(comparable(answered.stdout), args.join(' ')).toEqual(comparable(computed.stdout))
    traces.push(answered.stderr)
  }
  return traces
}

/** Commands run until each read's answers are kept (or answered from), then the next answers from them, as computed. */
async function expectKeptAgain(): Promise<void> {
  for (const args of READS) {
    let last = ''
    await waitUntil(
      async () => {
        last = (await navi(args)).stderr
        return /answers (kept for the next command|from )/.test(last)
      },
      30_000,
      () => `answers of ${args.join(' ')} never kept: ${last}`,
    )
  }
  const traces = await expectComputedAnswers()
  for (const trace of traces) expect(trace).toMatch(/navi: answers from /)
}

describe('the answers of read-only commands, kept', () => {
  it('are kept once the files settle, and answer as a computed run does', async () => {
    await expectKeptAgain()
    expect(
      readdirSync(join(env.NAVI_HOME, 'cache')).filter((n) => n.startsWith('answers-')),
    ).toHaveLength(READS.length)
  })

  const changes: Array<[string, () => void | Promise<void>, string]> = [
    [
      'a transcript grows',
      () =>
        appendFileSync(
          join(transcriptDir('alpha'), 'a0000000-0000-4000-8000-000000000001.jsonl'),
          turnLines('alpha', 'a0000000-0000-4000-8000-000000000001', 10, 'and the tests'),
        ),
      'and the tests',
    ],
    [
      'a session appears in a known project',
      () => void writeSession('alpha', 'a0000000-0000-4000-8000-000000000002'),
      'a0000000-0000-4000-8000-000000000002',
    ],
    [
      'a new project appears',
      () => void writeSession('beta', 'b0000000-0000-4000-8000-000000000001'),
      'b0000000-0000-4000-8000-000000000001',
    ],
    [
      'a hook tells that a session ended',
      () => {
        mkdirSync(join(env.NAVI_HOME, 'hooks'), { recursive: true })
        appendFileSync(
          join(env.NAVI_HOME, 'hooks', 'events.jsonl'),
          `${JSON.stringify({
            hook_event_name: 'SessionEnd',
            session_id: 'b0000000-0000-4000-8000-000000000001',
            cwd: join(work, 'beta'),
            reason: 'prompt_input_exit',
            received_at: new Date(Date.now() - 15 * MINUTE).toISOString(),
          })}\n`,
        )
      },
      'user exited',
    ],
    [
      'a Codex session appears',
      () => {
        const id = '019c0000-0000-7000-8000-00000000c0de'
        const dir = join(env.CODEX_HOME, 'sessions', '2026', '01', '02')
        mkdirSync(dir, { recursive: true })
        const at = new Date(Date.now() - 25 * MINUTE).toISOString()
        const meta = {
          id,
          timestamp: at,
          cwd: join(work, 'beta'),
          originator: 'codex_cli_rs',
          cli_version: '0.140.0',
          source: 'cli',
        }
        writeFileSync(
          join(dir, `rollout-2026-01-02T10-00-00-${id}.jsonl`),
          `${JSON.stringify({ timestamp: at, type: 'session_meta', payload: meta })}\n`,
        )
      },
      '019c0000-0000-7000-8000-00000000c0de',
    ],
    [
      'a repository is made where a session works',
      () =>
        void execFileSync('git', ['init', '-q', join(work, 'beta')], {
          env: { ...process.env, ...FIXTURE_GIT_ENV },
        }),
      '"is_git": true',
    ],
    [
      'the configuration ignores a project',
      () =>
        writeFileSync(
          join(env.NAVI_HOME, 'config.yaml'),
          `ignore:\n  - ${join(work, 'alpha')}/**\n`,
        ),
      '',
    ],
    [
      'a transcript is removed',
      () => rmSync(join(transcriptDir('beta'), 'b0000000-0000-4000-8000-000000000001.jsonl')),
      '',
    ],
  ]

  for (const [name, change, shows] of changes) {
    it(`answer as computed when ${name}, and are kept again after`, async () => {
      const before = (await navi(['status', '--json'])).stdout
      await change()
      const traces = await expectComputedAnswers()
      for (const trace of traces) expect(trace).toMatch(/answers computed \((changed|key)/)
      const after = (await navi(['status', '--json'])).stdout
      expect(comparable(after)).not.toEqual(comparable(before))
      if (shows)
        expect(after + (await navi(['sessions', '--json', '--all'])).stdout).toContain(shows)
      await expectKeptAgain()
    })
  }

  it("answer as computed when a live session's process ends", async () => {
    const id = 'c0000000-0000-4000-8000-000000000001'
    writeSession('gamma', id)
    sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    const pid = sleeper.pid ?? 0
    mkdirSync(join(env.CLAUDE_CONFIG_DIR, 'sessions'), { recursive: true })
    writeFileSync(
      join(env.CLAUDE_CONFIG_DIR, 'sessions', `${String(pid)}.json`),
      JSON.stringify({
        pid,
        sessionId: id,
        cwd: join(work, 'gamma'),
        startedAt: Date.now() - 30 * MINUTE,
      }),
    )
    await expectKeptAgain()
    const alive = JSON.parse((await navi(['sessions', '--json', '--all'])).stdout) as {
      sessions: Array<{ id: string; status: string }>
    }
    expect(alive.sessions.find((s) => s.id === id)?.status).toBe('idle')
    const exited = new Promise((done) => sleeper?.once('exit', done))
    sleeper.kill('SIGKILL')
    await exited
    const traces = await expectComputedAnswers()
    for (const trace of traces) expect(trace).toMatch(/answers computed \((changed|pid)/)
    const ended = JSON.parse((await navi(['sessions', '--json', '--all'])).stdout) as typeof alive
    expect(ended.sessions.find((s) => s.id === id)?.status).toBe('ended')
  })

  it('answer as computed once the clock passes their horizon', async () => {
    await expectKeptAgain()
    const dir = join(env.NAVI_HOME, 'cache')
    for (const name of readdirSync(dir).filter((n) => n.startsWith('answers-'))) {
      const file = join(dir, name)
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { until: number }
      saved.until = Date.now() - 1
      writeFileSync(file, JSON.stringify(saved))
    }
    const traces = await expectComputedAnswers()
    for (const trace of traces) expect(trace).toMatch(/answers computed \(clock\)/)
  })

  it("answer as computed when the file holds another question's answers", async () => {
    await expectKeptAgain()
    const dir = join(env.NAVI_HOME, 'cache')
    for (const name of readdirSync(dir).filter((n) => n.startsWith('answers-'))) {
      const file = join(dir, name)
      const saved = JSON.parse(readFileSync(file, 'utf8')) as {
        answers: Array<{ channel: string }>
      }
      for (const answer of saved.answers) answer.channel = 'events:list'
      writeFileSync(file, JSON.stringify(saved))
    }
    const traces = await expectComputedAnswers()
    for (const trace of traces) expect(trace).toMatch(/answers computed \(another question\)/)
  })

  it('answer the same wherever navi runs: a relative cwd in a transcript names no folder here', async () => {
    // An anonymised transcript of the corpus has such a cwd; `navi` run where that relative folder
    // exists found it, and the same sessions answered differently from another folder.
    const id = 'd0000000-0000-4000-8000-000000000001'
    const dir = join(env.CLAUDE_CONFIG_DIR, 'projects', '-rel-project')
    mkdirSync(dir, { recursive: true })
    const line = (extra: Record<string, unknown>) =>
      JSON.stringify({
        sessionId: id,
        cwd: 'rel/project',
        timestamp: new Date(Date.now() - 20 * MINUTE).toISOString(),
        ...extra,
      })
    writeFileSync(
      join(dir, `${id}.jsonl`),
      `${line({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`,
    )
    const where = tempDir()
    mkdirSync(join(where, 'rel', 'project'), { recursive: true })
    const here = await navi(['status', '--json'], { NAVI_NO_ANSWER_CACHE: '1' }, where)
    const elsewhere = await navi(['status', '--json'], { NAVI_NO_ANSWER_CACHE: '1' }, work)
    expect(comparable(here.stdout)).toEqual(comparable(elsewhere.stdout))
    const project = (
      JSON.parse(here.stdout) as { projects: Array<{ project_dir: string; errors: string[] }> }
    ).projects.find((p) => p.project_dir === 'rel/project')
    expect(project?.errors).toContain('rel/project no longer exists')
  })
})
