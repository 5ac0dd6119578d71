/**
 * Which repositories Navi lets git run in, and how git is run there.
 *
 * A session's cwd can sit inside a repository another local user created (think `/tmp/x`), whose
 * `.git/config` may name commands (`core.fsmonitor`, hooks, filters, pagers) that git runs as whoever
 * runs git. Git guards against this itself: it refuses a repository not owned by the current user unless
 * the user's own config lists it in `safe.directory`. Navi follows exactly that rule, and lets git decide
 * it: a repository owned by the current user (work tree, `.git` and git dirs) is trusted at once from
 * `stat`; any other is trusted only when git itself, run in it with discovery (no `--git-dir`, which
 * would switch the check off), accepts it. On top of that, every git Navi runs has the repository-
 * controlled executables it could reach switched off (`GIT_HARDENING_CONFIG`).
 */
import { childProcess } from './lazy-builtins.ts'
import { statSync } from 'node:fs'
import { devNull } from 'node:os'
import { dirname } from 'node:path'
import type { RepoLocation } from './git-repo-root.ts'

/**
 * `-c` settings on every git command Navi runs: whatever a repository's config says, no fsmonitor hook,
 * no hooks, no pager, no external diff or textconv program, no signature verification (gpg), no ssh or
 * credential helper or ask-pass, no network protocol, no automatic gc or maintenance. Navi only reads
 * (status, for-each-ref, log, worktree list, rev-parse), so none of these is ever needed.
 */
export const GIT_HARDENING_CONFIG: readonly string[] = [
  'core.fsmonitor=false',
  `core.hooksPath=${devNull}`,
  'core.pager=cat',
  'core.askPass=',
  'core.sshCommand=false',
  'credential.helper=',
  'diff.external=',
  'log.showSignature=false',
  'gpg.program=false',
  'status.submoduleSummary=false',
  'protocol.allow=never',
  'gc.auto=0',
  'maintenance.auto=false',
]

/** The simple-git `unsafe` switches that let `GIT_HARDENING_CONFIG` through: they set safe values only. */
export const HARDENING_UNSAFE_OPTIONS = {
  allowUnsafeFsMonitor: true,
  allowUnsafeHooksPath: true,
  allowUnsafePager: true,
  allowUnsafeAskPass: true,
  allowUnsafeSshCommand: true,
  allowUnsafeCredentialHelper: true,
  allowUnsafeDiffExternal: true,
  allowUnsafeGpgProgram: true,
  allowUnsafeProtocolOverride: true,
  allowUnsafeFilter: true,
} as const

/** `GIT_HARDENING_CONFIG` as command-line arguments (`-c k=v …`), for git spawned outside simple-git. */
function hardeningArgs(): string[] {
  return GIT_HARDENING_CONFIG.flatMap((setting) => ['-c', setting])
}

/**
 * `-c` arguments that switch off the filter drivers named in `git config --name-only --null` output
 * (`filter.<driver>.<key>` names): their clean, smudge and process commands become empty.
 */
export function filterOverrideArgs(configNames: string): string[] {
  const drivers = new Set(
    configNames
      .split('\0')
      .map((name) => /^filter\.(.+)\.[^.]+$/s.exec(name.trim())?.[1])
      .filter((driver): driver is string => driver !== undefined),
  )
  return [...drivers].flatMap((driver) =>
    ['clean=', 'smudge=', 'process=', 'required=false'].flatMap((setting) => [
      '-c',
      `filter.${driver}.${setting}`,
    ]),
  )
}

/** `GIT_HARDENING_CONFIG` as environment (`GIT_CONFIG_COUNT`…), for tools that run git themselves (gh). */
export function hardeningEnv(): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(GIT_HARDENING_CONFIG.length) }
  GIT_HARDENING_CONFIG.forEach((setting, index) => {
    const eq = setting.indexOf('=')
    env[`GIT_CONFIG_KEY_${index}`] = setting.slice(0, eq)
    env[`GIT_CONFIG_VALUE_${index}`] = setting.slice(eq + 1)
  })
  return env
}

/** Variables that would point git at another repository than the one asked for. */
const REDIRECTING_ENV = new Set([
  'git_dir',
  'git_work_tree',
  'git_index_file',
  'git_common_dir',
  'git_object_directory',
  'git_alternate_object_directories',
  'git_namespace',
  'git_ceiling_directories',
  'git_discovery_across_filesystem',
])

/**
 * Variables simple-git refuses to pass on (editor, pager, ssh, askpass, env-injected config), none of
 * which a read-only status/log/for-each-ref uses: dropping them beats failing every read.
 */
const REFUSED_ENV = new Set([
  'editor',
  'pager',
  'git_editor',
  'git_sequence_editor',
  'git_pager',
  'git_askpass',
  'ssh_askpass',
  'git_ssh',
  'git_ssh_command',
  'git_proxy_command',
  'git_external_diff',
  'git_template_dir',
  'git_config_count',
])

/**
 * The environment git runs in for the repository at `root`: the parent's, minus what would redirect git
 * or what simple-git refuses, plus discovery stopped at `root` (`GIT_CEILING_DIRECTORIES` is its parent: a
 * deleted repository is an error, never a walk up into an enclosing one), no optional locks (a background
 * `status` must never take `index.lock` from under the user's own git) and no credential prompts.
 */
export function gitEnvironment(env: NodeJS.ProcessEnv, root: string): Record<string, string> {
  const clean: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) {
    const name = key.toLowerCase().trim()
    const dropped =
      REDIRECTING_ENV.has(name) ||
      REFUSED_ENV.has(name) ||
      /^git_config_(key|value)_\d+$/.test(name)
    if (value !== undefined && !dropped) clean[key] = value
  }
  return {
    ...clean,
    GIT_CEILING_DIRECTORIES: dirname(root),
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
  }
}

/** Whether git may run in a repository, and if not, why (one line, for `navi status` and `navi doctor`). */
export interface TrustVerdict {
  trusted: boolean
  reason: string | null
}

/** A path of the repository owned by someone else. */
export interface ForeignPath {
  path: string
  uid: number
}

/**
 * The first of the paths git checks for ownership (the work tree, its `.git`, the git dir and the common
 * dir) that is not owned by `euid`; null when all are (or cannot be stat'ed: git then fails on its own).
 */
export function findForeignPath(location: RepoLocation, euid: number): ForeignPath | null {
  const paths = [
    location.workTree,
    `${location.workTree}/.git`,
    location.gitDir,
    location.commonDir,
  ]
  for (const path of new Set(paths)) {
    let uid: number
    try {
      uid = statSync(path).uid
    } catch {
      continue
    }
    if (uid !== euid) return { path, uid }
  }
  return null
}

/** Asks git whether it accepts the repository at `workTree` (its own safe.directory rule). */
export type AskGit = (workTree: string) => { ok: boolean; stderr: string }

/** Runs `git rev-parse --git-dir` in `workTree` with discovery, the hardening and the user's own config. */
export const askGitSync: AskGit = (workTree) => {
  const result = childProcess().spawnSync(
    'git',
    [...hardeningArgs(), '-C', workTree, 'rev-parse', '--git-dir'],
    {
      env: gitEnvironment(process.env, workTree),
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  if (result.error) return { ok: false, stderr: result.error.message }
  return { ok: result.status === 0, stderr: result.stderr ?? '' }
}

export interface RepoTrustOptions {
  /** The effective uid; null where there is none (Windows): git is asked about every repository. */
  euid?: number | null
  askGit?: AskGit
  /** How long a verdict is reused; a new `safe.directory` entry is seen after at most this. @default 60 s */
  ttlMs?: number
  now?: () => number
}

export interface RepoTrust {
  check(location: RepoLocation): TrustVerdict
  /** Verdicts currently refusing a repository, by work tree. */
  refusals(): Map<string, string>
}

export function createRepoTrust(options: RepoTrustOptions = {}): RepoTrust {
  const euid = options.euid === undefined ? (process.geteuid?.() ?? null) : options.euid
  const askGit = options.askGit ?? askGitSync
  const ttlMs = options.ttlMs ?? 60_000
  const now = options.now ?? Date.now
  const verdicts = new Map<string, { at: number; verdict: TrustVerdict }>()

  const decide = (location: RepoLocation): TrustVerdict => {
    const foreign = euid === null ? null : findForeignPath(location, euid)
    if (euid !== null && foreign === null) return { trusted: true, reason: null }
    const answer = askGit(location.workTree)
    if (answer.ok) return { trusted: true, reason: null }
    const owner = foreign ? ` is owned by uid ${foreign.uid}, not by you (uid ${euid}), and` : ''
    const gitSays = firstLine(answer.stderr)
    return {
      trusted: false,
      reason:
        `repository ${location.workTree}${owner} is not trusted by git's safe.directory: ` +
        `Navi does not run git there (${gitSays}). If you trust it: ` +
        `git config --global --add safe.directory ${location.workTree}`,
    }
  }

  return {
    check(location) {
      const at = now()
      const cached = verdicts.get(location.workTree)
      if (cached && at - cached.at < ttlMs) return cached.verdict
      const verdict = decide(location)
      verdicts.set(location.workTree, { at, verdict })
      return verdict
    },
    refusals() {
      const at = now()
      const out = new Map<string, string>()
      for (const [workTree, { at: when, verdict }] of verdicts) {
        if (!verdict.trusted && verdict.reason && at - when < ttlMs)
          out.set(workTree, verdict.reason)
      }
      return out
    },
  }
}

function firstLine(text: string): string {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /^(fatal|error):/.test(l))
  return line ?? (text.trim().split('\n')[0]?.trim() || 'git refused it')
}
