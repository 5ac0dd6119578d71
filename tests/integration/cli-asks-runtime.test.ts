/**
 * The read-only commands ask a running Navi (`navi watch` here) through its query socket: same answers as
 * computing them in the command itself, a change made just before asking is in the answer, and with no
 * Navi running (or after it stopped) the command computes them itself. A real claude session in a real
 * repository gives them something to say.
 */
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatEvents } from '../../shared/events-text.ts'
import { sessionsOutputSchema } from '../../shared/schemas/cli.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import { engineStateSchema, type EngineState } from '../../shared/schemas/state.ts'
import {
  createClaudeEnv,
  disposeClaudeEnv,
  runClaudePrint,
  type ClaudeEnv,
} from '../support/claude-driver.ts'
import { createNaviEnv, runNavi, startNaviWatch, type NaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'
import { startScriptedApi, text, type ScriptedApi } from '../support/scripted-api.ts'
import { waitUntil } from '../support/wait.ts'

let api: ScriptedApi
let claudeEnv: ClaudeEnv
let naviEnv: NaviEnv
let repo: RepoFixture

beforeAll(async () => {
  api = await startScriptedApi()
  repo = await createRepoFixture({ prefix: 'asked-' })
  claudeEnv = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [repo.dir] })
  naviEnv = await createNaviEnv({ CLAUDE_CONFIG_DIR: claudeEnv.CLAUDE_CONFIG_DIR })
  await claudeSession('look around the repository', 'Looked around; nothing to change.')
})

/** One real claude print run in the repository, answered `reply`; its session id. */
async function claudeSession(prompt: string, reply: string): Promise<string> {
  api.enqueue(text(reply))
  const run = await runClaudePrint({
    cwd: repo.dir,
    env: claudeEnv,
    prompt,
    args: ['--output-format', 'json'],
    timeoutMs: 60_000,
  })
  expect(run.exitCode, run.stderr).toBe(0)
  const id = (run.json as { session_id?: string } | null)?.session_id
  expect(id).toMatch(/^[0-9a-f-]{36}$/)
  return id ?? ''
}

afterAll(async () => {
  await api?.close()
  await disposeClaudeEnv(claudeEnv)
  await repo?.cleanup()
  await rm(naviEnv.NAVI_HOME, { recursive: true, force: true })
  await rm(naviEnv.CODEX_HOME, { recursive: true, force: true })
})

/** What does not depend on when it was asked. */
const timeless = (state: EngineState) =>
  state.projects.map(({ captured_at: _captured, ...project }) => project)

async function status(): Promise<EngineState> {
  const run = await runNavi(['status', '--json'], naviEnv)
  expect(run.exitCode, run.stderr).toBe(0)
  // A command that asked a Navi and got no answer says so here; one that got it says nothing.
  expect(run.stderr).toBe('')
  return engineStateSchema.parse(run.json)
}

/** `fn` run with the time zone `zone` (unset: the machine's), as a command given that TZ runs. */
function inZone<T>(zone: string | undefined, fn: () => T): T {
  const before = process.env.TZ
  const set = (value: string | undefined) => {
    if (value === undefined) delete process.env.TZ
    else process.env.TZ = value
  }
  set(zone)
  try {
    return fn()
  } finally {
    set(before)
  }
}

/**
 * `navi events` prints what `formatEvents` writes of `navi events --json`'s events in the command's zone,
 * as the running Navi's lines or not; asked again should an event come between the two commands.
 */
async function expectEventsText(env: NaviEnv & { TZ?: string }, itsLines: boolean): Promise<void> {
  let last = ''
  await waitUntil(
    async () => {
      const asText = await runNavi(['events'], { ...env, NAVI_ANSWER_CACHE_TRACE: '1' })
      expect(asText.exitCode, asText.stderr).toBe(0)
      expect(asText.stderr.includes('from the running Navi, as its lines')).toBe(itsLines)
      expect(asText.stderr).toContain('from the running Navi')
      const { events } = (await runNavi(['events', '--json'], env)).json as { events: EngineEvent[] }
      expect(events.length).toBeGreaterThan(0)
      const written = inZone(env.TZ, () => formatEvents(events))
      last = `${asText.stdout}\n--- written here ---\n${written}`
      return asText.stdout === written
    },
    30_000,
    () => `the same lines, last:\n${last}`,
    500,
  )
}

describe('read-only commands and a running Navi', () => {
  it('answer the same from the running Navi as computed here, and see a commit made just before', async () => {
    const here = await status()
    expect(here.projects.map((p) => p.project_dir)).toEqual([repo.dir])
    const sessionsHere = sessionsOutputSchema.parse(
      (await runNavi(['sessions', '--all', '--json'], naviEnv)).json,
    )

    const socket = join(naviEnv.NAVI_HOME, 'run', 'query.sock')
    const watch = await startNaviWatch(naviEnv)
    let sha = ''
    try {
      await waitUntil(() => existsSync(socket), 10_000, 'the query socket')
      const asked = await status()
      expect(timeless(asked)).toEqual(timeless(here))
      const sessionsAsked = sessionsOutputSchema.parse(
        (await runNavi(['sessions', '--all', '--json'], naviEnv)).json,
      )
      expect(sessionsAsked.sessions).toEqual(sessionsHere.sessions)

      // No wait between the commit and the question: the answer must already hold it.
      repo.file('notes.txt', 'asked right after\n')
      sha = await repo.commit('docs: a note')
      const after = await status()
      expect(after.projects[0]?.head_sha).toBe(sha)
      expect(after.projects[0]?.git?.recent_commits[0]?.subject).toBe('docs: a note')
      const events = await runNavi(['events', '--json'], naviEnv)
      expect(JSON.stringify(events.json)).toContain(sha)
      // As text: the lines the running Navi writes, the same as written here from its events; a
      // command in another time zone writes its own, in its zone.
      await expectEventsText(naviEnv, true)
      await expectEventsText({ ...naviEnv, TZ: 'Pacific/Kiritimati' }, false)

      // A session that ran just before the question (its transcript written, claude gone) is in the
      // answer too: the running Navi reads what its watchers told before answering.
      const secondId = await claudeSession('look around once more', 'Still nothing to change.')
      const sessionsNow = sessionsOutputSchema.parse(
        (await runNavi(['sessions', '--all', '--json'], naviEnv)).json,
      )
      expect(sessionsNow.sessions.map((s) => s.id)).toContain(secondId)
    } finally {
      await watch.stop()
    }
    expect(existsSync(socket)).toBe(false)
    // Nobody answers now: computed here again, with the commit the running Navi saw.
    const alone = await status()
    expect(alone.projects[0]?.head_sha).toBe(sha)
  })
})
