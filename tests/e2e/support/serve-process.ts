/**
 * The real `navi serve --port 0 --json` as a subprocess: `const serve = await startNaviServe(env)`
 * resolves once serve has printed its one JSON line `{url, port, token}`; `serve.call(channel, input)`
 * posts to `/api/call/<channel>` with the bearer token (for the test's own waits, never instead of the
 * UI); `await serve.stop()` ends its whole process group (SIGTERM, then SIGKILL) and never throws.
 * Used by the Playwright fixture and by bench/popover-paint.ts.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { execa, type ResultPromise } from 'execa'
import type { IpcResult } from '../../../shared/ipc-contract.ts'
import { waitUntil } from '../../support/wait.ts'

export const REPO_ROOT = resolve(import.meta.dirname, '../../..')
const NAVI_BIN = resolve(REPO_ROOT, 'bin/navi.cjs')
export const RENDERER_DIR = resolve(REPO_ROOT, 'out/renderer')

/**
 * Resolves once the built renderer exists; throws with the fix when it does not. Waits `graceMs` first,
 * because a build running beside the tests empties out/renderer for a few seconds.
 */
export async function assertRendererBuilt(dir = RENDERER_DIR, graceMs = 20_000): Promise<void> {
  const index = resolve(dir, 'index.html')
  await waitUntil(() => existsSync(index), graceMs, 'out/renderer/index.html', 250).catch(() => {
    throw new Error(
      `The built renderer is missing (${index}). ` +
        'Run "npm run build" (or "npx electron-vite build") before the e2e tests.',
    )
  })
}

/** What serve prints on stdout once it listens. */
export interface ServeAnnouncement {
  url: string
  port: number
  token: string
}

export interface NaviServe extends ServeAnnouncement {
  /** `http://127.0.0.1:<port>` */
  origin: string
  pid: number
  /** POST /api/call/<channel> with the bearer token; the parsed IpcResult envelope. */
  call<T = unknown>(channel: string, input?: unknown): Promise<IpcResult<T>>
  /** Like `call`, but throws unless `ok` and returns `data`. */
  data<T = unknown>(channel: string, input?: unknown): Promise<T>
  stdout(): string
  stderr(): string
  stop(): Promise<void>
}

export interface StartServeOptions {
  /** The whole environment of the process (nothing of the caller's is added). */
  env: Record<string, string>
  /** Extra arguments after `serve --port 0 --json`, e.g. `['--no-pm']`. */
  args?: string[]
  /** @default 60_000 */
  readyTimeoutMs?: number
}

function parseAnnouncement(stdout: string): ServeAnnouncement | undefined {
  for (const line of stdout.split('\n')) {
    if (!line.trim().startsWith('{')) continue
    try {
      const value = JSON.parse(line) as Partial<ServeAnnouncement>
      if (
        typeof value.url === 'string' &&
        typeof value.port === 'number' &&
        typeof value.token === 'string'
      )
        return { url: value.url, port: value.port, token: value.token }
    } catch {
      // a partial line: keep reading
    }
  }
  return undefined
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    // the group is gone already
  }
}

export async function startNaviServe(opts: StartServeOptions): Promise<NaviServe> {
  const child: ResultPromise = execa(
    'node',
    [NAVI_BIN, 'serve', '--port', '0', '--json', ...(opts.args ?? [])],
    {
      env: opts.env,
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      buffer: false,
      // Its own process group, so teardown can end serve and every claude it started at once.
      detached: true,
      cwd: REPO_ROOT,
    },
  )
  let stdout = ''
  let stderr = ''
  let exited = false
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  void child.then(() => (exited = true))
  const pid = child.pid ?? -1

  const stop = async () => {
    if (pid <= 0) return
    killGroup(pid, 'SIGTERM')
    const gone = await waitUntil(() => exited && !isAlive(pid), 5_000, 'serve to exit', 50)
      .then(() => true)
      .catch(() => false)
    // SIGKILL the group either way: a claude child may outlive its parent.
    killGroup(pid, 'SIGKILL')
    if (!gone) await waitUntil(() => exited, 3_000, 'serve to die', 50).catch(() => undefined)
  }

  let announcement: ServeAnnouncement
  try {
    announcement = await waitUntil(
      () => {
        if (exited)
          throw new Error(`navi serve exited early.\nstdout: ${stdout}\nstderr: ${stderr}`)
        return parseAnnouncement(stdout)
      },
      opts.readyTimeoutMs ?? 60_000,
      () => `navi serve to print {url, port, token} (stdout: ${stdout}; stderr: ${stderr})`,
      50,
    )
  } catch (error) {
    await stop()
    throw error
  }
  const origin = `http://127.0.0.1:${String(announcement.port)}`

  const call = async <T>(channel: string, input?: unknown): Promise<IpcResult<T>> => {
    const response = await fetch(`${origin}/api/call/${channel}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${announcement.token}`,
        'content-type': 'application/json',
      },
      ...(input === undefined ? {} : { body: JSON.stringify(input) }),
    })
    const text = await response.text()
    try {
      return JSON.parse(text) as IpcResult<T>
    } catch {
      return {
        ok: false,
        error: { code: `http_${String(response.status)}`, message: text.slice(0, 500) },
      }
    }
  }

  return {
    ...announcement,
    origin,
    pid,
    call,
    async data<T>(channel: string, input?: unknown) {
      const result = await call<T>(channel, input)
      if (!result.ok) throw new Error(`${channel}: ${result.error.code}: ${result.error.message}`)
      return result.data
    },
    stdout: () => stdout,
    stderr: () => stderr,
    stop,
  }
}
