/**
 * A tool call refused without asking: a real `claude -p` in auto permission mode behind a gateway (the
 * scripted API) cannot run auto mode's safety check, so it denies the call and fires `PermissionDenied`.
 * With Navi's hooks installed, that becomes one `permission_denied` event naming the tool and its command.
 * Skipped, saying so, on a CLI older than auto mode.
 */
import { rm } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { eventsOutputSchema } from '../../shared/schemas/cli.ts'
import {
  claudeIsAtLeast,
  createClaudeEnv,
  disposeClaudeEnv,
  runClaudePrint,
} from '../support/claude-driver.ts'
import { createNaviEnv, runNavi } from '../support/navi-cli.ts'
import { createRepoFixture } from '../support/repo-fixture.ts'
import { startScriptedApi, text, toolUse } from '../support/scripted-api.ts'

const hasAutoMode = claudeIsAtLeast('2.1.330')

describe('permission denials', () => {
  it.skipIf(!hasAutoMode)(
    hasAutoMode
      ? 'auto mode refusing a call is a permission_denied event with the tool and its command'
      : 'auto mode denial (skipped: the claude under test predates auto mode as the default)',
    async () => {
      const repo = await createRepoFixture({ prefix: 'deny-' })
      const api = await startScriptedApi()
      const env = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [repo.dir] })
      const navi = await createNaviEnv({ CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR })
      try {
        expect((await runNavi(['hooks', 'install'], navi)).exitCode).toBe(0)
        expect((await runNavi(['status'], navi)).exitCode).toBe(0)
        env.NAVI_HOME = navi.NAVI_HOME
        const outside = `/tmp/navi-deny-${String(process.pid)}`
        api.enqueue(
          toolUse('Bash', { command: `rm -rf ${outside}`, description: 'Remove the marker' }),
          text('could not remove it'),
        )
        await runClaudePrint({
          cwd: repo.dir,
          env,
          prompt: 'remove the marker',
          args: ['--output-format', 'json', '--permission-mode', 'auto'],
          timeoutMs: 60_000,
        })
        const events = eventsOutputSchema.parse(
          (await runNavi(['events', '--json'], navi)).json,
        ).events
        const denials = events.filter((e) => e.type === 'permission_denied')
        expect(denials).toHaveLength(1)
        expect(denials[0]?.details).toMatchObject({ tool: 'Bash', detail: `rm -rf ${outside}` })
        expect(String(denials[0]?.details.reason)).not.toBe('')
      } finally {
        await api.close()
        await disposeClaudeEnv(env)
        await repo.cleanup()
        await rm(navi.NAVI_HOME, { recursive: true, force: true })
      }
    },
  )
})
