/**
 * A real `claude --bg` background session (Claude Code 2.1.330's official background surface) in a git
 * worktree of its own (`-w`, under `<repo>/.claude/worktrees/`): Navi shows it under the main repository,
 * from its live file and transcript like any other session. Skipped, saying so, on a CLI without `--bg`.
 */
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { createEngine } from '../../electron/engine/index.ts'
import {
  claudeBinary,
  claudeIsAtLeast,
  createClaudeEnv,
  disposeClaudeEnv,
  hermeticBaseEnv,
} from '../support/claude-driver.ts'
import { createNaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture } from '../support/repo-fixture.ts'
import { startScriptedApi, text } from '../support/scripted-api.ts'
import { waitUntil } from '../support/wait.ts'

const hasBg = claudeIsAtLeast('2.1.330')

describe('background sessions', () => {
  it.skipIf(!hasBg)(
    hasBg
      ? 'a claude --bg -w session appears under its repository, with its worktree as cwd'
      : 'a claude --bg -w session (skipped: the claude under test predates --bg)',
    async () => {
      const repo = await createRepoFixture({ prefix: 'bg-' })
      const api = await startScriptedApi()
      const env = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [repo.dir] })
      const navi = await createNaviEnv({ CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR })
      const engine = createEngine({
        paths: {
          naviHome: navi.NAVI_HOME,
          claudeConfigDir: env.CLAUDE_CONFIG_DIR,
          codexHome: navi.CODEX_HOME,
        },
        watch: false,
      })
      const cli = (args: string[]) =>
        execa(claudeBinary(), args, {
          cwd: repo.dir,
          env: { ...hermeticBaseEnv(), ...env, DISABLE_AUTOUPDATER: '1' },
          extendEnv: false,
          reject: false,
          timeout: 60_000,
        })
      // The reply waits until the engine has seen the session at work (not ended yet).
      let seen = false
      try {
        api.enqueue(text('background work done', { holdUntil: () => seen }))
        const started = await cli(['--bg', '-w', 'bgwork', 'do the background work'])
        expect(started.exitCode, started.stderr).toBe(0)
        const session = await waitUntil(
          async () => {
            const state = await engine.refresh()
            const project = state.projects.find((p) => p.project_dir === repo.dir)
            return (
              project?.sessions.find((s) => s.cwd.includes(join('.claude', 'worktrees'))) ?? null
            )
          },
          30_000,
          'the background session under its repository',
          250,
        )
        expect(existsSync(join(repo.dir, '.claude', 'worktrees'))).toBe(true)
        expect(session.agent).toBe('claude')
        expect(session.status).not.toBe('ended')
      } finally {
        seen = true
        // The CLI's daemon outlives `--bg`; stop it and its sessions before the config dir goes.
        await cli(['daemon', 'stop', '--any'])
        await engine.stop()
        await api.close()
        await disposeClaudeEnv(env)
        await repo.cleanup()
        await rm(navi.NAVI_HOME, { recursive: true, force: true })
      }
    },
  )
})
