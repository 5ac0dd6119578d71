/**
 * A world for delegated tasks with the real claude: a git repo registered as the project `apollo`, a
 * scripted Anthropic API, a hermetic claude config that trusts the repo, a NAVI_HOME with `config.yaml`
 * (extra `tasks:` lines from the test), and a live Navi runtime with the task service, whose relayed notes
 * are collected. `hooks: true` installs Navi's hooks (a task's permission request then reaches Navi).
 */
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { installHooks } from '../../electron/engine/adapters/hooks-install.ts'
import { createNaviRuntime, type NaviRuntime } from '../../electron/runtime/index.ts'
import type { TaskService } from '../../electron/runtime/tasks.ts'
import type { Task } from '../../shared/schemas/task.ts'
import { claudeBinary, createClaudeEnv, disposeClaudeEnv, type ClaudeEnv } from './claude-env.ts'
import { hermeticBaseEnv } from './hermetic-env.ts'
import { createNaviEnv, type NaviEnv } from './navi-cli.ts'
import { createRepoFixture, type RepoFixture } from './repo-fixture.ts'
import { startScriptedApi, type ScriptedApi } from './scripted-api.ts'
import { startScriptedResponsesApi, type ScriptedResponsesApi } from './scripted-responses-api.ts'
import { codexBinary, createCodexEnv, disposeCodexEnv } from './codex-driver.ts'

export interface TaskWorld {
  repo: RepoFixture
  api: ScriptedApi
  /** With `codex: true`: the scripted Responses API the real codex talks to. */
  codexApi: ScriptedResponsesApi | null
  claudeEnv: ClaudeEnv
  /** The variables a `navi` subprocess of this world runs with (runNavi). */
  naviEnv: NaviEnv
  runtime: NaviRuntime
  tasks: TaskService
  /** Every note relayed, in order, with when (epoch ms). */
  notes: { task: Task; title: string; body: string; at: number }[]
  cleanup(): Promise<void>
}

export async function createTaskWorld(
  label: string,
  opts: { tasksConfig?: string[]; hooks?: boolean; wait?: string; codex?: boolean } = {},
): Promise<TaskWorld> {
  const repo = await createRepoFixture({ prefix: `task-${label}-` })
  const api = await startScriptedApi()
  const codexApi = opts.codex ? await startScriptedResponsesApi() : null
  const codexEnv = codexApi ? await createCodexEnv({ apiUrl: codexApi.baseUrl }) : null
  const claudeEnv = await createClaudeEnv({
    apiUrl: api.url,
    trustedDirs: [repo.dir],
    maxRetries: 0,
  })
  const base = await createNaviEnv({
    CLAUDE_CONFIG_DIR: claudeEnv.CLAUDE_CONFIG_DIR,
    ...(codexEnv ? { CODEX_HOME: codexEnv.CODEX_HOME } : {}),
  })
  const naviEnv: NaviEnv = {
    ...base,
    ...claudeEnv,
    NAVI_HOME: base.NAVI_HOME,
    NAVI_CLAUDE_BIN: claudeBinary(),
  }
  const paths = {
    naviHome: naviEnv.NAVI_HOME,
    claudeConfigDir: naviEnv.CLAUDE_CONFIG_DIR,
    codexHome: naviEnv.CODEX_HOME,
  }
  const config = [
    'projects:',
    `  - path: ${JSON.stringify(repo.dir)}`,
    '    name: apollo',
    `answering:\n  wait: ${opts.wait ?? '60s'}`,
    ...(opts.tasksConfig ? ['tasks:', ...opts.tasksConfig.map((l) => `  ${l}`)] : []),
  ]
  await writeFile(join(paths.naviHome, 'config.yaml'), `${config.join('\n')}\n`)
  if (opts.hooks) {
    await installHooks(paths)
    claudeEnv.NAVI_HOME = naviEnv.NAVI_HOME
  }
  const notes: TaskWorld['notes'] = []
  const runtime = await createNaviRuntime({
    paths,
    mode: 'live',
    pm: false,
    tasks: true,
    face: 'tray',
    env: {
      ...hermeticBaseEnv(),
      ...claudeEnv,
      NAVI_CLAUDE_BIN: claudeBinary(),
      ...(codexEnv ? { ...codexEnv, NAVI_CODEX_BIN: codexBinary() } : {}),
    },
    onTaskNote: (task, title, body) => notes.push({ task, title, body, at: Date.now() }),
  })
  await runtime.start()
  if (!runtime.tasks) throw new Error('no task service')
  return {
    repo,
    api,
    codexApi,
    claudeEnv,
    naviEnv,
    runtime,
    tasks: runtime.tasks,
    notes,
    async cleanup() {
      await runtime.stop()
      await api.close()
      await codexApi?.close()
      if (codexEnv) await disposeCodexEnv(codexEnv)
      await disposeClaudeEnv(claudeEnv)
      await repo.cleanup()
      await rm(naviEnv.NAVI_HOME, { recursive: true, force: true })
      if (!codexEnv) await rm(naviEnv.CODEX_HOME, { recursive: true, force: true })
    },
  }
}

/** The text of every user message in a recorded Messages API request body (text blocks, tool results). */
export function userTexts(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? []
  const textOf = (content: unknown): string[] => {
    if (typeof content === 'string') return [content]
    if (!Array.isArray(content)) return []
    return content.flatMap((block: { type?: string; text?: unknown; content?: unknown }) =>
      typeof block.text === 'string' ? [block.text] : textOf(block.content),
    )
  }
  return messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => textOf(m.content))
    .join('\n')
}
