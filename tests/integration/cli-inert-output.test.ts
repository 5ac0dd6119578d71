/**
 * Every human output of the real `navi` CLI is inert: untrusted text (a commit subject, a branch, a
 * session's cwd and name, a hook's end reason, a permission request's command, an error path, the PM's
 * briefing) full of ANSI/OSC escapes, C1 controls and bidi overrides is printed, visibly, but nothing in
 * it can act on a terminal (clear the screen, write the clipboard, reverse text).
 */
import { execFileSync } from 'node:child_process'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNaviEnv, runNavi, type NaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'
import { waitUntil } from '../support/wait.ts'
import { execa } from 'execa'
import { findActiveCharacter } from '../../shared/text.ts'

/** Clear screen, OSC 52 clipboard write, a C1 CSI, a right-to-left override and an isolate. */
const HOSTILE = '\u001b[2J\u001b]52;c;SGFja2Vk\u0007PWN\u009b31m\u202eexe.txt\u2066x\u2069'
const SESSION = 'e5c00000-0000-4000-8000-00000000e5c0'

let repo: RepoFixture
let env: NaviEnv
let sessionCwd: string

beforeAll(async () => {
  repo = await createRepoFixture({ prefix: 'navi-inert-' })
  env = await createNaviEnv({ NAVI_CLAUDE_BIN: '/nonexistent/claude' })
  await writeFile(join(env.NAVI_HOME, 'config.yaml'), `projects:\n  - path: ${repo.dir}\n`)
  // The baseline first, so what follows becomes events.
  expect((await runNavi(['status'], env)).exitCode).toBe(0)
  await repo.commit(`fix: ${HOSTILE}`, { 'a.txt': 'a' })
  await repo.git('checkout', '-q', '-b', 'feat/\u202egnp')
  sessionCwd = join(repo.dir, `dir${HOSTILE.replace(/\//g, '_')}`)
  await mkdir(sessionCwd, { recursive: true })
  // A live session (this test process, so alive) whose cwd and name are hostile.
  await mkdir(join(env.CLAUDE_CONFIG_DIR, 'sessions'), { recursive: true })
  await writeFile(
    join(env.CLAUDE_CONFIG_DIR, 'sessions', `${process.pid}.json`),
    JSON.stringify({
      pid: process.pid,
      sessionId: SESSION,
      cwd: sessionCwd,
      name: HOSTILE,
      startedAt: Date.now(),
    }),
  )
  // Hooks: a permission request for a hostile command, then the session ends with a hostile reason.
  const hook = (over: Record<string, unknown>) =>
    JSON.stringify({
      session_id: SESSION,
      cwd: sessionCwd,
      received_at: new Date().toISOString(),
      ...over,
    })
  await mkdir(join(env.NAVI_HOME, 'hooks'), { recursive: true })
  await writeFile(
    join(env.NAVI_HOME, 'hooks', 'events.jsonl'),
    `${hook({ hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_detail: HOSTILE })}\n`,
  )
  // An unreadable file whose path is hostile: doctor and status print its path.
  const listDir = join(env.CLAUDE_CONFIG_DIR, 'tasks', `list${HOSTILE.replace(/\//g, '_')}`)
  await mkdir(listDir, { recursive: true })
  execFileSync('mkfifo', [join(listDir, '1.json')])
  // The PM's cached briefing, written by a model: untrusted too.
  await mkdir(join(env.NAVI_HOME, 'pm'), { recursive: true })
  await writeFile(
    join(env.NAVI_HOME, 'pm', 'last-output.json'),
    JSON.stringify({
      generated_at: new Date().toISOString(),
      trigger: 'commit',
      output: {
        briefing: `All quiet. ${HOSTILE}`,
        projects: [],
        attention_items: [
          { project: HOSTILE, priority: 'high', title: HOSTILE, description: HOSTILE },
        ],
        breadcrumbs: [{ project: HOSTILE, message: HOSTILE }],
      },
    }),
  )
})

afterAll(async () => {
  await repo?.cleanup()
  for (const dir of [env?.NAVI_HOME, env?.CLAUDE_CONFIG_DIR, env?.CODEX_HOME])
    if (dir) await rm(dir, { recursive: true, force: true })
})

function expectInert(text: string): void {
  const at = findActiveCharacter(text)
  expect(
    at,
    `active character at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`,
  ).toBe(-1)
}

describe('human output', () => {
  it.each([
    [['status'], 'PWN'],
    [['sessions', '--all'], 'PWN'],
    [['events'], 'PWN'],
    [['doctor'], 'PWN'],
    [['hooks', 'status'], 'not installed'],
    [['usage'], 'runs'],
    [['brief'], 'PWN'],
  ])('navi %j prints the hostile text inert', async (args, visible) => {
    const run = await runNavi(args, env)
    expect(run.exitCode === 0 || args[0] === 'brief', run.stderr).toBe(true)
    expect(run.stdout + run.stderr).toContain(visible)
    expectInert(run.stdout)
    expectInert(run.stderr)
  })

  it(
    'navi watch prints a hostile commit, branch and end reason inert',
    { timeout: 120_000 },
    async () => {
      const child = execa(
        'node',
        [join(import.meta.dirname, '../../bin/navi.cjs'), 'watch', '--no-pm'],
        {
          env,
          extendEnv: false,
          reject: false,
          buffer: false,
        },
      )
      let out = ''
      child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')))
      child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')))
      try {
        await waitUntil(
          () => out.includes('watching'),
          30_000,
          () => `watch ready: ${out}`,
        )
        await repo.commit(`second ${HOSTILE}`, { 'b.txt': 'b' })
        await writeFile(
          join(env.NAVI_HOME, 'hooks', 'events.jsonl'),
          `${JSON.stringify({ hook_event_name: 'SessionEnd', session_id: SESSION, cwd: sessionCwd, reason: HOSTILE, received_at: new Date().toISOString() })}\n`,
          { flag: 'a' },
        )
        await waitUntil(
          () => out.includes('second') && /ended/.test(out),
          30_000,
          () => `events in: ${out}`,
        )
      } finally {
        child.kill('SIGINT')
        await child
      }
      expect(out).toContain('PWN')
      expectInert(out)
    },
  )

  it('JSON output keeps the text, escaped', async () => {
    const run = await runNavi(['sessions', '--all', '--json'], env)
    expect(run.exitCode).toBe(0)
    expectInert(run.stdout)
    const parsed = JSON.parse(run.stdout) as { sessions: { id: string; name: string }[] }
    expect(parsed.sessions.find((s) => s.id === SESSION)?.name).toBe(HOSTILE)
  })
})
