/**
 * A hermetic world for the e2e tests, built from the same pieces as the integration tests: three real
 * git repositories registered in a temp NAVI_HOME's config.yaml (named alpha, beta, gamma), a
 * CLAUDE_CONFIG_DIR holding real `claude -p` sessions (transcripts and tasks) run against a scripted
 * API, and a second scripted API for the PM, whose first reply (the initialization briefing) is queued.
 * `createNaviWorld()` returns it with `serveEnv` (the whole environment for `navi serve`) and
 * `cleanup()` (tmux server, APIs, temp dirs; never throws).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PmOutput } from '../../../shared/schemas/briefing.ts'
import {
  claudeBinary,
  createClaudeEnv,
  disposeClaudeEnv,
  killTmuxServer,
  runClaudePrint,
  type ClaudeEnv,
} from '../../support/claude-driver.ts'
import { createNaviEnv, type NaviEnv } from '../../support/navi-cli.ts'
import { createRepoFixture, type RepoFixture } from '../../support/repo-fixture.ts'
import {
  startScriptedApi,
  structured,
  text,
  toolUse,
  toolUses,
  type ScriptedApi,
} from '../../support/scripted-api.ts'
import { RENDERER_DIR } from './serve-process.ts'

export const PROJECT_NAMES = ['alpha', 'beta', 'gamma'] as const
export type ProjectName = (typeof PROJECT_NAMES)[number]

export const FIRST_BRIEFING =
  'Alpha finished its parser task and beta wrote its notes; gamma is quiet. Nothing is blocked.'

/** A PM reply naming the world's projects. */
export function pmReply(briefing: string): PmOutput {
  return {
    briefing,
    projects: [
      { name: 'alpha', status: 'active', summary: 'Parser work in progress.' },
      { name: 'beta', status: 'active', summary: 'Notes written.' },
      { name: 'gamma', status: 'idle', summary: 'Quiet.' },
    ],
    attention_items: [
      { project: 'alpha', priority: 'high', title: 'Review the parser task list' },
      { project: 'beta', priority: 'low', title: 'Skim the notes' },
    ],
    breadcrumbs: [{ project: 'alpha', message: 'Left off in parser.ts' }],
    suggestions: [],
    patterns: [],
  }
}

export interface NaviWorld {
  repos: Record<ProjectName, RepoFixture>
  /** The user's claude sessions (print and tmux) talk to this one. */
  sessionApi: ScriptedApi
  /** The PM's runs talk to this one. */
  pmApi: ScriptedApi
  /** For the user's sessions: `runClaudePrint` / `startClaudeInTmux`. */
  claudeEnv: ClaudeEnv
  /** The whole environment for `navi serve`. */
  serveEnv: NaviEnv
  tmuxSocket: string
  cleanup(): Promise<void>
}

const steps = <T>(label: string, run: () => Promise<T>): Promise<T> =>
  run().catch((error: unknown) => {
    throw new Error(`building the e2e world: ${label}: ${String(error)}`)
  })

async function runSession(
  world: Pick<NaviWorld, 'sessionApi' | 'claudeEnv'>,
  cwd: string,
  prompt: string,
) {
  const run = await runClaudePrint({
    cwd,
    env: world.claudeEnv,
    prompt,
    args: ['--output-format', 'json'],
    timeoutMs: 60_000,
  })
  if (run.exitCode !== 0)
    throw new Error(`claude -p in ${cwd} exited ${String(run.exitCode)}: ${run.stderr}`)
}

export async function createNaviWorld(): Promise<NaviWorld> {
  const cleanups: (() => Promise<unknown>)[] = []
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) await step().catch(() => undefined)
  }
  try {
    const repos = {} as Record<ProjectName, RepoFixture>
    for (const name of PROJECT_NAMES) {
      const repo = await createRepoFixture({ prefix: `navi-e2e-${name}-` })
      cleanups.push(() => repo.cleanup())
      await repo.commit(`${name}: scaffold`, { 'src/index.ts': `export const name = '${name}'\n` })
      repos[name] = repo
    }
    const sessionApi = await startScriptedApi({ title: 'E2E session' })
    cleanups.push(() => sessionApi.close())
    const pmApi = await startScriptedApi()
    cleanups.push(() => pmApi.close())
    const claudeEnv = await createClaudeEnv({
      apiUrl: sessionApi.url,
      trustedDirs: PROJECT_NAMES.map((n) => repos[n].dir),
      maxRetries: 0,
    })
    cleanups.push(() => disposeClaudeEnv(claudeEnv))
    const tmuxSocket = `navi-e2e-${String(process.pid)}-${String(Date.now() % 100_000)}`
    cleanups.push(() => killTmuxServer(tmuxSocket))

    // Real sessions: alpha keeps a task list (one done, one in progress), beta writes a file.
    sessionApi.enqueue(
      toolUses([
        {
          name: 'TaskCreate',
          input: { subject: 'Write the parser', description: 'd', activeForm: 'Writing' },
        },
        {
          name: 'TaskCreate',
          input: { subject: 'Test the parser', description: 'd', activeForm: 'Testing' },
        },
      ]),
      toolUse('TaskUpdate', { taskId: '1', status: 'completed' }),
      toolUse('TaskUpdate', { taskId: '2', status: 'in_progress' }),
      text('The parser is written; testing next.'),
    )
    await steps('claude -p in alpha', () =>
      runSession({ sessionApi, claudeEnv }, repos.alpha.dir, 'write the parser'),
    )
    sessionApi.enqueue(
      toolUse('Write', { file_path: join(repos.beta.dir, 'NOTES.md'), content: '# Notes\n' }),
      text('Notes written.'),
    )
    await steps('claude -p in beta', () =>
      runSession({ sessionApi, claudeEnv }, repos.beta.dir, 'write the notes'),
    )

    const naviHome = await mkdtemp(join(tmpdir(), 'navi-e2e-home-'))
    cleanups.push(() => rm(naviHome, { recursive: true, force: true }))
    const codexHome = await mkdtemp(join(tmpdir(), 'navi-e2e-codex-'))
    cleanups.push(() => rm(codexHome, { recursive: true, force: true }))
    const config = [
      'projects:',
      ...PROJECT_NAMES.flatMap((n) => [`  - path: ${repos[n].dir}`, `    name: ${n}`]),
      'poll_interval: 2s',
      // Only the initialization run and on-demand refreshes: commits in the tests must not start runs
      // that would eat the scripted PM replies.
      'pm:',
      '  batch_window: 1h',
      '  min_interval: 1h',
      '  timeout: 60s',
      '',
    ].join('\n')
    await writeFile(join(naviHome, 'config.yaml'), config)

    pmApi.enqueue(structured({ ...pmReply(FIRST_BRIEFING) }))
    const serveEnv = await createNaviEnv({
      NAVI_HOME: naviHome,
      CODEX_HOME: codexHome,
      CLAUDE_CONFIG_DIR: claudeEnv.CLAUDE_CONFIG_DIR,
      ANTHROPIC_BASE_URL: pmApi.url,
      ANTHROPIC_API_KEY: claudeEnv.ANTHROPIC_API_KEY,
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      NAVI_CLAUDE_BIN: claudeBinary(),
      NAVI_RENDERER_DIR: RENDERER_DIR,
    })
    return { repos, sessionApi, pmApi, claudeEnv, serveEnv, tmuxSocket, cleanup }
  } catch (error) {
    await cleanup()
    throw error
  }
}
