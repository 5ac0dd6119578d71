/**
 * Trouble from real sessions (engine/core/trouble.ts): a real `claude` against the scripted API that
 * stops making progress, runs the same failing command three times, is rate limited while the CLI
 * retries, and runs out of credit in the TUI. Each is one `session_trouble` event with its evidence and
 * makes the project need the user; each clears itself (`session_trouble_cleared`) when the condition ends.
 */
import { realpath, rm, writeFile } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import type { EventOf } from '../../shared/schemas/event.ts'
import type { Session } from '../../shared/schemas/session.ts'
import { createEngine, type Engine } from '../../electron/engine/index.ts'
import { naviFiles } from '../../electron/engine/core/paths.ts'
import {
  claudeIsAtLeast,
  createClaudeEnv,
  disposeClaudeEnv,
  hasTmux,
  killTmuxServer,
  runClaudePrint,
  startClaudeInTmux,
  TUI_READY,
  type ClaudeEnv,
} from '../support/claude-driver.ts'
import { createNaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'
import {
  httpError,
  startScriptedApi,
  text,
  toolUse,
  type ScriptedApi,
} from '../support/scripted-api.ts'
import { waitUntil } from '../support/wait.ts'

afterAll(() => killTmuxServer())

interface World {
  repo: RepoFixture
  api: ScriptedApi
  env: ClaudeEnv
  engine: Engine
  cleanup(): Promise<void>
}

/** A repository, the scripted API, a claude config and an engine over them, with `config` as config.yaml. */
async function world(prefix: string, config = ''): Promise<World> {
  const repo = await createRepoFixture({ prefix })
  const api = await startScriptedApi()
  const env = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [repo.dir] })
  const navi = await createNaviEnv({ CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR })
  const paths = {
    naviHome: navi.NAVI_HOME,
    claudeConfigDir: navi.CLAUDE_CONFIG_DIR,
    codexHome: navi.CODEX_HOME,
  }
  await writeFile(naviFiles(paths).config, config)
  const engine = createEngine({ paths, watch: false })
  // The first cycle records the baseline; events are told from then on.
  await engine.refresh()
  return {
    repo,
    api,
    env,
    engine,
    async cleanup() {
      await engine.stop()
      await api.close()
      await disposeClaudeEnv(env)
      await repo.cleanup()
      await rm(navi.NAVI_HOME, { recursive: true, force: true })
    },
  }
}

/** The repository's session after a fresh cycle, when `match` holds for it (bounded). */
async function sessionWhen(
  w: World,
  what: string,
  match: (s: Session) => boolean,
): Promise<Session> {
  let seen: Session | null = null
  return waitUntil(
    async () => {
      const state = await w.engine.refresh()
      const dir = await realpath(w.repo.dir)
      seen = state.projects.find((p) => p.project_dir === dir)?.sessions[0] ?? null
      return seen && match(seen) ? seen : null
    },
    45_000,
    () => `${what}; last seen: ${JSON.stringify(seen)}`,
    250,
  )
}

type TroubleEvent = EventOf<'session_trouble'> | EventOf<'session_trouble_cleared'>

/** The log's trouble events, oldest first (the engine lists newest first). */
async function troubleEvents(w: World): Promise<TroubleEvent[]> {
  return [...(await w.engine.listEvents({}))]
    .reverse()
    .filter(
      (e): e is TroubleEvent =>
        e.type === 'session_trouble' || e.type === 'session_trouble_cleared',
    )
}

describe('trouble from real claude sessions', () => {
  it('a session whose model stops answering is stalled, and recovers when it answers', async () => {
    const w = await world('stall-', 'trouble:\n  stalled_after: 3s\n')
    try {
      let answered = false
      w.api.enqueue(text('here at last', { holdUntil: () => answered }))
      const run = runClaudePrint({
        cwd: w.repo.dir,
        env: w.env,
        prompt: 'think hard',
        timeoutMs: 90_000,
      })
      const stalled = await sessionWhen(
        w,
        'the session to be stalled',
        (s) => s.trouble?.kind === 'stalled',
      )
      expect(stalled.status).toBe('working')
      expect(stalled.trouble?.reason).toMatch(/^no progress for \d+ (s|min)/)
      expect(w.engine.getState().projects[0]?.attention).toBe('needs_input')
      answered = true
      await run
      await sessionWhen(w, 'the run to end', (s) => s.status === 'ended' && s.trouble === null)
      expect((await troubleEvents(w)).map((e) => [e.type, e.details.kind])).toEqual([
        ['session_trouble', 'stalled'],
        ['session_trouble_cleared', 'stalled'],
      ])
    } finally {
      await w.cleanup()
    }
  })

  it('the same command failing three times in a row is failing_command, with the command', async () => {
    const w = await world('failing-')
    try {
      const missing = `/nonexistent-navi-${String(process.pid)}`
      const ls = () => toolUse('Bash', { command: `ls ${missing}`, description: 'List it' })
      let seen = false
      w.api.enqueue(ls(), ls(), ls(), text('giving up', { holdUntil: () => seen }))
      const run = runClaudePrint({
        cwd: w.repo.dir,
        env: w.env,
        prompt: 'list the folder',
        args: ['--allowedTools', 'Bash(ls:*)'],
        timeoutMs: 90_000,
      })
      const failing = await sessionWhen(
        w,
        'the same command to have failed three times',
        (s) => s.trouble?.kind === 'failing_command',
      )
      seen = true
      expect(failing.trouble?.reason).toBe(
        `the same command failed 3 times in a row: ls ${missing}`,
      )
      expect(failing.command_streak).toMatchObject({ runs: 3, failures: 3 })
      await run
      await sessionWhen(w, 'the run to end', (s) => s.status === 'ended')
      const events = await troubleEvents(w)
      expect(events.map((e) => [e.type, e.details.kind])).toEqual([
        ['session_trouble', 'failing_command'],
        ['session_trouble_cleared', 'failing_command'],
      ])
      expect(events[0]?.session).toBe(failing.id)
    } finally {
      await w.cleanup()
    }
  })

  // Up to 2.1.197 the CLI writes nothing to the transcript while it retries (only the final error).
  const writesRetries = claudeIsAtLeast('2.1.330')
  it.skipIf(!writesRetries)(
    writesRetries
      ? 'a rate limit the CLI keeps retrying is api_error after the third attempt, cleared when it gets through'
      : 'a rate limit being retried (skipped: the claude under test writes no retry lines to its transcript)',
    async () => {
      const w = await world('ratelimit-')
      try {
        let seen = false
        // Five failures in a row, one second apart: retries of one request are one trouble, not five.
        w.api.enqueue(
          ...Array.from({ length: 5 }, () => httpError(429, { retryAfterSec: 1 })),
          text('through at last', { holdUntil: () => seen }),
        )
        const run = runClaudePrint({
          cwd: w.repo.dir,
          env: { ...w.env, CLAUDE_CODE_MAX_RETRIES: '5' },
          prompt: 'hello',
          timeoutMs: 90_000,
        })
        const limited = await sessionWhen(
          w,
          'the session to be rate limited',
          (s) => s.trouble?.kind === 'api_error',
        )
        expect(limited.api_failure).toMatchObject({ kind: 'rate_limit', retrying: true })
        expect(limited.trouble?.reason).toMatch(/^rate limited/)
        const later = await sessionWhen(
          w,
          'the fifth retry',
          (s) => (s.api_failure?.attempt ?? 0) >= 5,
        )
        seen = true
        expect(later.trouble?.since).toBe(limited.trouble?.since)
        await run
        await sessionWhen(w, 'the run to end', (s) => s.status === 'ended')
        expect((await troubleEvents(w)).map((e) => e.type)).toEqual([
          'session_trouble',
          'session_trouble_cleared',
        ])
      } finally {
        await w.cleanup()
      }
    },
  )

  it.skipIf(!hasTmux())(
    hasTmux()
      ? 'out of credit in the TUI (users’ defaults): api_error as quota until a prompt gets through'
      : 'out of credit in the TUI (skipped: needs tmux)',
    async () => {
      const w = await world('quota-')
      const tui = await startClaudeInTmux({ cwd: w.repo.dir, env: w.env, sessionName: 'quota' })
      try {
        w.api.enqueue(
          httpError(400, {
            type: 'invalid_request_error',
            message: 'Your credit balance is too low to access the Anthropic API.',
          }),
        )
        await tui.waitForScreen(TUI_READY, 30_000)
        await tui.send('hello')
        const broke = await sessionWhen(
          w,
          'the session to be out of credit',
          (s) => s.trouble?.kind === 'api_error',
        )
        expect(broke.status).toBe('idle')
        expect(broke.api_failure).toMatchObject({ kind: 'quota', retrying: false, status: 400 })
        expect(broke.trouble?.reason).toMatch(/^usage limit or quota reached \(400\)/)
        w.api.enqueue(text('credit topped up, hello'))
        await tui.send('hello again')
        await sessionWhen(w, 'the trouble to clear', (s) => s.trouble === null && s.turns >= 2)
        expect((await troubleEvents(w)).map((e) => [e.type, e.details.kind])).toEqual([
          ['session_trouble', 'api_error'],
          ['session_trouble_cleared', 'api_error'],
        ])
      } finally {
        await tui.kill()
        await w.cleanup()
      }
    },
  )
})
