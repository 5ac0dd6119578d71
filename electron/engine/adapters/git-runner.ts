/**
 * Runs git in a repository the way every read must: hardened (git-trust.ts), addressed with `-C <root>` so
 * git's own safe.directory check runs on every command, discovery stopped at `<root>`
 * (`GIT_CEILING_DIRECTORIES`, so a deleted repository is an error instead of a walk up into a parent repo),
 * a bounded number of processes at once across repositories, and each spawn counted.
 */
import { tmpdir } from 'node:os'
import type { SimpleGit } from 'simple-git'
import pLimit from 'p-limit'
import type { RepoLocation } from './git-repo-root.ts'
import {
  filterOverrideArgs,
  findForeignPath,
  GIT_HARDENING_CONFIG,
  gitEnvironment,
  HARDENING_UNSAFE_OPTIONS,
} from './git-trust.ts'

/**
 * Counts git processes: a callback called once per spawn, or an object whose `count` is
 * incremented (a benchmark reads it before and after a cycle).
 */
export type SpawnCounter = (() => void) | { count: number }

export interface GitRunnerOptions {
  /** Told of every git process this runner spawns. */
  spawnCounter?: SpawnCounter
  /** Git processes running at once across every repository. @default 2 */
  maxConcurrentProcesses?: number
  /** A git process silent for this long is killed (the command rejects). @default 10000 */
  timeoutMs?: number
}

export interface GitRunner {
  /** Runs `git -C <repoRoot> <args>`; rejects when git fails. */
  run(repoRoot: string, args: string[]): Promise<string>
  /** Call before each read: switches off the filter drivers of a repository another user owns. */
  prepare(repoRoot: string, location: RepoLocation): Promise<void>
  forget(repoRoot: string): void
}

export function createGitRunner(options: GitRunnerOptions = {}): GitRunner {
  const limit = pLimit(options.maxConcurrentProcesses ?? 2)
  const euid = process.geteuid?.() ?? null
  const counter = options.spawnCounter
  const instances = new Map<string, SimpleGit>()
  /** Per repository not owned by the user: its own filter drivers switched off (`-c` pairs). */
  const extraConfig = new Map<string, string[]>()

  /**
   * One simple-git per repository: the discovery ceiling is part of its environment. simple-git itself is
   * imported with the first repository, so a command that reads none never loads it.
   */
  const gitFor = async (repoRoot: string): Promise<SimpleGit> => {
    let git = instances.get(repoRoot)
    if (!git) {
      const { simpleGit } = await import('simple-git')
      // Another read of the same repository may have made one meanwhile.
      git = instances.get(repoRoot)
      if (git) return git
      git = simpleGit({
        baseDir: tmpdir(),
        maxConcurrentProcesses: 1_000,
        timeout: { block: options.timeoutMs ?? 10_000 },
        trimmed: false,
        config: [...GIT_HARDENING_CONFIG],
        // The user's own GIT_CONFIG_GLOBAL / PREFIX decide e.g. safe.directory: let them through.
        unsafe: { allowUnsafeConfigPaths: true, ...HARDENING_UNSAFE_OPTIONS },
      })
      git.env(gitEnvironment(process.env, repoRoot))
      // simple-git calls the output handler once per spawned process: the exact place to count.
      git.outputHandler(() => {
        if (typeof counter === 'function') counter()
        else if (counter) counter.count++
      })
      instances.set(repoRoot, git)
    }
    return git
  }
  const run = (repoRoot: string, args: string[]): Promise<string> =>
    limit(async () =>
      (await gitFor(repoRoot)).raw([...(extraConfig.get(repoRoot) ?? []), '-C', repoRoot, ...args]),
    )

  return {
    run,
    /**
     * A repository another user owns (trusted through safe.directory) may name filter drivers in its own
     * config, which `status` runs on files it must re-read. Their names are read afresh before each read
     * (its owner can change them at any time) and switched off; the user's own repositories keep theirs
     * (git-lfs and the like are the user's own configuration).
     */
    async prepare(repoRoot, location) {
      if (euid === null || findForeignPath(location, euid) === null) {
        extraConfig.delete(repoRoot)
        return
      }
      extraConfig.set(repoRoot, [])
      let names = ''
      try {
        names = await run(repoRoot, [
          'config',
          '--local',
          '--includes',
          '--null',
          '--name-only',
          '--get-regexp',
          '^filter\\.',
        ])
      } catch {
        // Exit 1 is git's answer for "no filter configured"; any other failure shows in the read itself.
      }
      extraConfig.set(repoRoot, filterOverrideArgs(names))
    },
    forget(repoRoot) {
      instances.delete(repoRoot)
      extraConfig.delete(repoRoot)
    },
  }
}
