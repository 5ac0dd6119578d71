/**
 * Finding the `claude` binary. A menu-bar app launched from the Dock gets a minimal PATH, so the
 * common install locations are searched too. An explicit choice (`NAVI_CLAUDE_BIN`, then the
 * setting) is never silently replaced: if it does not point at an executable, claude is "missing".
 */
import { constants } from 'node:fs'
import { access, readdir, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { delimiter, isAbsolute, join } from 'node:path'
import { expandHome } from '../engine/core/paths.ts'

/** How to give Navi a claude (after what went wrong: "claude not found — …", "… is not executable: …"). */
export const CLAUDE_INSTALL_FIX =
  'install it with `npm install -g @anthropic-ai/claude-code`, ' +
  'or set NAVI_CLAUDE_BIN to the path of the claude binary'

/** Why the PM cannot run when no claude was found anywhere, and what to do. */
export const CLAUDE_INSTALL_HINT = `Claude Code CLI not found: ${CLAUDE_INSTALL_FIX}.`

export type ClaudeBinSource = 'NAVI_CLAUDE_BIN' | 'setting' | 'PATH' | 'install-location'

export type FindClaudeResult =
  | { found: true; path: string; source: ClaudeBinSource }
  | {
      found: false
      /** What is wrong and what to do, as one sentence (the PM's reason for not running). */
      hint: string
      /** What to do, after a face's own "claude not found" (the tools banner); the hint where it says more. */
      fix: string
      /** Every path that was checked, in order. */
      tried: string[]
    }

export interface FindClaudeOptions {
  /** @default process.env */
  env?: Readonly<Record<string, string | undefined>>
  /** The `claude` path from Navi's settings, if any. */
  setting?: string | null
  /** @default env.HOME, else os.homedir() */
  home?: string
  /** @default process.platform */
  platform?: NodeJS.Platform
  /** The machine-wide install folders; tests point them at a temp dir. @default SYSTEM_BIN_DIRS */
  systemBinDirs?: readonly string[]
}

/** Where installers put a machine-wide `claude` (Intel and Apple-silicon Homebrew, `npm -g` as root). */
export const SYSTEM_BIN_DIRS: readonly string[] = ['/usr/local/bin', '/opt/homebrew/bin']

export interface ClaudeCandidate {
  path: string
  source: ClaudeBinSource
}

/**
 * Where to look, in order (pure): every PATH entry, then `~/.claude/local/claude` (the CLI's own
 * local install), `~/.local/bin`, `/usr/local/bin`, `/opt/homebrew/bin`, the npm global bin
 * (`$NPM_CONFIG_PREFIX/bin`, `~/.npm-global/bin`) and `nvmBinDirs` (one per installed node).
 */
export function claudeCandidates(opts: {
  env: Readonly<Record<string, string | undefined>>
  home: string
  platform: NodeJS.Platform
  nvmBinDirs?: readonly string[]
  systemBinDirs?: readonly string[]
}): ClaudeCandidate[] {
  const names = opts.platform === 'win32' ? ['claude.exe', 'claude.cmd', 'claude'] : ['claude']
  const pathDirs = (opts.env.PATH ?? '').split(delimiter).filter((d) => d !== '' && isAbsolute(d))
  const prefix = opts.env.NPM_CONFIG_PREFIX ?? opts.env.npm_config_prefix
  const installDirs = [
    join(opts.home, '.claude', 'local'),
    join(opts.home, '.local', 'bin'),
    ...(opts.systemBinDirs ?? SYSTEM_BIN_DIRS),
    ...(prefix ? [join(expandHome(prefix, opts.home), 'bin')] : []),
    join(opts.home, '.npm-global', 'bin'),
    ...(opts.nvmBinDirs ?? []),
  ]
  const seen = new Set<string>()
  const out: ClaudeCandidate[] = []
  const add = (dirs: string[], source: ClaudeBinSource) => {
    for (const dir of dirs) {
      for (const name of names) {
        const path = join(dir, name)
        if (seen.has(path)) continue
        seen.add(path)
        out.push({ path, source })
      }
    }
  }
  add(pathDirs, 'PATH')
  add(installDirs, 'install-location')
  return out
}

/** Finds the claude binary; never throws. */
export async function findClaude(opts: FindClaudeOptions = {}): Promise<FindClaudeResult> {
  const env = opts.env ?? process.env
  const home = opts.home ?? env.HOME ?? homedir()
  const platform = opts.platform ?? process.platform
  const explicit: ClaudeCandidate[] = []
  if (env.NAVI_CLAUDE_BIN) explicit.push({ path: env.NAVI_CLAUDE_BIN, source: 'NAVI_CLAUDE_BIN' })
  else if (opts.setting) explicit.push({ path: opts.setting, source: 'setting' })
  for (const { path, source } of explicit) {
    const resolved = expandHome(path, home)
    if (await isExecutableFile(resolved, platform)) return { found: true, path: resolved, source }
    const name = source === 'setting' ? 'The claude path in the settings' : 'NAVI_CLAUDE_BIN'
    const hint = `${name} (${resolved}) is not an executable file: point it at the claude binary (\`npm install -g @anthropic-ai/claude-code\` installs one).`
    return { found: false, hint, fix: hint, tried: [resolved] }
  }
  const candidates = claudeCandidates({
    env,
    home,
    platform,
    nvmBinDirs: await nvmBinDirs(home),
    ...(opts.systemBinDirs ? { systemBinDirs: opts.systemBinDirs } : {}),
  })
  for (const candidate of candidates) {
    if (await isExecutableFile(candidate.path, platform)) return { found: true, ...candidate }
  }
  return {
    found: false,
    hint: CLAUDE_INSTALL_HINT,
    fix: CLAUDE_INSTALL_FIX,
    tried: candidates.map((c) => c.path),
  }
}

/** `~/.nvm/versions/node/<version>/bin`, newest name first. */
async function nvmBinDirs(home: string): Promise<string[]> {
  const root = join(home, '.nvm', 'versions', 'node')
  try {
    const versions = await readdir(root)
    return versions
      .sort()
      .reverse()
      .map((v) => join(root, v, 'bin'))
  } catch {
    // No nvm here (the usual case): just no candidates from it.
    return []
  }
}

/** An absolute path to a regular file this user may execute (on Windows: any file). */
export async function isExecutableFile(path: string, platform: NodeJS.Platform): Promise<boolean> {
  if (!isAbsolute(path)) return false
  try {
    if (!(await stat(path)).isFile()) return false
    if (platform !== 'win32') await access(path, constants.X_OK)
    return true
  } catch {
    // Missing or not executable is the answer asked for; the caller reports what it tried.
    return false
  }
}
