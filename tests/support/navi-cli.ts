/**
 * Runs the real `navi` CLI (bin/navi.cjs) as a subprocess with its own NAVI_HOME / CLAUDE_CONFIG_DIR /
 * CODEX_HOME: `runNavi(['status', '--json'], env)` for one-shot commands, `startNaviWatch(env)` for
 * `navi watch --json`, whose stdout lines are collected as events and can be awaited (bounded).
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { execa, type ResultPromise } from 'execa'
import { engineEventSchema, type EngineEvent } from '../../shared/schemas/event.ts'
import { waitUntil } from './wait.ts'

const NAVI_BIN = resolve(import.meta.dirname, '../../bin/navi.cjs')

export interface NaviEnv {
  NAVI_HOME: string
  CLAUDE_CONFIG_DIR: string
  CODEX_HOME: string
  [key: string]: string
}

export async function createNaviEnv(over: Partial<NaviEnv> = {}): Promise<NaviEnv> {
  const dir = async (prefix: string) => mkdtemp(join(tmpdir(), prefix))
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? tmpdir(),
    NAVI_HOME: over.NAVI_HOME ?? (await dir('navi-home-')),
    CLAUDE_CONFIG_DIR: over.CLAUDE_CONFIG_DIR ?? (await dir('navi-claude-')),
    CODEX_HOME: over.CODEX_HOME ?? (await dir('navi-codex-')),
    // No test leaves a background runtime behind (cli-background.test.ts turns it on where it tests it).
    NAVI_BACKGROUND: '0',
    ...over,
  } as NaviEnv
}

/** The engine's paths of `env`, for a test that makes a runtime (or installs hooks) in it. */
export const enginePathsOf = (env: NaviEnv) => ({
  naviHome: env.NAVI_HOME,
  claudeConfigDir: env.CLAUDE_CONFIG_DIR,
  codexHome: env.CODEX_HOME,
})

/** Runs `navi args` (bin/navi.cjs, or the built CLI's `bin`) to its end. */
export async function runNavi(args: string[], env: NaviEnv, timeoutMs = 60_000, bin = NAVI_BIN) {
  const result = await execa('node', [bin, ...args], {
    env,
    extendEnv: false,
    reject: false,
    timeout: timeoutMs,
    stdin: 'ignore',
  })
  const stdout = String(result.stdout)
  let json: unknown = undefined
  if (args.includes('--json')) {
    try {
      json = JSON.parse(stdout)
    } catch {
      json = undefined
    }
  }
  return { exitCode: result.exitCode, stdout, stderr: String(result.stderr), json }
}

export interface NaviWatch {
  events: EngineEvent[]
  /** Every other JSON line (PM briefings and run status). */
  others: Record<string, unknown>[]
  stderr(): string
  waitForEvent(
    match: (e: EngineEvent) => boolean,
    timeoutMs: number,
    what: string,
  ): Promise<EngineEvent>
  stop(): Promise<{ exitCode: number | undefined }>
  /** `kill -9`: no shutdown at all, as a crash or an OOM kill would leave it. */
  kill(): Promise<void>
}

/**
 * Starts `navi watch --json` (bin/navi.cjs, or the built CLI's `bin`) and resolves once the engine
 * reports it is ready. The PM is off unless `withPm` (a test that wants briefings points the PM at a
 * scripted API).
 */
export async function startNaviWatch(
  env: NaviEnv,
  readyTimeoutMs = 30_000,
  withPm = false,
  bin = NAVI_BIN,
): Promise<NaviWatch> {
  const args = [bin, 'watch', '--json', ...(withPm ? [] : ['--no-pm'])]
  const child: ResultPromise = execa('node', args, {
    env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    buffer: false,
  })
  const events: EngineEvent[] = []
  const others: Record<string, unknown>[] = []
  let stdoutRest = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    stdoutRest += chunk.toString('utf8')
    const lines = stdoutRest.split('\n')
    stdoutRest = lines.pop() ?? ''
    for (const line of lines) {
      const value: unknown = JSON.parse(line)
      const parsed = engineEventSchema.safeParse(value)
      if (parsed.success) events.push(parsed.data)
      else if (typeof value === 'object' && value !== null)
        others.push(value as Record<string, unknown>)
    }
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  await waitUntil(
    () => stderr.includes('"ready":true'),
    readyTimeoutMs,
    () => `navi watch ready (stderr: ${stderr})`,
  )
  return {
    events,
    others,
    stderr: () => stderr,
    waitForEvent: (match, timeoutMs, what) =>
      waitUntil(
        () => events.find(match),
        timeoutMs,
        () =>
          `${what}; got ${JSON.stringify(events.map((e) => [e.type, e.project]))}; stderr: ${stderr}`,
      ),
    async stop() {
      child.kill('SIGINT')
      const result = await child
      return { exitCode: result.exitCode }
    },
    async kill() {
      child.kill('SIGKILL')
      await child
    },
  }
}
