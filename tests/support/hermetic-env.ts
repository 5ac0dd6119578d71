/**
 * Running the repo's pinned agent CLIs (`claude`, `codex`) hermetically. `pinnedBinary` and
 * `pinnedPackageVersion` find them in this repo's node_modules. `hermeticBaseEnv()` keeps only PATH,
 * HOME, locale and shell basics of the caller's environment, so a developer's `ANTHROPIC_*`,
 * `OPENAI_*`, `CLAUDE*`, `CODEX_*`, proxy or `NODE_ENV` variables cannot leak into a test, and
 * `runHermetic(bin, args, { cwd, env, timeoutMs })` runs the binary with only that plus `env`,
 * bounded by a timeout, never rejecting (the exit code and `timedOut` are in the result).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { execa } from 'execa'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

/**
 * Absolute path of `node_modules/.bin/<name>` in this repo; throws, naming the fix, when it (or the
 * `nativePackage` it launches) is not installed.
 */
export function pinnedBinary(name: string, packageName: string, nativePackage?: string): string {
  const bin = join(repoRoot, 'node_modules', '.bin', name)
  const nativeMissing =
    nativePackage !== undefined && !existsSync(join(repoRoot, 'node_modules', nativePackage))
  if (!existsSync(bin) || nativeMissing) {
    const what = nativePackage === undefined ? '' : ' and its native package'
    throw new Error(
      `The ${name} binary is missing at ${bin}. Run "npm ci" in ${repoRoot} ` +
        `(it installs the pinned ${packageName} devDependency${what}).`,
    )
  }
  return bin
}

/** Version of an installed package of this repo, e.g. `2.1.197`. */
export function pinnedPackageVersion(packageName: string): string {
  const file = join(repoRoot, 'node_modules', packageName, 'package.json')
  const pkg: unknown = JSON.parse(readFileSync(file, 'utf8'))
  const version =
    typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined
  if (typeof version !== 'string') throw new Error(`cannot read the ${packageName} package version`)
  return version
}

const keptVariables = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
]

/** The caller's environment reduced to what a shell needs; everything else is dropped. */
export function hermeticBaseEnv(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && (keptVariables.includes(key) || key.startsWith('LC_')))
      env[key] = value
  }
  // No test leaves a background runtime behind (cli-background.test.ts turns it on where it tests it).
  env.NAVI_BACKGROUND = '0'
  return env
}

/** One JSON value, or `undefined` when `text` does not parse. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** Each non-empty line parsed as JSON; lines that do not parse are skipped. */
export function parseJsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(parseJson)
    .filter((v) => v !== undefined)
}

export interface HermeticRunOptions {
  cwd: string
  /** Added to `hermeticBaseEnv()`; nothing else of the caller's environment reaches the process. */
  env: Record<string, string>
  /** The process is killed after this long (the result then has `timedOut: true`). */
  timeoutMs: number
  /** Written to stdin, which is then closed; stdin is ignored when undefined. */
  input?: string
}

export interface HermeticRunResult {
  exitCode: number | undefined
  stdout: string
  stderr: string
  timedOut: boolean
  durationMs: number
}

/** Runs `bin ...args` in `cwd` with only the hermetic environment plus `opts.env`. */
export async function runHermetic(
  bin: string,
  args: string[],
  opts: HermeticRunOptions,
): Promise<HermeticRunResult> {
  const started = Date.now()
  const result = await execa(bin, args, {
    cwd: opts.cwd,
    env: { ...hermeticBaseEnv(), ...opts.env },
    extendEnv: false,
    reject: false,
    timeout: opts.timeoutMs,
    forceKillAfterDelay: 2_000,
    ...(opts.input === undefined ? { stdin: 'ignore' as const } : { input: opts.input }),
  })
  return {
    exitCode: result.exitCode,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    timedOut: result.timedOut,
    durationMs: Date.now() - started,
  }
}
