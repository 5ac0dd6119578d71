/** `navi doctor`: what Navi found, what is missing and how to fix it. */
import { access } from 'node:fs/promises'
import { loadExeca } from '../runtime/index.ts'
import type { DoctorCheck, DoctorOutput } from '../../shared/schemas/cli.ts'
import { CODEX_TRUST_HINT, codexHooksStatus, hooksStatus } from '../runtime/hooks.ts'
import { naviFiles, type Engine, type EnginePaths } from '../runtime/index.ts'
import { logFile, recentLogErrors } from '../runtime/logger.ts'
import { testedRangeNote } from '../../shared/tested-cli-versions.ts'
import { codeCacheCheck, codeCacheState, ENGINE_CODE_CACHE_STATE } from './code-cache-state.ts'
import { backgroundCheck } from './background.ts'

const BINARIES: { name: string; args: string[]; fix: string }[] = [
  {
    name: 'git',
    args: ['--version'],
    fix: 'install git (apt-get install git / xcode-select --install)',
  },
  {
    name: 'claude',
    args: ['--version'],
    fix: 'npm install -g @anthropic-ai/claude-code, or set NAVI_CLAUDE_BIN',
  },
  {
    name: 'codex',
    args: ['--version'],
    fix: 'npm install -g @openai/codex (only needed for Codex sessions)',
  },
  {
    name: 'tmux',
    args: ['-V'],
    fix: 'install tmux to jump to sessions (apt-get install tmux / brew install tmux)',
  },
  {
    name: 'gh',
    args: ['--version'],
    fix: 'install the GitHub CLI and run `gh auth login` to see PR state',
  },
]

export async function runDoctor(
  paths: EnginePaths,
  engine: Engine,
  cli: { backgroundIdleMs: number } = { backgroundIdleMs: 0 },
): Promise<DoctorOutput> {
  const checks: DoctorCheck[] = []
  const binaryChecks = await Promise.all(BINARIES.map((b) => checkBinary(b.name, b.args, b.fix)))
  checks.push(...binaryChecks)

  const files = naviFiles(paths)
  checks.push(
    await checkDir(
      'claude config',
      paths.claudeConfigDir,
      'run claude once, or set CLAUDE_CONFIG_DIR',
    ),
  )
  checks.push(
    await checkDir('claude sessions', files.claudeProjects, 'no Claude Code transcripts yet'),
  )
  checks.push(
    await checkDir(
      'codex home',
      paths.codexHome,
      'only needed for Codex: run codex once, or set CODEX_HOME',
    ),
  )
  checks.push(await checkDir('navi home', paths.naviHome, 'created on the first `navi status`'))
  checks.push(codeCacheCheck(codeCacheState()))
  // The built CLI's engine side, which this command loaded (absent from the sources).
  const engineCache = codeCacheState(ENGINE_CODE_CACHE_STATE)
  if (engineCache) checks.push(codeCacheCheck(engineCache, 'cli engine cache'))
  checks.push(backgroundCheck(paths, cli.backgroundIdleMs))

  try {
    const hooks = await hooksStatus(paths)
    checks.push({
      name: 'hooks',
      ok: hooks.installed && !hooks.outdated,
      detail: hooks.settingsError
        ? `cannot read ${hooks.settingsPath}: ${hooks.settingsError}`
        : hooks.installed && hooks.outdated
          ? `installed in ${hooks.settingsPath}, but running another handler than ${hooks.handlerPath} (an older Navi's, or another NAVI_HOME's)`
          : hooks.installed
            ? `installed for ${hooks.events.length} events in ${hooks.settingsPath}`
            : hooks.events.length === 0
              ? 'not installed; status comes from live-session files and transcripts'
              : `partly installed (missing: ${hooks.missing.join(', ')})`,
      fix: hooks.outdated
        ? "navi hooks install (puts this Navi's handler in place)"
        : hooks.installed
          ? null
          : 'navi hooks install (most accurate status, optional)',
    })
  } catch (error) {
    checks.push({
      name: 'hooks',
      ok: false,
      detail: String(error),
      fix: 'check settings.json is valid JSON',
    })
  }

  checks.push(await codexHooksCheck(paths))

  await engine.refresh({ force: true })
  const diagnostics = engine.diagnostics()
  checks.push({
    name: 'config',
    ok: diagnostics.configErrors.length === 0,
    detail:
      diagnostics.configErrors.length === 0
        ? `${files.config} (defaults where absent)`
        : `invalid, defaults used: ${diagnostics.configErrors.join('; ')}`,
    fix:
      diagnostics.configErrors.length === 0
        ? null
        : `edit ${files.config}; the README documents its shape`,
  })
  const state = engine.getState()
  const projectErrors = state.projects.flatMap((p) =>
    p.errors.map((error) => `${p.name} (${p.project_dir}): ${error}`),
  )
  // The state's errors also hold what the last cycle could not do (a failed cycle, a full disk);
  // config errors have their own check above.
  const engineErrors = state.errors.filter((error) => !diagnostics.configErrors.includes(error))
  const recentErrors = await recentLogErrors(paths.naviHome).catch((error: unknown) => [
    `the log cannot be read: ${error instanceof Error ? error.message : String(error)}`,
  ])
  return {
    checks,
    corrupt_lines: diagnostics.corruptLines,
    notes: diagnostics.notes,
    errors: [...new Set([...engineErrors, ...diagnostics.sourceErrors, ...projectErrors])],
    log: { file: logFile(paths.naviHome), recent_errors: recentErrors },
  }
}

/**
 * Navi's hook in Codex: optional (only to answer Codex's permission requests from Navi), so it is not
 * a problem when Codex is absent or the hook was never installed; an install Codex has not trusted yet,
 * or one running another Navi's handler, is.
 */
async function codexHooksCheck(paths: EnginePaths): Promise<DoctorCheck> {
  const name = 'codex hooks'
  try {
    await access(paths.codexHome)
  } catch {
    return { name, ok: true, detail: 'no Codex home; not needed', fix: null }
  }
  const status = await codexHooksStatus(paths)
  if (status.error) {
    return {
      name,
      ok: false,
      detail: `cannot read: ${status.error}`,
      fix: 'fix or remove the file',
    }
  }
  if (status.installedEvents.length === 0) {
    return {
      name,
      ok: true,
      detail: 'not installed (optional: answer Codex permission requests from Navi)',
      fix: null,
    }
  }
  if (!status.installed || status.outdated) {
    return {
      name,
      ok: false,
      detail: status.installed
        ? `${status.hooksPath} runs another handler than this Navi's`
        : `partly installed in ${status.hooksPath} (missing: ${status.missingEvents.join(', ')})`,
      fix: 'navi hooks install codex',
    }
  }
  if (status.untrusted.length > 0) {
    return {
      name,
      ok: false,
      detail: `installed in ${status.hooksPath}, not trusted by Codex yet (${status.untrusted.join(', ')}): Codex skips it`,
      fix: CODEX_TRUST_HINT,
    }
  }
  return {
    name,
    ok: true,
    detail: `installed in ${status.hooksPath} and trusted in Codex's config.toml`,
    fix: null,
  }
}

async function checkBinary(name: string, args: string[], fix: string): Promise<DoctorCheck> {
  const bin = name === 'claude' && process.env.NAVI_CLAUDE_BIN ? process.env.NAVI_CLAUDE_BIN : name
  try {
    const { execa } = await loadExeca()
    const { stdout } = await execa(bin, args, {
      timeout: 10_000,
      env: { DISABLE_AUTOUPDATER: '1' },
      stdin: 'ignore',
    })
    const line = stdout.split('\n')[0]?.trim() ?? ''
    const detail = name === 'claude' || name === 'codex' ? testedRangeNote(name, line) : line
    return { name, ok: true, detail, fix: null }
  } catch {
    return { name, ok: false, detail: 'not found on PATH', fix }
  }
}

async function checkDir(name: string, dir: string, fix: string): Promise<DoctorCheck> {
  try {
    await access(dir)
    return { name, ok: true, detail: dir, fix: null }
  } catch {
    return { name, ok: false, detail: `${dir} does not exist`, fix }
  }
}
