/**
 * The background runtime: when `navi status`, `sessions` or `events` had to compute its answer (no Navi
 * running, and something changed since the last command), it leaves a runtime behind that answers the
 * next ones on the query socket, as the tray or `navi watch` would (a socket round trip instead of loading
 * the engine and reading every session again). It is a live runtime with no face: no PM, no answers
 * listened for, no tasks; it exits once no command asked it anything for `cli.background` (30 min), when
 * its home or its build is gone, and at once when a Navi the user starts wants the socket (STEP_ASIDE).
 *
 * Off where nobody types commands (CI set), with `NAVI_BACKGROUND=0` or `cli.background: 0`, and for the
 * CLI run from its sources. Part of the CLI's engine side.
 */
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { errorText } from '../../shared/log.ts'
import type { DoctorCheck } from '../../shared/schemas/cli.ts'
import { naviFiles, type EnginePaths } from '../runtime/paths.ts'
import { querySocketPath } from '../runtime/query-protocol.ts'
import { codeCacheState, ENGINE_CODE_CACHE_STATE } from './code-cache-state.ts'
import { createCliRuntime } from './cli-runtime.ts'
import { childProcess, isPidAlive, writeSmallFileSafely } from '../runtime/index.ts'

/** The hidden command a computing command starts (main.ts). */
export const BACKGROUND_COMMAND = 'background'

/** A start begun this recently is not begun again by the commands run while it starts. */
const STARTING_FRESH_MS = 20_000
/** How often the runtime looks at its idle time, its home and its build: at most this, at least 250 ms. */
const CHECK_EVERY_MAX_MS = 15_000

export type BackgroundDecision = { start: true } | { start: false; why: string }

/** Whether a command that computed its answer starts a background runtime. Pure. */
export function backgroundDecision(opts: {
  idleMs: number
  env: Readonly<Record<string, string | undefined>>
  socketPath: string | null
  /** Run as the built CLI (not from its sources, which change under a running process). */
  built: boolean
}): BackgroundDecision {
  const { env } = opts
  if (env.NAVI_BACKGROUND === '0') return { start: false, why: 'NAVI_BACKGROUND=0' }
  const ci = env.CI !== undefined && !['', '0', 'false'].includes(env.CI.toLowerCase())
  if (ci && env.NAVI_BACKGROUND !== '1') return { start: false, why: 'CI is set' }
  if (opts.idleMs <= 0) return { start: false, why: 'cli.background is 0' }
  if (opts.socketPath === null) return { start: false, why: 'no socket path fits this home' }
  if (!opts.built) return { start: false, why: 'run from the sources' }
  return { start: true }
}

/** The files of the background runtime: its pid while it serves, and the mark of a start under way. */
export function backgroundFiles(paths: EnginePaths): { pid: string; starting: string } {
  const { runDir } = naviFiles(paths)
  return { pid: join(runDir, 'background.pid'), starting: join(runDir, 'background.starting') }
}

/**
 * Starts a background runtime for `paths` when `backgroundDecision` says so and no start is under way;
 * says why not (or what failed). Detached: it outlives this command and its terminal.
 */
export async function startBackground(
  paths: EnginePaths,
  idleMs: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const decision = backgroundDecision({
    idleMs,
    env,
    socketPath: querySocketPath(paths),
    built: codeCacheState() !== null,
  })
  if (!decision.start) return `not started: ${decision.why}`
  const script = process.argv[1]
  if (script === undefined) return 'not started: no script to run'
  const { starting } = backgroundFiles(paths)
  await mkdir(naviFiles(paths).runDir, { recursive: true, mode: 0o700 })
  if (!claimStart(starting)) return 'not started: a start is under way'
  // child_process (net and its streams with it) is loaded only to start one (lazy-builtins.ts).
  const child = childProcess().spawn(process.execPath, [script, BACKGROUND_COMMAND], {
    detached: true,
    stdio: 'ignore',
    env,
    // Not the command's folder, which it would hold for half an hour (an unmount, a removed worktree):
    // its home, unless a path given relative to the command's folder needs that folder.
    cwd: Object.values(paths).every((path) => isAbsolute(path)) ? paths.naviHome : process.cwd(),
  })
  // Told after this command may have exited (no one to tell then): the mark goes, the next command retries.
  child.on('error', () => rmSync(starting, { force: true }))
  child.unref()
  return `started (pid ${String(child.pid)})`
}

/** Makes the start mark, or false when a fresh one is there (another command starts one now). */
function claimStart(file: string): boolean {
  try {
    closeSync(openSync(file, 'wx', 0o600))
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const age = Date.now() - (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0)
  if (age < STARTING_FRESH_MS) return false
  // Left by a start that died: taken over.
  rmSync(file, { force: true })
  return claimStart(file)
}

/**
 * `navi background`: the runtime itself. Resolves with 0 when it exits: idle, its home or build gone,
 * asked to step aside, stopped by a signal, or another Navi answering already.
 */
export async function backgroundCommand(paths: EnginePaths): Promise<number> {
  const files = backgroundFiles(paths)
  let lastQuery = Date.now()
  let stop: (why: string) => void = () => undefined
  const stopped = new Promise<string>((resolve) => (stop = resolve))
  const runtime = await createCliRuntime({
    paths,
    mode: 'live',
    pm: false,
    // Nobody reads its stderr: what fails is in navi.log.
    onError: () => undefined,
    background: {
      onQuery: () => (lastQuery = Date.now()),
      onStepAside: () => stop('another Navi started'),
    },
  })
  const log = runtime.logger.scope('background')
  const onSignal = () => stop('stopped by a signal')
  process.once('SIGTERM', onSignal)
  process.once('SIGINT', onSignal)
  process.once('SIGHUP', onSignal)
  let timer: ReturnType<typeof setInterval> | null = null
  try {
    await runtime.start()
    if (!runtime.servesQueries()) {
      log.info('another Navi answers the commands; not staying')
      return 0
    }
    await writeSmallFileSafely(files.pid, `${String(process.pid)}\n`)
    // Serving: a command that finds the socket gone (this one exited) may start another.
    rmSync(files.starting, { force: true })
    const build = buildStamp()
    log.info(`answering the commands until idle (pid ${String(process.pid)})`)
    const check = () => {
      try {
        const why = reasonToStop({
          idleForMs: Date.now() - lastQuery,
          idleMs: runtime.config.get().config.cli.backgroundIdleMs,
          homeExists: existsSync(paths.naviHome),
          buildChanged: build !== null && buildStamp() !== build,
        })
        if (why) stop(why)
      } catch (error) {
        // A check that cannot be made (its build unreadable): no reason to stay.
        stop(`cannot check whether to stay: ${errorText(error)}`)
      }
    }
    const idleMs = runtime.config.get().config.cli.backgroundIdleMs
    timer = setInterval(check, Math.min(CHECK_EVERY_MAX_MS, Math.max(250, idleMs / 4)))
    log.info(`exiting: ${await stopped}`)
    return 0
  } catch (error) {
    log.error(`failed: ${errorText(error)}`)
    return 1
  } finally {
    if (timer) clearInterval(timer)
    rmSync(files.starting, { force: true })
    removeOwnPid(files.pid)
    await runtime.stop()
  }
}

/** Why the runtime stops now, or null. Pure. */
export function reasonToStop(opts: {
  idleForMs: number
  idleMs: number
  homeExists: boolean
  buildChanged: boolean
}): string | null {
  if (!opts.homeExists) return 'its home is gone'
  if (opts.buildChanged) return 'Navi was rebuilt or updated'
  if (opts.idleMs <= 0) return 'cli.background is now 0'
  if (opts.idleForMs >= opts.idleMs)
    return `no command asked for ${String(Math.round(opts.idleForMs / 1000))} s`
  return null
}

/** The engine file's identity: another build (an update, a rebuild) replaces it. Null from the sources. */
function buildStamp(): string | null {
  const codeFile = codeCacheState(ENGINE_CODE_CACHE_STATE)?.codeFile
  if (!codeFile) return null
  const found = statSync(codeFile, { throwIfNoEntry: false })
  return found ? `${String(found.ino)}:${String(found.size)}:${String(found.mtimeMs)}` : 'gone'
}

function removeOwnPid(file: string): void {
  let held: string
  try {
    held = readFileSync(file, 'utf8').trim()
  } catch (error) {
    // Not there (never written, or removed with its home): nothing to remove.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  if (held === String(process.pid)) rmSync(file, { force: true })
}

/** `navi doctor`'s line: whether a background runtime answers now, or why none will be started. */
export function backgroundCheck(
  paths: EnginePaths,
  idleMs: number,
  env: NodeJS.ProcessEnv = process.env,
): DoctorCheck {
  const name = 'background runtime'
  let pid = 0
  try {
    pid = Number(readFileSync(backgroundFiles(paths).pid, 'utf8').trim())
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  if (isPidAlive(pid))
    return { name, ok: true, detail: `answering the commands (pid ${String(pid)})`, fix: null }
  const decision = backgroundDecision({
    idleMs,
    env,
    socketPath: querySocketPath(paths),
    built: codeCacheState() !== null,
  })
  const detail = decision.start
    ? `not running: the next command that computes its answer starts one (exits after ${String(Math.round(idleMs / 60_000))} min idle)`
    : `off: ${decision.why}`
  return { name, ok: true, detail, fix: null }
}
