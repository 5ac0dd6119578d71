/**
 * Hermetic environment for the real `claude` binary (the pinned `@anthropic-ai/claude-code` in this
 * repo's node_modules). `const env = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [proj] })`
 * creates a temp `CLAUDE_CONFIG_DIR` with a `.claude.json` that lets the TUI start without dialogs
 * (reference, section 12.1) and returns the variables to pass to `runClaudePrint` or
 * `startClaudeInTmux`; `await disposeClaudeEnv(env)` removes the config dir it created. The CLI never
 * sees the caller's environment: `hermeticBaseEnv()` (`hermetic-env.ts`, re-exported here) keeps only
 * PATH, HOME, locale and shell basics, so a developer's `ANTHROPIC_*` or `CLAUDE*` variables cannot leak.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hermeticBaseEnv, pinnedBinary, pinnedPackageVersion } from './hermetic-env.ts'
import { compareVersions, versionIn } from '../../shared/tested-cli-versions.ts'

export { hermeticBaseEnv } from './hermetic-env.ts'

/**
 * Absolute path of the repo's pinned `claude` binary (throws if `npm ci` has not been run), or of the one
 * `NAVI_TEST_CLAUDE_BIN` names: the same tests then run against another release (the newest, the oldest).
 */
export function claudeBinary(): string {
  return process.env.NAVI_TEST_CLAUDE_BIN || pinnedBinary('claude', '@anthropic-ai/claude-code')
}

/** Version of the pinned CLI package, e.g. `2.1.330`. */
export function claudeVersion(): string {
  return pinnedPackageVersion('@anthropic-ai/claude-code')
}

let testedVersion: string | null = null

/** Version of the binary the tests run (`claude --version` of {@link claudeBinary}), e.g. `2.1.197`. */
export function testedClaudeVersion(): string {
  if (testedVersion === null) {
    const out = execFileSync(claudeBinary(), ['--version'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...hermeticBaseEnv(), DISABLE_AUTOUPDATER: '1' },
    })
    testedVersion = versionIn(out)
    if (testedVersion === null) throw new Error(`claude --version printed no version: ${out}`)
  }
  return testedVersion
}

/** Whether the CLI under test is `version` or newer. */
export function claudeIsAtLeast(version: string): boolean {
  return compareVersions(testedClaudeVersion(), version) >= 0
}

/**
 * Turns the task tools (TaskCreate/TaskUpdate/TodoWrite) on: current models have them off by default
 * (2.1.330), so a test of task tracking asks for them the way a user would.
 */
export const TASK_TOOLS_ON = { CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' } as const

/** Variables for one hermetic CLI setup; always has the keys below. */
export type ClaudeEnv = Record<string, string> & {
  ANTHROPIC_BASE_URL: string
  ANTHROPIC_API_KEY: string
  CLAUDE_CONFIG_DIR: string
  DISABLE_AUTOUPDATER: string
}

export interface ClaudeEnvOptions {
  /** Base URL of the scripted API, without `/v1`. */
  apiUrl: string
  /** Use this config dir instead of a fresh temp dir (it is then not removed by `disposeClaudeEnv`). */
  configDir?: string
  /** Project dirs whose trust dialog counts as accepted. `startClaudeInTmux` adds its cwd itself. */
  trustedDirs?: string[]
  /** Sets `CLAUDE_CODE_MAX_RETRIES` (the CLI's default is 10 retries over ~3 minutes). */
  maxRetries?: number
  /** @default 'sk-test' */
  apiKey?: string
  /** Added last, so it can override anything above. */
  extraEnv?: Record<string, string>
}

const createdConfigDirs = new Set<string>()
/** config dir → the empty HOME created with it. */
const createdHomes = new Map<string, string>()

/**
 * Creates the config dir and its `.claude.json`, and returns the variables for the CLI. HOME is an empty
 * folder of its own: the shells Claude Code's Bash tool starts source the user's startup files, and a
 * developer's `.bashrc` (here a `pyenv rehash` whose lock a killed agent left behind, which every later
 * shell then waited a minute on) has no place in a test.
 */
export async function createClaudeEnv(opts: ClaudeEnvOptions): Promise<ClaudeEnv> {
  const configDir =
    opts.configDir ?? realpathSync(await mkdtemp(join(tmpdir(), 'navi-claude-config-')))
  if (opts.configDir === undefined) createdConfigDirs.add(configDir)
  const home = realpathSync(await mkdtemp(join(tmpdir(), 'navi-claude-home-')))
  createdHomes.set(configDir, home)
  await mkdir(configDir, { recursive: true })
  const apiKey = opts.apiKey ?? 'sk-test'
  await writeClaudeState(configDir, (state) => ({
    ...state,
    hasCompletedOnboarding: true,
    theme: 'dark',
    lastOnboardingVersion: claudeVersion(),
    // The CLI remembers approved keys by their last 20 characters.
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
  }))
  for (const dir of opts.trustedDirs ?? []) await trustProject(configDir, dir)
  const retries: Record<string, string> =
    opts.maxRetries === undefined ? {} : { CLAUDE_CODE_MAX_RETRIES: String(opts.maxRetries) }
  return {
    HOME: home,
    ANTHROPIC_BASE_URL: opts.apiUrl,
    ANTHROPIC_API_KEY: apiKey,
    CLAUDE_CONFIG_DIR: configDir,
    DISABLE_AUTOUPDATER: '1',
    // No network in tests: skip telemetry/error uploads and IDE or survey pop-ups in the TUI.
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL: '1',
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
    ...retries,
    ...opts.extraEnv,
  }
}

/** Marks `dir` (and its real path) as trusted in `<configDir>/.claude.json`. */
export async function trustProject(configDir: string, dir: string): Promise<void> {
  const paths = new Set([dir, existsSync(dir) ? realpathSync(dir) : dir])
  await writeClaudeState(configDir, (state) => {
    const projects = isRecord(state.projects) ? { ...state.projects } : {}
    for (const p of paths) {
      const existing = isRecord(projects[p]) ? projects[p] : {}
      projects[p] = { allowedTools: [], ...existing, hasTrustDialogAccepted: true }
    }
    return { ...state, projects }
  })
}

/** Removes the empty HOME, and the config dir if `createClaudeEnv` created it. */
export async function disposeClaudeEnv(env: ClaudeEnv): Promise<void> {
  const dir = env.CLAUDE_CONFIG_DIR
  const home = createdHomes.get(dir)
  createdHomes.delete(dir)
  if (home !== undefined)
    await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  if (!createdConfigDirs.delete(dir)) return
  // The CLI may still be writing in the background (a plugin marketplace clone): retry, do not fail.
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

async function writeClaudeState(
  configDir: string,
  update: (state: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  const file = join(configDir, '.claude.json')
  let state: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'))
    if (isRecord(parsed)) state = parsed
  } catch {
    // missing or unreadable: start from an empty state
  }
  await writeFile(file, `${JSON.stringify(update(state), null, 2)}\n`)
}
