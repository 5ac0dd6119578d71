/**
 * Navi's hooks with the real `claude` binary: installed by `installHooks` into a temp config dir,
 * the CLI runs the handler through the installed command and the inbox folds to an ended session.
 */
import { realpathSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createHookInbox } from '../../electron/engine/adapters/hook-inbox.ts'
import { installHooks } from '../../electron/engine/adapters/hooks-install.ts'
import type { EnginePaths } from '../../electron/engine/core/paths.ts'
import {
  createClaudeEnv,
  disposeClaudeEnv,
  runClaudePrint,
  TASK_TOOLS_ON,
} from '../support/claude-driver.ts'
import { startScriptedApi, text, toolUse } from '../support/scripted-api.ts'
import { drainedHookLines, drainedHookText } from '../support/hook-lines.ts'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/**
 * A project, a scripted API, a hermetic claude and Navi's hooks installed. The NAVI_HOME holds a space and
 * a quote: the installed command must quote it for the shell.
 */
async function setUpHooked(extraEnv?: Record<string, string>) {
  const root = realpathSync(await mkdtemp(join(tmpdir(), 'navi-hooks-claude-')))
  cleanups.push(() => rm(root, { recursive: true, force: true }))
  const api = await startScriptedApi()
  cleanups.push(() => api.close())
  const project = join(root, 'proj')
  const env = await createClaudeEnv({
    apiUrl: api.url,
    trustedDirs: [project],
    maxRetries: 0,
    ...(extraEnv ? { extraEnv } : {}),
  })
  cleanups.push(() => disposeClaudeEnv(env))
  const paths: EnginePaths = {
    naviHome: join(root, "navi o'home"),
    claudeConfigDir: env.CLAUDE_CONFIG_DIR,
    codexHome: join(root, 'codex'),
  }
  await installHooks(paths)
  await mkdir(project)
  // Tool and task hooks run in the background and a print run exits without waiting for them: a test
  // holds the reply after such a call until its line is written, as a real model would answer later.
  const inboxHas = async (event: string) =>
    (await drainedHookText(paths.naviHome)).includes(`"hook_event_name":"${event}"`)
  return { api, env, paths, project, inboxHas }
}

describe('hooks with the real claude CLI', () => {
  it('records every event of a print-mode run and folds them to an ended session', async () => {
    const { api, env, paths, project, inboxHas } = await setUpHooked()
    api.enqueue(
      toolUse('Write', { file_path: join(project, 'a.txt'), content: 'hi' }),
      text('all finished', { holdUntil: () => inboxHas('PostToolUse') }),
    )
    const run = await runClaudePrint({
      cwd: project,
      env,
      prompt: 'write the file',
      args: ['--output-format', 'json', '--permission-mode', 'acceptEdits'],
      timeoutMs: 60_000,
    })
    expect(run.exitCode).toBe(0)

    const lines = await drainedHookLines(paths.naviHome)
    const events = lines.map((l) => l.hook_event_name)
    for (const event of [
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'Stop',
      'SessionEnd',
    ]) {
      expect(events).toContain(event)
    }
    const sessionId = (run.json as { session_id: string }).session_id
    expect(new Set(lines.map((l) => l.session_id))).toEqual(new Set([sessionId]))
    const post = lines.find((l) => l.hook_event_name === 'PostToolUse')
    expect(post).toMatchObject({ tool_name: 'Write', cwd: project })
    expect(post).not.toHaveProperty('tool_input')
    // The claude process that ran the hooks: one pid, a real one (not the handler's shell).
    const pids = new Set(lines.map((l) => l.claude_pid))
    expect(pids.size).toBe(1)
    expect(typeof [...pids][0]).toBe(process.platform === 'linux' ? 'number' : 'object')

    const { states, corrupt } = await createHookInbox(paths).read()
    expect(corrupt).toBe(0)
    expect(states.get(sessionId)).toMatchObject({
      ended: true,
      endReason: 'other',
      lastEvent: 'SessionEnd',
    })
  })

  it('with the task tools on, a finished task reaches the inbox as TaskCompleted and folds to a move', async () => {
    const { api, env, paths, project, inboxHas } = await setUpHooked(TASK_TOOLS_ON)
    api.enqueue(
      toolUse('TaskCreate', {
        subject: 'Ship the parser',
        description: 'd',
        activeForm: 'Shipping',
      }),
      toolUse('TaskUpdate', { taskId: '1', status: 'completed' }),
      // TaskCompleted runs in the background: the turn ends once its line is in.
      text('shipped', { holdUntil: () => inboxHas('TaskCompleted') }),
    )
    const run = await runClaudePrint({
      cwd: project,
      env,
      prompt: 'ship it',
      args: ['--output-format', 'json'],
      timeoutMs: 60_000,
    })
    expect(run.exitCode, run.stderr).toBe(0)
    const sessionId = (run.json as { session_id: string }).session_id
    const { states } = await createHookInbox(paths).read()
    const moves = states.get(sessionId)?.taskMoves ?? []
    expect(moves.map((m) => [m.task_id, m.title, m.status])).toEqual([
      ['1', 'Ship the parser', 'completed'],
    ])
  })
})
