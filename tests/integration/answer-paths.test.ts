/**
 * Acceptance: the other ways an answer reaches a real `claude` (scripted API, Navi's hooks installed, a
 * live Navi runtime):
 * - a dialog on screen in tmux that Navi's hook does not hold (not away): the dialog's key, typed into
 *   the pane after Navi checked the pane shows that very dialog; a deny's reason goes as the next prompt;
 * - a reply to a session that waits at its prompt, typed there (the next API request holds it);
 * - `claude -p` with the user's defaults (no permission flags): the request held by Navi's hook and
 *   allowed from Navi (the CLI's print mode runs PermissionRequest hooks on current releases);
 * - the terminal: `navi away on`, `navi status` showing the held request, `navi answer` allowing it.
 */
import { existsSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Session } from '../../shared/schemas/session.ts'
import { installHooks } from '../../electron/engine/adapters/hooks-install.ts'
import type { NaviRuntime } from '../../electron/runtime/index.ts'
import { answerLogPath } from '../../electron/runtime/answer-request.ts'
import {
  claudeIsAtLeast,
  createClaudeEnv,
  disposeClaudeEnv,
  hasTmux,
  killTmuxServer,
  runClaudePrint,
  startClaudeInTmux,
  TUI_READY,
  type TmuxClaude,
} from '../support/claude-driver.ts'
import { createNaviEnv, enginePathsOf, runNavi, startNaviWatch } from '../support/navi-cli.ts'
import { createRepoFixture } from '../support/repo-fixture.ts'
import { startScriptedApi, text, toolUse, type ScriptedApi } from '../support/scripted-api.ts'
import { waitUntil } from '../support/wait.ts'
import { answerOf, createAnswerWorld } from '../support/answer-world.ts'

const tmuxMissing = !hasTmux()
afterAll(() => killTmuxServer())

async function sessionWhere(
  runtime: NaviRuntime,
  dir: string,
  ready: (s: Session) => boolean,
  what: string,
): Promise<Session> {
  let seen: Session | undefined
  return waitUntil(
    async () => {
      await runtime.engine.refresh()
      seen = runtime.engine.getSessions().find((s) => s.cwd === dir)
      return seen && ready(seen) ? seen : null
    },
    45_000,
    () =>
      `${what} (last seen: ${JSON.stringify(seen?.status)} ${JSON.stringify(seen?.pending_request)})`,
    150,
  )
}

const named = (s: Session) => Boolean(s.pending_request?.request_id && s.tmux_pane && s.tmux_socket)

const world = (label: string) => createAnswerWorld(label)

/** Every user text the API received, in order. */
function userTexts(api: ScriptedApi): string {
  return JSON.stringify(
    api.requests.map((r) => (r.body as { messages?: unknown } | undefined)?.messages ?? null),
  )
}

describe.skipIf(tmuxMissing)(
  'answering in tmux (needs tmux; skipped where it is not installed)',
  () => {
    it('not away: Allow types the dialog\u2019s key into the pane and the tool runs', async () => {
      const w = await world('tmux-allow')
      try {
        w.api.enqueue(toolUse('Bash', { command: `touch ${w.outside}`, description: 'Mark it' }))
        w.api.enqueue(text('Marked.'))
        const claude = await w.startTui()
        await claude.send('please create the marker file')
        const session = await sessionWhere(w.runtime, w.repo.dir, named, 'the named request')
        expect(session.pending_request?.answer_until).toBeNull() // not away: no hook holds it
        await claude.waitForScreen(/Do you want to proceed\?/, 30_000)
        const result = await w.runtime.handlers['session:answer'](answerOf(session, 'allow'))
        expect(result).toMatchObject({ done: true })
        await waitUntil(() => existsSync(w.outside), 30_000, 'the tool to run')
        const log = (await readFile(answerLogPath(w.paths), 'utf8')).trim().split('\n')
        expect(JSON.parse(log.at(-1)!)).toMatchObject({
          path: 'tmux',
          outcome: 'delivered',
          by: 'tray',
        })
      } finally {
        await w.cleanup()
      }
    })

    it('Deny with a reason in tmux: the tool never runs, the reason reaches the agent', async () => {
      const w = await world('tmux-deny')
      try {
        w.api.enqueue(toolUse('Bash', { command: `touch ${w.outside}`, description: 'Mark it' }))
        w.api.enqueue(text('Understood.'))
        const claude = await w.startTui()
        await claude.send('please create the marker file')
        const session = await sessionWhere(w.runtime, w.repo.dir, named, 'the named request')
        await claude.waitForScreen(/Do you want to proceed\?/, 30_000)
        const reason = 'Keep the marker inside the project'
        const result = await w.runtime.handlers['session:answer'](answerOf(session, 'deny', reason))
        expect(result.done).toBe(true)
        await waitUntil(() => userTexts(w.api).includes(reason), 30_000, 'the reason in a request')
        expect(existsSync(w.outside)).toBe(false)
      } finally {
        await w.cleanup()
      }
    })

    it('a reply is typed at the prompt of a session that waits, and reaches the agent', async () => {
      const w = await world('reply')
      try {
        w.api.enqueue(text('Which file should I edit?'))
        w.api.enqueue(text('Editing notes.md.'))
        const claude = await w.startTui()
        await claude.send('tidy up the docs')
        const session = await sessionWhere(
          w.runtime,
          w.repo.dir,
          (s) => (s.status === 'idle' || s.status === 'waiting_input') && s.turns_completed > 0,
          'the session to wait on its user',
        )
        const reply = 'Edit notes.md please'
        const result = await w.runtime.handlers['session:reply']({
          session_id: session.id,
          text: reply,
        })
        expect(result).toEqual({ done: true, message: expect.stringMatching(/^replied to /) })
        await waitUntil(() => userTexts(w.api).includes(reply), 30_000, 'the reply in a request')
        // A session that does not wait is not typed into.
        const busy = await w.runtime.handlers['session:reply']({ session_id: 'nope', text: 'x' })
        expect(busy.done).toBe(false)
      } finally {
        await w.cleanup()
      }
    })

    it('from the terminal: navi away on, navi status shows the held request, navi answer allows it', async () => {
      const repo = await createRepoFixture({ prefix: 'answer-cli-' })
      const api = await startScriptedApi()
      const claudeEnv = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [repo.dir] })
      const env = await createNaviEnv({ CLAUDE_CONFIG_DIR: claudeEnv.CLAUDE_CONFIG_DIR })
      const paths = enginePathsOf(env)
      await installHooks(paths)
      claudeEnv.NAVI_HOME = env.NAVI_HOME
      const outside = `/tmp/navi-answer-${String(process.pid)}-cli`
      await rm(outside, { force: true })
      const watch = await startNaviWatch(env)
      let claude: TmuxClaude | null = null
      try {
        const away = await runNavi(['away', 'on'], env)
        expect(away.exitCode).toBe(0)
        expect(away.stdout).toMatch(/^Away: permission requests of every session wait up to 300s/)
        api.enqueue(toolUse('Bash', { command: `touch ${outside}`, description: 'Mark it' }))
        api.enqueue(text('Marked.'))
        claude = await startClaudeInTmux({
          cwd: repo.dir,
          env: claudeEnv,
          sessionName: 'answer-cli',
          args: ['--permission-mode', 'default'],
        })
        await claude.waitForScreen(TUI_READY, 30_000)
        await claude.send('please create the marker file')
        const status = await waitUntil(
          async () => {
            const out = await runNavi(['status'], env)
            return /answer: navi answer (\S+) allow\|deny/.exec(out.stdout)
          },
          45_000,
          'navi status to show the held request',
          250,
        )
        const answered = await runNavi(['answer', status[1]!, 'allow'], env)
        expect(answered.stdout).toMatch(/^allowed Bash \(touch /)
        expect(answered.exitCode).toBe(0)
        await waitUntil(() => existsSync(outside), 30_000, 'the tool to run')
        const again = await runNavi(['answer', status[1]!, 'allow'], env)
        expect(again.exitCode).toBe(1)
      } finally {
        await claude?.kill()
        await watch.stop()
        await api.close()
        await disposeClaudeEnv(claudeEnv)
        await repo.cleanup()
        await rm(outside, { force: true })
        await rm(env.NAVI_HOME, { recursive: true, force: true })
      }
    })
  },
)

describe('claude -p with the user\u2019s defaults', () => {
  it.skipIf(!claudeIsAtLeast('2.1.300'))(
    'Navi\u2019s hook holds its request and Allow from Navi runs the tool (skipped before 2.1.300: print mode ran no PermissionRequest hook on 2.1.197)',
    async () => {
      const w = await world('print')
      try {
        await writeFile(join(w.paths.naviHome, 'config.yaml'), 'answering:\n  wait: 60s\n')
        await w.runtime.config.reload()
        await w.runtime.handlers['answering:set']({ on: true })
        w.api.enqueue(toolUse('Bash', { command: `touch ${w.outside}`, description: 'Mark it' }))
        w.api.enqueue(text('Marked.'))
        const run = runClaudePrint({
          cwd: w.repo.dir,
          env: w.claudeEnv,
          prompt: 'please create the marker file',
          timeoutMs: 90_000,
        })
        const session = await sessionWhere(
          w.runtime,
          w.repo.dir,
          (s) => Boolean(s.pending_request?.answer_until),
          'the held request',
        )
        expect((await w.runtime.handlers['session:answer'](answerOf(session, 'allow'))).done).toBe(
          true,
        )
        const result = await run
        expect(result.exitCode).toBe(0)
        expect(existsSync(w.outside)).toBe(true)
      } finally {
        await w.cleanup()
      }
    },
  )
})
