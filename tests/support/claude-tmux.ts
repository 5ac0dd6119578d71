/**
 * The real interactive `claude` TUI in a detached tmux session. Skip with `it.skipIf(!hasTmux())`,
 * then `const tui = await startClaudeInTmux({ cwd, env, sessionName: 'perm' })`,
 * `await tui.waitForScreen(/for shortcuts/, 15_000)`, `await tui.send('do it')` (types and presses
 * Enter), `await tui.waitForScreen(/Do you want to proceed\?/, 15_000)`, and `await tui.kill()` in a
 * `finally`. Every test process uses its own tmux server (`tmux -L <tui.socketName>`), so the user's
 * tmux is never touched; `killTmuxServer()` in `afterAll` ends it. The pane's shell stays alive
 * (`claude; sleep 600`) so the pane survives the CLI exiting, as the reference (section 12.1) advises.
 */
import { readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { execa, execaSync } from 'execa'
import { claudeBinary, trustProject, type ClaudeEnv } from './claude-env.ts'
import { hermeticBaseEnv } from './hermetic-env.ts'
import { sleep, waitUntil } from './wait.ts'

/**
 * The TUI's start screen is ready for a prompt: up to 2.1.197 its footer says `? for shortcuts`; 2.1.330
 * says `⏵⏵ auto mode on` in its default (auto) permission mode and `⏸ manual mode on · ? for shortcuts`
 * with `--permission-mode default`.
 */
export const TUI_READY = /for shortcuts|mode on/

/** The tmux socket (`tmux -L <name>`) used by default for this test process. */
export const defaultTmuxSocket = `navi-test-${String(process.pid)}`

/** True when a `tmux` binary runs; use for skip conditions. */
export function hasTmux(): boolean {
  try {
    return execaSync('tmux', ['-V'], { reject: false, timeout: 5_000 }).exitCode === 0
  } catch {
    return false
  }
}

export interface TmuxClaudeOptions {
  cwd: string
  /** A `ClaudeEnv`, or another CLI's variables with `binary`. */
  env: ClaudeEnv | Record<string, string>
  /** tmux session name; must be unique on the socket. */
  sessionName: string
  /** Extra CLI arguments, e.g. `['--permission-mode', 'acceptEdits']`. */
  args?: string[]
  /** @default defaultTmuxSocket */
  socketName?: string
  /** @default 180 */
  width?: number
  /** @default 45 */
  height?: number
  /**
   * Another CLI to run in the pane instead of `claude` (e.g. the pinned `codex`); the project is then not
   * marked as trusted in Claude Code's config.
   */
  binary?: string
}

export interface TmuxClaude {
  sessionName: string
  socketName: string
  /** tmux pane id such as `%0`. */
  paneId: string
  /** pid of the pane's shell; the `claude` process is its child (see `claudePid`). */
  panePid: number
  /** Types `text` literally, then presses Enter (a short pause between, as a human would). */
  send(text: string): Promise<void>
  /** Types `text` literally without pressing Enter. */
  type(text: string): Promise<void>
  /** tmux key names, e.g. `sendKeys('Escape')`, `sendKeys('C-c')`, `sendKeys('Enter')`. */
  sendKeys(...keys: string[]): Promise<void>
  /** The visible screen as plain text. */
  capture(): Promise<string>
  /** Polls the screen until `pattern` matches; rejects with the last screen after `timeoutMs`. */
  waitForScreen(pattern: RegExp, timeoutMs: number): Promise<string>
  /** pid of the running `claude` child of the pane shell; rejects after `timeoutMs`. */
  claudePid(timeoutMs?: number): Promise<number>
  /** Kills the tmux session and waits (bounded) until the CLI process has exited; never throws. */
  kill(): Promise<void>
}

/** Single-quotes `s` for a POSIX shell. */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`
}

/** Runs `tmux -L <socket> ...args` with a hermetic environment and returns stdout. */
export async function tmux(socketName: string, args: string[]): Promise<string> {
  const result = await execa('tmux', ['-L', socketName, ...args], {
    env: hermeticBaseEnv(),
    extendEnv: false,
    timeout: 10_000,
  })
  return result.stdout
}

/**
 * Where `tmux -L <name>` puts its socket when `TMUX_TMPDIR` is unset (the hermetic env drops it).
 * tmux leaves the file behind when its server exits.
 */
export function tmuxSocketPath(socketName = defaultTmuxSocket): string {
  return join('/tmp', `tmux-${String(process.getuid?.() ?? 0)}`, socketName)
}

/** Ends the whole tmux server of `socketName` (no-op when none runs) and removes its socket file. */
export async function killTmuxServer(socketName = defaultTmuxSocket): Promise<void> {
  await execa('tmux', ['-L', socketName, 'kill-server'], {
    env: hermeticBaseEnv(),
    extendEnv: false,
    reject: false,
    timeout: 10_000,
  })
  await rm(tmuxSocketPath(socketName), { force: true })
}

/** Starts `claude` in a detached tmux session after marking `cwd` as trusted. */
export async function startClaudeInTmux(opts: TmuxClaudeOptions): Promise<TmuxClaude> {
  const socketName = opts.socketName ?? defaultTmuxSocket
  const target = opts.sessionName
  const claudeConfigDir = opts.env.CLAUDE_CONFIG_DIR
  if (!opts.binary && claudeConfigDir) await trustProject(claudeConfigDir, opts.cwd)
  const command = [opts.binary ?? claudeBinary(), ...(opts.args ?? [])].map(shellQuote).join(' ')
  const envFlags = Object.entries({ ...opts.env, DISABLE_AUTOUPDATER: '1' }).flatMap(([k, v]) => [
    '-e',
    `${k}=${v}`,
  ])
  await tmux(socketName, [
    'new-session',
    '-d',
    '-s',
    target,
    '-x',
    String(opts.width ?? 180),
    '-y',
    String(opts.height ?? 45),
    '-c',
    opts.cwd,
    ...envFlags,
    `${command}; sleep 600`,
  ])
  const [paneId = '', panePidText = ''] = (
    await tmux(socketName, ['display-message', '-p', '-t', target, '#{pane_id} #{pane_pid}'])
  ).split(' ')
  const panePid = Number(panePidText)
  const capture = () => tmux(socketName, ['capture-pane', '-p', '-t', paneId])
  const sendKeys = async (...keys: string[]) =>
    void (await tmux(socketName, ['send-keys', '-t', paneId, ...keys]))
  const type = async (text: string) =>
    void (await tmux(socketName, ['send-keys', '-t', paneId, '-l', text]))

  return {
    sessionName: target,
    socketName,
    paneId,
    panePid,
    type,
    sendKeys,
    capture,
    send: async (text) => {
      await type(text)
      // Enter in the same burst as the text can be taken as part of a paste, and a TUI still starting
      // on a loaded machine may not have read the text yet: Enter goes once the text shows on screen.
      const shown = text.trim().split('\n')[0]!.slice(0, 24)
      const escaped = shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      await waitUntil(
        async () => new RegExp(escaped).test(await capture()),
        10_000,
        `the typed text ${JSON.stringify(shown)} on the tmux screen`,
        50,
      ).catch(() => undefined) // not echoed as typed (a wrapped line): Enter after the pause below
      await sleep(100)
      await sendKeys('Enter')
    },
    waitForScreen: async (pattern, timeoutMs) => {
      let last = ''
      return waitUntil(
        async () => {
          last = await capture()
          return pattern.test(last) ? last : undefined
        },
        timeoutMs,
        () => `${String(pattern)} on the tmux screen; last screen:\n${last}`,
        150,
      )
    },
    claudePid: (timeoutMs = 5_000) =>
      waitUntil(
        () => claudeChildOf(panePid),
        timeoutMs,
        `a claude child of pid ${String(panePid)}`,
      ),
    kill: async () => {
      // End the CLI first while its shell still runs: the shell reaps it, no zombie is left behind.
      const pid = await claudeChildOf(panePid)
      if (pid !== undefined) {
        signal(pid, 'SIGTERM')
        await waitForExit(pid)
      }
      await tmux(socketName, ['kill-session', '-t', target]).catch(() => undefined)
    },
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name)
  } catch {
    // already gone
  }
}

/** A zombie (exited, not yet reaped, e.g. by a container's PID 1) counts as gone. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return true // no procfs (macOS): trust kill(0)
  }
}

/**
 * The CLI still writes its state while it exits; wait for it (then SIGKILL) so a caller
 * can safely remove the config dir afterwards.
 */
async function waitForExit(pid: number, timeoutMs = 5_000): Promise<void> {
  const exited = await waitUntil(() => !isAlive(pid), timeoutMs, `pid ${String(pid)} to exit`, 50)
    .then(() => true)
    .catch(() => false)
  if (exited) return
  signal(pid, 'SIGKILL')
  await waitUntil(() => !isAlive(pid), 2_000, `pid ${String(pid)} to exit after SIGKILL`, 50).catch(
    () => undefined,
  )
}

/** The first child of `parentPid` that is not the trailing `sleep`. */
async function claudeChildOf(parentPid: number): Promise<number | undefined> {
  const { stdout } = await execa('pgrep', ['-l', '-P', String(parentPid)], { reject: false })
  for (const line of stdout.split('\n')) {
    const [pid, name] = line.trim().split(/\s+/)
    if (pid && name && name !== 'sleep') return Number(pid)
  }
  return undefined
}
