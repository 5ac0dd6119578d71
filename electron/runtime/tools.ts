/**
 * Which external tools Navi can use here (claude, git, tmux, gh), found on PATH without spawning a shell,
 * and for each missing one the line that says how to install it.
 */
import { delimiter, isAbsolute, join } from 'node:path'
import type { ToolStatus } from '../../shared/ipc-contract.ts'
import { findClaude, isExecutableFile } from '../pm/find-claude.ts'

export type ToolName = ToolStatus['name']

export interface CheckToolsOptions {
  /** Whose PATH (and NAVI_CLAUDE_BIN, HOME) is searched. */
  env: Readonly<Record<string, string | undefined>>
  /** The claude path from the settings or config.yaml, if any. */
  claudePath?: string | null
  /** @default process.platform */
  platform?: NodeJS.Platform
  /** Where an installed claude is looked for besides PATH (tests: a folder of their own). */
  systemBinDirs?: readonly string[]
}

/** How to install each tool, one line (pure). */
export function toolFix(name: ToolName, platform: NodeJS.Platform): string {
  const pkg = (brew: string, apt: string) =>
    platform === 'darwin' ? `brew install ${brew}` : `apt-get install ${apt}`
  switch (name) {
    case 'claude':
      return 'npm install -g @anthropic-ai/claude-code'
    case 'git':
      return `install git: ${pkg('git', 'git')}`
    case 'tmux':
      return `install tmux (for "go to session"): ${pkg('tmux', 'tmux')}`
    case 'gh':
      return `install the GitHub CLI (for pull requests): ${pkg('gh', 'gh')}, then gh auth login`
  }
}

/** claude, git, tmux and gh, in that order; never throws. */
export async function checkTools(opts: CheckToolsOptions): Promise<ToolStatus[]> {
  const platform = opts.platform ?? process.platform
  const status = (name: ToolName, path: string | null, fix?: string): ToolStatus => ({
    name,
    found: path !== null,
    path,
    fix: path === null ? (fix ?? toolFix(name, platform)) : null,
  })
  const claude = await findClaude({
    env: opts.env,
    setting: opts.claudePath ?? null,
    platform,
    ...(opts.systemBinDirs ? { systemBinDirs: opts.systemBinDirs } : {}),
  })
  const others = await Promise.all(
    (['git', 'tmux', 'gh'] as const).map(async (name) =>
      status(name, await findOnPath(name, opts.env.PATH ?? '', platform)),
    ),
  )
  return [
    // The banner says "claude not found" itself: it takes the remedy, not the PM's whole reason.
    claude.found ? status('claude', claude.path) : status('claude', null, claude.fix),
    ...others,
  ]
}

/** The first executable `name` in the absolute entries of `pathVar`, or null. */
export async function findOnPath(
  name: string,
  pathVar: string,
  platform: NodeJS.Platform = process.platform,
): Promise<string | null> {
  const names = platform === 'win32' ? [`${name}.exe`, `${name}.cmd`, name] : [name]
  for (const dir of pathVar.split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue
    for (const file of names) {
      const path = join(dir, file)
      if (await isExecutableFile(path, platform)) return path
    }
  }
  return null
}
