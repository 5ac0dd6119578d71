import { loadExeca } from './execa-lazy.ts'
import { parseGhPrView, type PrState } from '../core/git-parse.ts'
import { hardeningEnv } from './git-trust.ts'

export type { PrState }

export interface PrStateReaderOptions {
  /** The `gh` executable. @default 'gh' */
  ghBinary?: string
  /** How long one answer is reused for the same repo, branch and head. @default 180000 */
  ttlMs?: number
  /** `gh` is killed after this long and the state is unknown. @default 8000 */
  timeoutMs?: number
  /** Milliseconds clock, for tests. @default Date.now */
  now?: () => number
}

export interface PrStateReader {
  /**
   * PR state of `branch` in `repoRoot` via `gh pr view`. Never rejects: no `gh`, not authenticated,
   * no GitHub remote, a detached HEAD or any failure is `{ state: 'unknown' }`; no PR is `none`.
   * Answers are cached per repo + branch + head for `ttlMs`, and concurrent asks share one `gh`.
   */
  readPrState(repoRoot: string, branch: string | null, headSha?: string | null): Promise<PrState>
  /** Forget cached answers of one repository, or all. */
  invalidate(repoRoot?: string): void
  /** `gh` processes started so far. */
  readonly spawned: number
}

export function createPrStateReader(options: PrStateReaderOptions = {}): PrStateReader {
  const ghBinary = options.ghBinary ?? 'gh'
  const ttlMs = options.ttlMs ?? 180_000
  const timeoutMs = options.timeoutMs ?? 8_000
  const now = options.now ?? Date.now
  const cache = new Map<string, { at: number; repoRoot: string; answer: Promise<PrState> }>()
  let spawned = 0

  async function askGh(repoRoot: string, branch: string): Promise<PrState> {
    spawned++
    try {
      const { execa } = await loadExeca()
      const result = await execa(ghBinary, ['pr', 'view', branch, '--json', 'state,number,url'], {
        cwd: repoRoot,
        reject: false,
        timeout: timeoutMs,
        stdin: 'ignore',
        // gh runs git in the repository: with the same repository-controlled executables switched off.
        env: {
          ...hardeningEnv(),
          GH_PROMPT_DISABLED: '1',
          GH_NO_UPDATE_NOTIFIER: '1',
          NO_COLOR: '1',
        },
      })
      if (result.timedOut) return { state: 'unknown' }
      return parseGhPrView(result.exitCode, String(result.stdout), String(result.stderr))
    } catch {
      // gh is optional: without it (or when it fails) the PR state is simply unknown.
      return { state: 'unknown' }
    }
  }

  function prune(at: number): void {
    for (const [key, entry] of cache) if (at - entry.at >= ttlMs) cache.delete(key)
  }

  return {
    readPrState(repoRoot, branch, headSha = null) {
      if (branch === null || branch.startsWith('-')) return Promise.resolve({ state: 'unknown' })
      const at = now()
      prune(at)
      const key = `${repoRoot}\0${branch}\0${headSha ?? ''}`
      const cached = cache.get(key)
      if (cached) return cached.answer
      const answer = askGh(repoRoot, branch)
      cache.set(key, { at, repoRoot, answer })
      return answer
    },
    invalidate(repoRoot) {
      for (const [key, entry] of cache) {
        if (repoRoot === undefined || entry.repoRoot === repoRoot) cache.delete(key)
      }
    },
    get spawned() {
      return spawned
    },
  }
}

const defaultReader = createPrStateReader()

/** `readPrState` of a process-wide reader with the default options (cache included). */
export function readPrState(
  repoRoot: string,
  branch: string | null,
  headSha?: string | null,
): Promise<PrState> {
  return defaultReader.readPrState(repoRoot, branch, headSha)
}
