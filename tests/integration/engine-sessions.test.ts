/**
 * Acceptance: real git repositories, real `claude` sessions against the scripted API, and the real `navi`
 * CLI as a subprocess (watch, status, events), sharing one CLAUDE_CONFIG_DIR and NAVI_HOME.
 */
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engineStateSchema } from '../../shared/schemas/state.ts'
import { eventsOutputSchema } from '../../shared/schemas/cli.ts'
import {
  createClaudeEnv,
  disposeClaudeEnv,
  runClaudePrint,
  TASK_TOOLS_ON,
  type ClaudeEnv,
} from '../support/claude-driver.ts'
import { createNaviEnv, runNavi, startNaviWatch, type NaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'
import {
  startScriptedApi,
  text,
  toolUse,
  toolUses,
  type ScriptedApi,
} from '../support/scripted-api.ts'
import { detailOf } from '../support/pm-events-fixture.ts'

let api: ScriptedApi
let claudeEnv: ClaudeEnv
let naviEnv: NaviEnv
let apollo: RepoFixture
let mnemos: RepoFixture

beforeAll(async () => {
  api = await startScriptedApi()
  apollo = await createRepoFixture({ prefix: 'apollo-' })
  mnemos = await createRepoFixture({ prefix: 'mnemos-' })
  await mkdir(join(apollo.dir, 'src'))
  claudeEnv = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [apollo.dir, mnemos.dir] })
  naviEnv = await createNaviEnv({ CLAUDE_CONFIG_DIR: claudeEnv.CLAUDE_CONFIG_DIR })
})

afterAll(async () => {
  await api?.close()
  await disposeClaudeEnv(claudeEnv)
  await apollo?.cleanup()
  await mnemos?.cleanup()
  await rm(naviEnv.NAVI_HOME, { recursive: true, force: true })
  await rm(naviEnv.CODEX_HOME, { recursive: true, force: true })
})

async function claude(cwd: string, prompt: string, extraEnv: object = {}): Promise<string> {
  const run = await runClaudePrint({
    cwd,
    env: { ...claudeEnv, ...extraEnv },
    prompt,
    args: ['--output-format', 'json', '--permission-mode', 'acceptEdits'],
    timeoutMs: 60_000,
  })
  expect(run.exitCode, run.stderr).toBe(0)
  const sessionId = (run.json as { session_id?: string } | undefined)?.session_id
  expect(sessionId).toBeTruthy()
  return sessionId as string
}

describe('engine on real claude sessions and real repositories', () => {
  it('groups three sessions under two projects, with task counts and task/session events', async () => {
    // Baseline first: Navi has seen the machine before these sessions start.
    expect((await runNavi(['status'], naviEnv)).exitCode).toBe(0)
    const watch = await startNaviWatch(naviEnv)
    try {
      // No delays: the whole list is created, worked and finished between two of the watcher's looks,
      // and every step must still be told, in order, at the time the transcript gives it.
      api.enqueue(
        toolUses([
          {
            name: 'TaskCreate',
            input: { subject: 'Write docs', description: 'd', activeForm: 'Writing docs' },
          },
          {
            name: 'TaskCreate',
            input: { subject: 'Review docs', description: 'r', activeForm: 'Reviewing' },
          },
        ]),
        toolUse('TaskUpdate', { taskId: '1', status: 'in_progress' }),
        toolUse('TaskUpdate', { taskId: '1', status: 'completed' }),
        toolUse('TaskUpdate', { taskId: '2', status: 'in_progress' }),
        toolUse('TaskUpdate', { taskId: '2', status: 'completed' }),
        text('docs planned and done'),
      )
      // Task tracking needs the task tools, off by default for current models (2.1.330); the two other
      // sessions run with the CLI's defaults.
      const taskSession = await claude(apollo.dir, 'plan and write the docs', TASK_TOOLS_ON)
      api.enqueue(
        toolUse('Write', { file_path: join(apollo.dir, 'src', 'notes.md'), content: 'notes\n' }),
        text('wrote notes'),
      )
      const srcSession = await claude(join(apollo.dir, 'src'), 'write notes')
      api.enqueue(text('hello from mnemos'))
      const mnemosSession = await claude(mnemos.dir, 'say hello')

      await watch.waitForEvent(
        (e) => e.type === 'pbi_completed',
        20_000,
        'pbi_completed from watch',
      )
      await watch.waitForEvent(
        (e) => e.type === 'session_started' && e.session === mnemosSession,
        20_000,
        'the mnemos session to be seen',
      )
      const { exitCode } = await watch.stop()
      expect(exitCode).toBe(0)

      const status = await runNavi(['status', '--json'], naviEnv)
      expect(status.exitCode, status.stderr).toBe(0)
      const state = engineStateSchema.parse(status.json)
      const byName = new Map(state.projects.map((p) => [p.name, p]))
      const apolloProject = [...byName.values()].find((p) => p.project_dir === apollo.dir)
      const mnemosProject = [...byName.values()].find((p) => p.project_dir === mnemos.dir)
      expect(apolloProject, JSON.stringify(state.projects.map((p) => p.project_dir))).toBeDefined()
      expect(new Set(apolloProject?.sessions.map((s) => s.id))).toEqual(
        new Set([taskSession, srcSession]),
      )
      expect(mnemosProject?.sessions.map((s) => s.id)).toEqual([mnemosSession])
      expect(apolloProject?.current_pbi?.tasks).toEqual({
        done: 2,
        in_progress: 0,
        todo: 0,
        total: 2,
      })
      expect(apolloProject?.attention).toBe('pbi_complete')
      expect(apolloProject?.branch).toBe('main')
      expect(mnemosProject?.current_pbi).toBeNull()

      const eventsRun = await runNavi(['events', '--json'], naviEnv)
      const { events } = eventsOutputSchema.parse(eventsRun.json)
      const of = (type: string, project: string | undefined) =>
        events.filter((e) => e.type === type && e.project === project)
      expect(
        of('session_started', apolloProject?.name)
          .map((e) => e.session)
          .sort(),
      ).toEqual([taskSession, srcSession].sort())
      expect(of('session_started', mnemosProject?.name).map((e) => e.session)).toEqual([
        mnemosSession,
      ])
      expect(
        of('task_started', apolloProject?.name)
          .map((e) => detailOf(e, 'task_title'))
          .sort(),
      ).toEqual(['Review docs', 'Write docs'])
      expect(of('task_completed', apolloProject?.name)).toHaveLength(2)
      expect(of('pbi_completed', apolloProject?.name)).toHaveLength(1)
      // Each step at its own time, in the order the agent took it (Write docs, then Review docs).
      const step = (type: string, title: string) =>
        Date.parse(
          of(type, apolloProject?.name).find((e) => detailOf(e, 'task_title') === title)
            ?.timestamp ?? '',
        )
      const steps = [
        step('task_started', 'Write docs'),
        step('task_completed', 'Write docs'),
        step('task_started', 'Review docs'),
        step('task_completed', 'Review docs'),
      ]
      expect(steps.every(Number.isFinite), String(steps)).toBe(true)
      // Lines of the CLI can share a millisecond (all four did once, against the scripted API): the times
      // never go back, and the log keeps the order.
      expect(steps[1]).toBeGreaterThanOrEqual(steps[0] as number)
      expect(steps[2]).toBeGreaterThanOrEqual(steps[1] as number)
      expect(steps[3]).toBeGreaterThanOrEqual(steps[2] as number)
      const logged = [...events]
        .reverse()
        .filter((e) => e.type === 'task_started' || e.type === 'task_completed')
        .map((e) => `${e.type} ${String(detailOf(e, 'task_title'))}`)
      expect(logged).toEqual([
        'task_started Write docs',
        'task_completed Write docs',
        'task_started Review docs',
        'task_completed Review docs',
      ])
      expect(
        events.filter((e) => e.project === mnemosProject?.name && e.type.startsWith('task')),
      ).toEqual([])
      // With the CLI's defaults there is no task list: each finished turn is the progress instead.
      const turns = events.filter((e) => e.type === 'turn_completed')
      expect(new Set(turns.map((e) => e.session))).toEqual(
        new Set([taskSession, srcSession, mnemosSession]),
      )
      const mnemosTurn = turns.find((e) => e.session === mnemosSession)
      expect(mnemosTurn?.details).toMatchObject({ prompt: 'say hello', reply: 'hello from mnemos' })
      // What the turn spent, for the daily digests.
      expect((mnemosTurn?.details as { tokens?: number } | undefined)?.tokens).toBeGreaterThan(0)
      expect(mnemosProject?.activity).toMatchObject({
        turns_last_hour: 1,
        last_turn: { session: mnemosSession, prompt: 'say hello', reply: 'hello from mnemos' },
      })
      const mnemosLine = (await runNavi(['status'], naviEnv)).stdout
        .split('\n')
        .find((line) => line.includes(mnemosProject?.name ?? '?'))
      expect(mnemosLine).toContain('1 turn in the last hour')
      // Events are logged once each, however many processes looked (watch, then status, then events).
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length)
    } finally {
      await watch.stop().catch(() => undefined)
    }
  })
})
