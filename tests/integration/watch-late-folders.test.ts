/**
 * Folders that appear after `navi watch` started: `~/.claude` does not exist until Claude Code's first
 * run, and Navi may be running (the tray starts at login) before it. The watchers cover such a folder at
 * the next poll; what it already holds by then was never told by a watcher, so that poll lists it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createNaviEnv, startNaviWatch } from '../support/navi-cli.ts'
import { transcriptPath } from '../support/claude-driver.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

describe('folders that appear after navi watch started', () => {
  it('a Claude config folder created after the start: its first session shows at the next poll', async () => {
    const root = await mkdtemp(join(tmpdir(), 'navi-late-folders-'))
    cleanups.push(() => rm(root, { recursive: true, force: true }))
    const claudeConfigDir = join(root, 'claude-not-yet')
    const cwd = join(root, 'work', 'proj')
    await mkdir(cwd, { recursive: true })
    const env = await createNaviEnv({ CLAUDE_CONFIG_DIR: claudeConfigDir })
    cleanups.push(async () => {
      for (const dir of [env.NAVI_HOME, env.CODEX_HOME])
        await rm(dir, { recursive: true, force: true })
    })
    // A short poll, so the test waits seconds for what a user waits 30 s for.
    await writeFile(join(env.NAVI_HOME, 'config.yaml'), 'poll_interval: 1s\n')

    const watch = await startNaviWatch(env)
    try {
      const sessionId = 'c0ffee00-1111-4222-8333-444444444444'
      const transcript = transcriptPath(claudeConfigDir, cwd, sessionId)
      await mkdir(dirname(transcript), { recursive: true })
      await writeFile(
        transcript,
        `${JSON.stringify({
          type: 'user',
          sessionId,
          cwd,
          timestamp: new Date().toISOString(),
          uuid: 'u-first',
          message: { role: 'user', content: 'first prompt on this machine' },
          version: '2.1.332',
        })}\n`,
      )
      const started = await watch.waitForEvent(
        (e) => e.type === 'session_started' && e.session === sessionId,
        20_000,
        'session_started for the first session after ~/.claude appeared',
      )
      expect(started.project).toBe('proj')
    } finally {
      expect((await watch.stop()).exitCode).toBe(0)
    }
  })
})
