/**
 * A world for answering a real `claude` from Navi: a git repository, the scripted API, a claude config
 * with Navi's hooks installed (the handler finds this NAVI_HOME), and a live Navi runtime that listens for
 * answers. `startTui()` runs claude's TUI there in tmux with the classic dialog (`--permission-mode
 * default`); `cleanup()` undoes everything. Also `answerOf`, an answer naming a session's pending request.
 */
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { installHooks } from '../../electron/engine/adapters/hooks-install.ts'
import { createNaviRuntime, type NaviRuntime } from '../../electron/runtime/index.ts'
import {
  answerToPending,
  type AnswerFace,
  type SessionAnswerInput,
} from '../../shared/schemas/answer.ts'
import type { Session } from '../../shared/schemas/session.ts'
import {
  createClaudeEnv,
  disposeClaudeEnv,
  startClaudeInTmux,
  TUI_READY,
  type ClaudeEnv,
  type TmuxClaude,
} from './claude-driver.ts'
import { createNaviEnv } from './navi-cli.ts'
import { createRepoFixture, type RepoFixture } from './repo-fixture.ts'
import { startScriptedApi, type ScriptedApi } from './scripted-api.ts'
import { functionCalls } from './scripted-responses-api.ts'
import { waitUntil } from './wait.ts'

export interface AnswerWorld {
  repo: RepoFixture
  api: ScriptedApi
  claudeEnv: ClaudeEnv
  paths: NaviRuntime['paths']
  runtime: NaviRuntime
  /** A file outside the project the scripted Bash call touches (removed before and after). */
  outside: string
  startTui(): Promise<TmuxClaude>
  cleanup(): Promise<void>
}

export async function createAnswerWorld(
  label: string,
  opts: { face?: AnswerFace; wait?: string } = {},
): Promise<AnswerWorld> {
  const repo = await createRepoFixture({ prefix: `answer-${label}-` })
  const api = await startScriptedApi()
  const claudeEnv = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [repo.dir] })
  const naviEnv = await createNaviEnv({ CLAUDE_CONFIG_DIR: claudeEnv.CLAUDE_CONFIG_DIR })
  const paths = {
    naviHome: naviEnv.NAVI_HOME,
    claudeConfigDir: naviEnv.CLAUDE_CONFIG_DIR,
    codexHome: naviEnv.CODEX_HOME,
  }
  if (opts.wait) {
    await writeFile(join(paths.naviHome, 'config.yaml'), `answering:\n  wait: ${opts.wait}\n`)
  }
  await installHooks(paths)
  claudeEnv.NAVI_HOME = naviEnv.NAVI_HOME
  const runtime = await createNaviRuntime({
    paths,
    mode: 'live',
    pm: false,
    face: opts.face ?? 'tray',
  })
  await runtime.start()
  const outside = `/tmp/navi-answer-${String(process.pid)}-${label}`
  await rm(outside, { force: true })
  let claude: TmuxClaude | null = null
  return {
    repo,
    api,
    claudeEnv,
    paths,
    runtime,
    outside,
    async startTui() {
      claude = await startClaudeInTmux({
        cwd: repo.dir,
        env: claudeEnv,
        sessionName: `answer-${label}`,
        // The classic dialog: the user's answer in the terminal is part of the story.
        args: ['--permission-mode', 'default'],
      })
      await claude.waitForScreen(TUI_READY, 30_000)
      return claude
    },
    async cleanup() {
      await claude?.kill()
      await runtime.stop()
      await api.close()
      await disposeClaudeEnv(claudeEnv)
      await repo.cleanup()
      await rm(outside, { force: true })
      await rm(naviEnv.NAVI_HOME, { recursive: true, force: true })
    },
  }
}

/** An answer to the request `session` waits on, naming it as shown (id, tool, input digest). */
export function answerOf(
  session: Session,
  decision: 'allow' | 'deny',
  message?: string,
): SessionAnswerInput {
  const answer = answerToPending(session, decision, message)
  if (!answer)
    throw new Error(
      `${session.id} has no named request: ${JSON.stringify(session.pending_request)}`,
    )
  return answer
}

/** The model asks to run `cmd` outside Codex's workspace sandbox: Codex's approval path (and its hook). */
export function escalatedCodexCommand(cmd: string, callId: string) {
  return functionCalls([
    {
      name: 'exec_command',
      arguments: {
        cmd,
        sandbox_permissions: 'require_escalated',
        justification: 'Write the marker outside the workspace',
      },
      callId,
    },
  ])
}

/** The Codex session once Navi's hook holds its permission request (bounded wait). */
export async function heldCodexSession(runtime: NaviRuntime): Promise<Session> {
  let seen: Session | undefined
  return waitUntil(
    async () => {
      await runtime.engine.refresh()
      seen = runtime.engine.getSessions().find((s) => s.agent === 'codex')
      return seen?.pending_request?.answer_until ? seen : null
    },
    60_000,
    () => `the codex request held by Navi's hook (last seen: ${JSON.stringify(seen)})`,
    100,
  )
}
