/**
 * Acceptance: a real `codex` permission request answered from Navi through Codex's `PermissionRequest`
 * hook (`navi hooks install codex` puts Navi's handler in `$CODEX_HOME/hooks.json`), against the scripted
 * Responses API. The model asks to run a command outside the workspace sandbox (`require_escalated`);
 * with Away on and a live Navi listening, the hook holds the request, Navi shows the Codex session as
 * needing permission with the command, and Allow from Navi runs it (its file appears on disk).
 *
 * Two stand-ins for what a user does once, each said where it is used: `--dangerously-bypass-hook-trust`
 * stands for the user trusting Navi's hook in Codex's `/hooks` review (Codex skips an untrusted hook
 * silently), and `approvals_reviewer="auto_review"` keeps `codex exec` on the approval path (plain exec
 * never asks: it forces `approval_policy = never`). The bypass works in `exec` from 0.169 on (0.140 runs
 * no hook at all with it, an upstream bug), so the test is skipped on older Codex versions.
 */
import { existsSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { installCodexHooks } from '../../electron/engine/adapters/codex-hooks-install.ts'
import { createNaviRuntime } from '../../electron/runtime/index.ts'
import { answerOf, escalatedCodexCommand, heldCodexSession } from '../support/answer-world.ts'
import {
  codexAtLeast,
  createCodexEnv,
  disposeCodexEnv,
  runCodexExec,
} from '../support/codex-driver.ts'
import { createNaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture } from '../support/repo-fixture.ts'
import {
  collectFunctionCallOutputs,
  startScriptedResponsesApi,
  textAnswer,
} from '../support/scripted-responses-api.ts'

const supported = await codexAtLeast(169)

describe('answering a real codex from Navi', () => {
  it.skipIf(!supported).each(['allow', 'deny'] as const)(
    supported
      ? 'a held PermissionRequest of codex exec, answered %s from Navi'
      : 'a held PermissionRequest of codex exec, %s (skipped: needs codex 0.169+, whose exec honours hook trust)',
    async (decision) => {
      const repo = await createRepoFixture({ prefix: 'answer-codex-' })
      const api = await startScriptedResponsesApi()
      const codexEnv = await createCodexEnv({ apiUrl: api.baseUrl })
      const naviEnv = await createNaviEnv({ CODEX_HOME: codexEnv.CODEX_HOME })
      const paths = {
        naviHome: naviEnv.NAVI_HOME,
        claudeConfigDir: naviEnv.CLAUDE_CONFIG_DIR,
        codexHome: codexEnv.CODEX_HOME,
      }
      const outside = `/tmp/navi-answer-codex-${String(process.pid)}`
      await rm(outside, { force: true })
      await writeFile(join(paths.naviHome, 'config.yaml'), 'answering:\n  wait: 60s\n')
      const installed = await installCodexHooks(paths)
      expect(installed.trust).toMatch(/\/hooks/)
      const runtime = await createNaviRuntime({ paths, mode: 'live', pm: false })
      await runtime.start()
      try {
        await runtime.handlers['answering:set']({ on: true })
        api.enqueue(
          escalatedCodexCommand(`echo ran > ${outside}`, 'call_perm_1'),
          textAnswer('done'),
        )
        const run = runCodexExec({
          cwd: repo.dir,
          env: codexEnv,
          prompt: 'write the marker',
          timeoutMs: 90_000,
          args: [
            '--sandbox',
            'workspace-write',
            '-c',
            'approval_policy="on-request"',
            '-c',
            'approvals_reviewer="auto_review"',
            // Stands for the user's one-time trust of Navi's hook in Codex's /hooks review.
            '--dangerously-bypass-hook-trust',
          ],
        })
        const session = await heldCodexSession(runtime)
        expect(session.status).toBe('needs_permission')
        expect(session.pending_request).toMatchObject({ tool: 'Bash' })
        expect(session.pending_request?.detail).toContain(`echo ran > ${outside}`)
        expect(session.pending_request?.description).toBe('Write the marker outside the workspace')
        // The thread is one session: no Claude session made up from Codex's hook lines.
        expect(runtime.engine.getSessions().filter((s) => s.id === session.id)).toHaveLength(1)
        const reason = 'Keep the marker inside the workspace'
        const answered = await runtime.handlers['session:answer'](
          answerOf(session, decision, decision === 'deny' ? reason : undefined),
        )
        expect(answered.done).toBe(true)
        const result = await run
        expect(result.exitCode, result.stderr).toBe(0)
        // Allowed: the command ran outside the sandbox. Denied: it never ran, and the model was told why.
        expect(existsSync(outside)).toBe(decision === 'allow')
        const outputs = JSON.stringify(collectFunctionCallOutputs(api.requests))
        if (decision === 'deny') expect(outputs).toContain(reason)
      } finally {
        await runtime.stop()
        await api.close()
        await disposeCodexEnv(codexEnv)
        await repo.cleanup()
        await rm(outside, { force: true })
        await rm(naviEnv.NAVI_HOME, { recursive: true, force: true })
      }
    },
  )
})
