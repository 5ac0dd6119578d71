/**
 * What the built CLI's launcher (launcher.ts) did with V8's code cache this run, for `navi doctor`. The
 * launcher and the CLI are separate bundles: the state passes through a global under a registered symbol.
 */
import type { DoctorCheck } from '../../shared/schemas/cli.ts'
import { fnv1a } from '../../shared/name-hash.ts'

export const CODE_CACHE_STATE = Symbol.for('navi.cli.codeCache')
/** The same for the CLI's engine side (navi-engine.cjs), once loaded. */
export const ENGINE_CODE_CACHE_STATE = Symbol.for('navi.cli.engineCodeCache')
/**
 * The launcher's loader of another file of the CLI, `(codeFile, cachePrefix) => exports`, which the
 * built front calls to load the engine side (scripts/cli-bundle.ts).
 */
export const LOAD_CLI_PART = Symbol.for('navi.cli.loadPart')

export interface CodeCacheState {
  /** The CLI bundle's build (a hash of its code). */
  build: string
  /** The cache file. */
  file: string
  /** The CLI's file this state is about (navi-main.cjs, navi-engine.cjs). */
  codeFile: string
  /**
   * used: read and accepted; absent: none yet (written at exit); rejected: made by another build or Node
   * (written anew); written: made this run; unwritable: could not be written (`error`); off: not used.
   */
  status: 'used' | 'absent' | 'rejected' | 'written' | 'unwritable' | 'off'
  error: string | null
  /** Writes it now rather than at exit (absent or rejected only). */
  write?: () => void
  /** How far into the CLI this run went (CODE_CACHE_SCOPE): what it compiled, the cache holds. */
  scope: number
  /** How far the run that wrote the cache went; null without one. */
  cachedScope: number | null
}

/**
 * How far into the CLI a run went, widening: the help alone, a command (which may only ask a running
 * Navi), the engine. A cache holds what its writer compiled, and V8 compiles the rest on every run: a
 * cache written by a first `navi --help` made each later `navi status` 16 ms slower, for good. A run that
 * goes further than the cache's writer writes it anew (launcher.ts), at most twice per build.
 */
export const CODE_CACHE_SCOPE = { help: 0, command: 1, engine: 2 } as const

/**
 * The cache file's name: per build, Node and kind (a command that runs until stopped runs under other V8
 * flags), and per Node options. V8 refuses a cache made under other flags, and options such as
 * `--max-old-space-size` in NODE_OPTIONS change them: one shell with NODE_OPTIONS set and one without
 * refused and rewrote each other's cache on every command (~135 ms each instead of ~88). Without options
 * (the usual case) the name has no suffix; with some, a short hash of them. Pure.
 */
export function codeCacheFileName(opts: {
  prefix: string
  build: string
  nodeVersion: string
  arch: string
  untilStopped: boolean
  execArgv: readonly string[]
  nodeOptions: string | undefined
}): string {
  const options = [...opts.execArgv, opts.nodeOptions ?? ''].join('\0')
  const optionsKey = options === '' ? '' : `-o${fnv1a(options)}`
  const kind = opts.untilStopped ? '-long' : ''
  return `${opts.prefix}${opts.build}-${opts.nodeVersion}-${opts.arch}${kind}${optionsKey}.bin`
}

/** How many caches of one build (one per kind and set of Node options) are kept; the oldest go first. */
export const CODE_CACHES_PER_BUILD = 4

/** Says this run went as far as `scope` (never narrows it). */
export function widenCodeCacheScope(scope: number): void {
  const state = codeCacheState()
  if (state && state.scope < scope) state.scope = scope
}

export function codeCacheState(key: symbol = CODE_CACHE_STATE): CodeCacheState | null {
  const state = (globalThis as Record<symbol, unknown>)[key]
  return state && typeof state === 'object' ? (state as CodeCacheState) : null
}

/**
 * The doctor's line about it, writing a missing or refused cache first so that a folder it cannot be
 * written to shows (that only makes every command compile the CLI again).
 */
export function codeCacheCheck(state: CodeCacheState | null, name = 'cli code cache'): DoctorCheck {
  if (!state) return { name, ok: true, detail: 'not used (running from the sources)', fix: null }
  const refused = state.status === 'rejected'
  if (state.status === 'absent' || refused) state.write?.()
  switch (state.status) {
    case 'used':
      return { name, ok: true, detail: `used: ${state.file}`, fix: null }
    case 'off':
      return { name, ok: true, detail: 'turned off by NAVI_NO_CODE_CACHE=1', fix: null }
    case 'unwritable':
      return {
        name,
        ok: false,
        detail: `cannot write ${state.file}: ${state.error ?? 'unknown error'} (every command compiles the CLI again)`,
        fix: 'make $NAVI_HOME/cache writable by you',
      }
    case 'written':
      return {
        name,
        ok: true,
        detail: `${refused ? 'the one there was refused (another build or Node); ' : ''}written now: ${state.file}`,
        fix: null,
      }
    default:
      // Still absent: NAVI_HOME does not exist yet.
      return { name, ok: true, detail: `not written yet (no ${state.file})`, fix: null }
  }
}
