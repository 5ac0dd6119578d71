/**
 * Drives the real `codex` binary (the pinned `@openai/codex` in this repo's node_modules) against the
 * scripted Responses API (`scripted-responses-api.ts`). Typical test:
 * `const api = await startScriptedResponsesApi()`,
 * `const env = await createCodexEnv({ apiUrl: api.baseUrl })`,
 * `api.enqueue(execCommand('echo hi'), textAnswer('done'))`, then
 * `const run = await runCodexExec({ cwd: repo, env, prompt: 'go', timeoutMs: 60_000 })` and assert on
 * `run.events` (the `--json` JSONL), on `listRollouts(env.CODEX_HOME)` and on `api.requests`.
 * `await disposeCodexEnv(env)` removes the temp dir it created. The CLI never sees the caller's
 * environment (`hermeticBaseEnv`), so a developer's `OPENAI_*` or `CODEX_*` variables cannot leak in.
 * Formats: agent-cli-formats.md section 14.
 */
import { existsSync, realpathSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { execa } from 'execa'
import {
  parseJsonLines,
  pinnedBinary,
  pinnedPackageVersion,
  runHermetic,
  type HermeticRunResult,
} from './hermetic-env.ts'

export { hermeticBaseEnv } from './hermetic-env.ts'

/**
 * Absolute path of the repo's pinned `codex` launcher (throws if `npm ci` has not been run), or of the one
 * `NAVI_TEST_CODEX_BIN` names: the same tests then run against another release (scripts/test-compat.mjs).
 */
export function codexBinary(): string {
  if (process.env.NAVI_TEST_CODEX_BIN) return process.env.NAVI_TEST_CODEX_BIN
  const linuxX64 = process.platform === 'linux' && process.arch === 'x64'
  return pinnedBinary('codex', '@openai/codex', linuxX64 ? '@openai/codex-linux-x64' : undefined)
}

/** True when `codexBinary()` would not throw. */
export function hasCodexBinary(): boolean {
  try {
    codexBinary()
    return true
  } catch {
    return false
  }
}

/** Version of the pinned CLI package, e.g. `0.169.0`. */
export function codexVersion(): string {
  return pinnedPackageVersion('@openai/codex')
}

/** Variables for one hermetic Codex setup; always has the keys below. */
export type CodexEnv = Record<string, string> & {
  CODEX_HOME: string
  /** An empty home, so the `bash -lc` Codex runs commands in reads no developer dotfiles. */
  HOME: string
  FAKE_OPENAI_KEY: string
}

export interface CodexEnvOptions {
  /** The provider's `base_url`, with `/v1` (`ScriptedResponsesApi.baseUrl`). */
  apiUrl: string
  /** @default 'gpt-fake-1' */
  model?: string
  /** Retries of a failed request or stream (Codex's own default retries for ~25 s). @default 0 */
  maxRetries?: number
  /** Extra `config.toml` lines appended after the generated ones. */
  extraConfig?: string
  /** Added last, so it can override anything above. */
  extraEnv?: Record<string, string>
}

const createdBases = new Set<string>()

const tomlString = (s: string): string => JSON.stringify(s)

/** The `config.toml` of a custom `fake` provider speaking the Responses API (reference, 14.2). */
export function codexConfigToml(opts: CodexEnvOptions): string {
  const retries = String(opts.maxRetries ?? 0)
  return [
    `model = ${tomlString(opts.model ?? 'gpt-fake-1')}`,
    'model_provider = "fake"',
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[model_providers.fake]',
    'name = "Fake local Responses API"',
    `base_url = ${tomlString(opts.apiUrl)}`,
    'wire_api = "responses"',
    'env_key = "FAKE_OPENAI_KEY"',
    `request_max_retries = ${retries}`,
    `stream_max_retries = ${retries}`,
    'stream_idle_timeout_ms = 30000',
    '',
    opts.extraConfig ?? '',
  ].join('\n')
}

/**
 * Creates a temp dir holding `codex-home/` (the `CODEX_HOME`, with its `config.toml`) and an empty
 * `home/`, and returns the variables for the CLI.
 */
export async function createCodexEnv(opts: CodexEnvOptions): Promise<CodexEnv> {
  const base = realpathSync(await mkdtemp(join(tmpdir(), 'navi-codex-env-')))
  createdBases.add(base)
  const codexHome = join(base, 'codex-home')
  const home = join(base, 'home')
  await mkdir(codexHome)
  await mkdir(home)
  await writeFile(join(codexHome, 'config.toml'), codexConfigToml(opts))
  return {
    CODEX_HOME: codexHome,
    HOME: home,
    FAKE_OPENAI_KEY: 'sk-fake',
    ...opts.extraEnv,
  }
}

/** Removes everything `createCodexEnv` created for `env`. */
export async function disposeCodexEnv(env: CodexEnv): Promise<void> {
  const base = dirname(env.CODEX_HOME)
  if (!createdBases.delete(base)) return
  // The TUI starts an app-server daemon (from `$CODEX_HOME/packages/`) that outlives it: left running, each
  // held an inotify instance, and a full test run ran out of them (every file watcher then failed).
  await execa('pkill', ['-KILL', '-f', `${base}/`], { reject: false })
  await rm(base, { recursive: true, force: true })
}

export interface CodexExecOptions {
  cwd: string
  env: CodexEnv
  prompt: string
  /** The process is killed after this long (the result then has `timedOut: true`). */
  timeoutMs: number
  /** Extra arguments before the prompt, e.g. `['--sandbox', 'workspace-write']`. */
  args?: string[]
  /** Pass `--skip-git-repo-check` (needed outside a git repository). @default false */
  skipGitRepoCheck?: boolean
  /** Pass `--strict-config`, so a config key this Codex does not know fails the run. @default true */
  strictConfig?: boolean
}

export interface CodexExecResult extends HermeticRunResult {
  /** Each stdout line parsed as JSON (`--json`); unparsable lines skipped. */
  events: unknown[]
}

/** Runs `codex exec --json --strict-config [...args] -- <prompt>` in `cwd` with an empty stdin and only `env`. */
export async function runCodexExec(opts: CodexExecOptions): Promise<CodexExecResult> {
  const args = [
    'exec',
    '--json',
    ...(opts.skipGitRepoCheck ? ['--skip-git-repo-check'] : []),
    ...((opts.strictConfig ?? true) ? ['--strict-config'] : []),
    ...(opts.args ?? []),
    '--',
    opts.prompt,
  ]
  const result = await runHermetic(codexBinary(), args, {
    cwd: opts.cwd,
    env: opts.env,
    timeoutMs: opts.timeoutMs,
    // An empty, closed stdin: piped input would be appended to the prompt.
    input: '',
  })
  return { ...result, events: parseJsonLines(result.stdout) }
}

/** Every `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`, sorted. */
export async function listRollouts(codexHome: string): Promise<string[]> {
  const root = join(codexHome, 'sessions')
  if (!existsSync(root)) return []
  const entries = await readdir(root, { recursive: true })
  return entries
    .filter((rel) => /^\d{4}\/\d{2}\/\d{2}\/rollout-[^/]*\.jsonl$/.test(rel))
    .map((rel) => join(root, rel))
    .sort()
}

/** True when the codex the tests run (`codexBinary()`) is at least 0.`minor` (false without one). */
export async function codexAtLeast(minor: number): Promise<boolean> {
  if (!hasCodexBinary()) return false
  const out = (await execa(codexBinary(), ['--version'], { reject: false })).stdout
  const match = /(\d+)\.(\d+)\.\d+/.exec(String(out))
  return Boolean(match && (Number(match[1]) > 0 || Number(match[2]) >= minor))
}
