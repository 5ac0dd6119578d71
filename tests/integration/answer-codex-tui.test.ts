/**
 * Acceptance: the interactive `codex` TUI in tmux, with a user's defaults (a trusted folder, no approval
 * flags), answered from Navi through Codex's `PermissionRequest` hook. Nothing stands in for the user's
 * one-time trust of the hook: Codex asks for it at start ("Hooks need review") and the test picks "Trust
 * all and continue" on that screen, then checks that Navi reads the trust Codex recorded (what
 * `navi doctor` and `navi hooks status codex` say).
 *
 * The model asks to run a command outside the workspace sandbox (`require_escalated`); with Away on and a
 * live Navi listening, the hook holds the request (Codex shows "Running hook", not its dialog, while it
 * waits), Navi shows the session as needing permission with the command, and Allow or Deny from Navi
 * decides. With no answer, the hold ends at `answering.wait`, Codex's own dialog shows, and nothing ran;
 * Navi then answers that dialog in the pane (its `y` key), and a reply is typed at Codex's prompt.
 */
import { existsSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  codexHooksStatus,
  installCodexHooks,
} from '../../electron/engine/adapters/codex-hooks-install.ts'
import { createNaviRuntime } from '../../electron/runtime/index.ts'
import { answerOf, escalatedCodexCommand, heldCodexSession } from '../support/answer-world.ts'
import { hasTmux, killTmuxServer, startClaudeInTmux } from '../support/claude-tmux.ts'
import {
  codexAtLeast,
  codexBinary,
  createCodexEnv,
  disposeCodexEnv,
} from '../support/codex-driver.ts'
import { doctorOutputSchema } from '../../shared/schemas/cli.ts'
import { createNaviEnv, runNavi, type NaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture } from '../support/repo-fixture.ts'
import {
  collectFunctionCallOutputs,
  startScriptedResponsesApi,
  textAnswer,
} from '../support/scripted-responses-api.ts'
import { waitUntil } from '../support/wait.ts'

/** What `navi doctor` (the real CLI) says of Codex's hook. */
async function doctorCodexCheck(env: NaviEnv) {
  const run = await runNavi(['doctor', '--json'], env)
  const report = doctorOutputSchema.parse(run.json)
  return report.checks.find((c) => c.name === 'codex hooks')
}

const supported = hasTmux() && (await codexAtLeast(169))

afterAll(() => killTmuxServer())

describe('answering the real codex TUI from Navi', () => {
  it.skipIf(!supported).each(['allow', 'deny', 'no answer'] as const)(
    supported
      ? "codex's TUI in tmux, its held request answered: %s"
      : "codex's TUI in tmux, %s (skipped: needs tmux and codex 0.169+, whose hook review this test drives)",
    async (decision) => {
      const repo = await createRepoFixture({ prefix: 'answer-codex-tui-' })
      const api = await startScriptedResponsesApi()
      // A folder the user trusted once (Codex asks on the first start there).
      const codexEnv = await createCodexEnv({
        apiUrl: api.baseUrl,
        extraConfig: `[projects.${JSON.stringify(repo.dir)}]\ntrust_level = "trusted"\n`,
      })
      const naviEnv = await createNaviEnv({ CODEX_HOME: codexEnv.CODEX_HOME })
      const paths = {
        naviHome: naviEnv.NAVI_HOME,
        claudeConfigDir: naviEnv.CLAUDE_CONFIG_DIR,
        codexHome: codexEnv.CODEX_HOME,
      }
      const outside = `/tmp/navi-answer-codex-tui-${String(process.pid)}-${decision.replace(' ', '-')}`
      await rm(outside, { force: true })
      // No answer: a hold long enough for a loaded machine to show it held (the runtime and the screen), short
      // enough to wait out.
      const wait = decision === 'no answer' ? '10s' : '60s'
      await writeFile(join(paths.naviHome, 'config.yaml'), `answering:\n  wait: ${wait}\n`)
      await installCodexHooks(paths)
      const before = await codexHooksStatus(paths)
      expect(before).toMatchObject({ installed: true, outdated: false, trusted: [] })
      expect(before.untrusted).toContain('PermissionRequest')
      if (decision === 'deny') {
        expect(await doctorCodexCheck(naviEnv)).toMatchObject({
          ok: false,
          detail: expect.stringContaining('not trusted by Codex yet'),
          fix: expect.stringContaining('/hooks'),
        })
      }

      const runtime = await createNaviRuntime({ paths, mode: 'live', pm: false })
      await runtime.start()
      const tui = await startClaudeInTmux({
        cwd: repo.dir,
        env: { ...codexEnv, TERM: 'xterm-256color' },
        sessionName: `codex-${decision.replace(' ', '-')}`,
        binary: codexBinary(),
      })
      try {
        await runtime.handlers['answering:set']({ on: true })
        // The user's one-time review: "2. Trust all and continue".
        await tui.waitForScreen(/Hooks need review[\s\S]*Trust all and continue/, 30_000)
        // A key pressed while the screen still starts up is dropped: press again until it is taken.
        await waitUntil(
          async () => {
            await tui.sendKeys('2')
            return tui.waitForScreen(/› 2\. Trust all and continue/, 1_000).catch(() => null)
          },
          20_000,
          'the review screen taking "2"',
        )
        await tui.sendKeys('Enter')
        await tui.waitForScreen(/Ask Codex to do anything/, 60_000)
        const after = await waitUntil(
          async () => {
            const status = await codexHooksStatus(paths)
            return status.untrusted.length === 0 ? status : null
          },
          10_000,
          "Codex's recorded trust of Navi's hook",
        )
        expect(after.trusted).toEqual(['PermissionRequest', 'PostToolUse', 'Stop'])
        if (decision === 'deny') {
          expect(await doctorCodexCheck(naviEnv)).toMatchObject({
            ok: true,
            detail: expect.stringContaining("trusted in Codex's config.toml"),
          })
        }

        api.enqueue(
          escalatedCodexCommand(`echo ran > ${outside}`, 'call_perm_tui'),
          textAnswer('done'),
        )
        await tui.send('write the marker')
        const session = await heldCodexSession(runtime)
        expect(session.status).toBe('needs_permission')
        expect(session.pending_request?.detail).toContain(`echo ran > ${outside}`)
        // While the hook holds the request, Codex shows no dialog of its own.
        await tui.waitForScreen(/Running hook/, 10_000)

        if (decision === 'no answer') {
          // The hold ends at answering.wait; Codex's own dialog then asks, and nothing ran.
          const screen = await tui.waitForScreen(/Would you like to run/, 30_000)
          expect(screen).not.toMatch(/Ran echo ran/)
          expect(existsSync(outside)).toBe(false)
          // The dialog is on screen in tmux, and Navi knows the pane (the hook named the codex
          // process): Allow from Navi now types the dialog's own key there.
          const inPane = await waitUntil(
            async () => {
              await runtime.engine.refresh()
              const now = runtime.engine.getSessions().find((s) => s.id === session.id)
              return now?.tmux_pane && now.pending_request ? now : null
            },
            15_000,
            'the codex session with its tmux pane',
          )
          expect(inPane.tmux_pane).toBe(tui.paneId)
          const typed = await runtime.handlers['session:answer'](answerOf(inPane, 'allow'))
          expect(typed, typed.message).toMatchObject({ done: true })
          expect(typed.message).toMatch(/in the terminal/)
          await waitUntil(() => existsSync(outside), 30_000, 'the command allowed in the pane')
          await tui.waitForScreen(/Worked for/, 60_000)
          // A reply typed at its prompt reaches the agent: the next request to the API holds it.
          api.enqueue(textAnswer('noted'))
          const text = `reply from navi ${String(process.pid)}`
          const replied = await waitUntil(
            async () => {
              await runtime.engine.refresh()
              const result = await runtime.handlers['session:reply']({
                session_id: session.id,
                text,
              })
              return result.done ? result : null
            },
            30_000,
            'a reply Navi could type',
            500,
          )
          expect(replied.message).toMatch(/replied/)
          await waitUntil(
            () => api.requests.some((r) => JSON.stringify(r.body ?? null).includes(text)),
            30_000,
            'the reply in the next request to the API',
          )
          return
        }
        const reason = 'Keep the marker inside the workspace'
        const answered = await runtime.handlers['session:answer'](
          answerOf(session, decision, decision === 'deny' ? reason : undefined),
        )
        expect(answered.done).toBe(true)
        await tui.waitForScreen(/Worked for|done/, 60_000)
        await waitUntil(() => api.requests.length >= 2, 30_000, 'the turn after the answer')
        expect(existsSync(outside)).toBe(decision === 'allow')
        if (decision === 'deny') {
          expect(JSON.stringify(collectFunctionCallOutputs(api.requests))).toContain(reason)
        }
        // The session moves on: it no longer waits on that request.
        await waitUntil(
          async () => {
            await runtime.engine.refresh()
            const now = runtime.engine.getSessions().find((s) => s.id === session.id)
            return now && !now.pending_request ? now : null
          },
          30_000,
          'the codex session past its request',
        )
      } finally {
        await tui.kill()
        await runtime.stop()
        await api.close()
        await disposeCodexEnv(codexEnv)
        await repo.cleanup()
        await rm(outside, { force: true })
        await rm(naviEnv.NAVI_HOME, { recursive: true, force: true })
      }
    },
    150_000,
  )
})
