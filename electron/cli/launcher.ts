/**
 * The built `navi` command's first file (out/cli/navi.cjs): runs the CLI's front beside it
 * (navi-main.cjs) with V8's code cache, and its engine side (navi-engine.cjs) the same way when the front
 * asks for it. Compiling the CLI was a fifth of a `navi status` on every run (Node 20 has no compile
 * cache of its own for it; `module.enableCompileCache` came with 22.1): the bytecode the first run compiled
 * is kept in `$NAVI_HOME/cache/` and handed back to V8 next time, which checks that it was made from this
 * very source by this very V8 and refuses it otherwise (then a new one is written). The code is loaded
 * the way Node loads a CommonJS module, so it behaves the same with or without a cache. Each file has a
 * cache of its own: an answer that needs no engine deserialises none of the engine's bytecode.
 *
 * What happened is left in `CODE_CACHE_STATE` (and `ENGINE_CODE_CACHE_STATE`) for `navi doctor`; nothing
 * is printed, since the cache is only about speed. `NAVI_NO_CODE_CACHE=1` runs without it (the benchmarks
 * compare the two).
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { Script } from 'node:vm'
import { resolvePaths } from '../runtime/paths.ts'
import {
  CODE_CACHE_SCOPE,
  CODE_CACHE_STATE,
  CODE_CACHES_PER_BUILD,
  codeCacheFileName,
  ENGINE_CODE_CACHE_STATE,
  LOAD_CLI_PART,
  type CodeCacheState,
} from './code-cache-state.ts'
import { runsUntilStopped } from './command-kind.ts'

/**
 * A command that answers and exits runs without incremental marking. A warm `navi status` over 500
 * sessions holds ~10 MB of old objects, just where V8 starts marking them for its first full collection:
 * whether a run crossed that line was down to a few kilobytes (a package.json more to read), and the runs
 * that did spent ~7 ms marking a heap that was about to be thrown away. Without incremental marking V8
 * collects the old generation only at its limit, which a short command seldom reaches. A command that
 * runs until stopped keeps V8's defaults. Set before any code is compiled: V8's code cache carries the
 * flags it was made under, so each kind keeps a cache file of its own (`cacheFile`).
 */
const untilStopped = runsUntilStopped(process.argv.slice(2))
if (!untilStopped) setFlagsFromString('--no-incremental-marking')

/** A hash of the CLI's files, set by the build (scripts/cli-bundle.ts): a new build never reads an old cache. */
declare const __NAVI_CLI_BUILD__: string
/** The CLI's first file beside this one, set by the build. */
declare const __NAVI_CLI_CODE_FILE__: string
/** How this program's cache files start (`cli-code-` for the CLI), set by the build. */
declare const __NAVI_CODE_CACHE_PREFIX__: string

const here = dirname(fileURLToPath(import.meta.url))
const cacheDir = join(resolvePaths().naviHome, 'cache')

/**
 * A cache file: this header, then V8's bytes. The header says how far the run that wrote it went
 * (CODE_CACHE_SCOPE), so that a run going further writes it anew.
 */
const HEADER = Buffer.from('NAVICC1\0', 'latin1')
const HEADER_BYTES = HEADER.length + 1

/** Buffers never freed, for glibc's sake (readWrapped, readCache). */
const keptForLife: Buffer[] = []
;(globalThis as Record<symbol, unknown>)[Symbol.for('navi.cli.keptBuffers')] = keptForLife

/** The file's V8 bytes; `cachedScope` set. A file without the header is V8's to refuse. */
function readCache(state: CodeCacheState): Buffer | undefined {
  if (process.env.NAVI_NO_CODE_CACHE === '1') return undefined
  let file: Buffer
  try {
    file = readFileSync(state.file)
  } catch {
    state.status = 'absent'
    return undefined
  }
  keptForLife.push(file)
  if (file.length <= HEADER_BYTES || !file.subarray(0, HEADER.length).equals(HEADER)) return file
  state.cachedScope = file[HEADER.length] ?? null
  return file.subarray(HEADER_BYTES)
}

/**
 * Writes the bytecode of everything this run compiled of one file, atomically (two commands at once
 * never leave half a file), readable by the user alone, and removes that file's caches of other builds.
 * Only into an existing NAVI_HOME: `navi --help` on a new machine creates nothing.
 */
function writeCache(script: Script, state: CodeCacheState, prefix: string): void {
  if (!existsSync(dirname(cacheDir))) return // status stays absent
  try {
    const data = script.createCachedData()
    mkdirSync(cacheDir, { recursive: true })
    const temp = `${state.file}.${process.pid}.tmp`
    writeFileSync(temp, Buffer.concat([HEADER, Buffer.of(state.scope), data]), { mode: 0o600 })
    renameSync(temp, state.file)
    // Caches of other builds are dead weight; another Node's or other options' cache of this build is
    // still used by them, up to a few (the least recently written go).
    const thisBuild = `${prefix}${__NAVI_CLI_BUILD__}-`
    const ours: { path: string; at: number }[] = []
    for (const name of readdirSync(cacheDir)) {
      if (!name.startsWith(prefix)) continue
      const path = join(cacheDir, name)
      if (!name.startsWith(thisBuild)) rmSync(path, { force: true })
      else if (name.endsWith('.bin') && path !== state.file)
        ours.push({ path, at: statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0 })
    }
    ours.sort((a, b) => b.at - a.at)
    for (const { path } of ours.slice(CODE_CACHES_PER_BUILD - 1)) rmSync(path, { force: true })
    state.status = 'written'
    state.cachedScope = state.scope
  } catch (error) {
    state.status = 'unwritable'
    state.error = error instanceof Error ? error.message : String(error)
  }
}

/** How Node wraps a CommonJS module's code, so the bundle runs as if `require`d. */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {'
const WRAPPER_TAIL = '\n})'

/**
 * The bundle wrapped as a CommonJS module, as Latin-1 text made in one piece: the file is read into a
 * buffer that already holds the wrapper around it, and decoded once. Reading it in parts, joining them and
 * wrapping the result made three copies of the whole bundle (2.2 MB of the 24 MB a warm `navi status` over
 * 500 sessions allocated, all of it for the collector to copy or sweep).
 *
 * The buffer is kept for the life of the process. Freeing one that size would raise glibc's threshold for
 * mapping allocations to it, after which the many mid-sized buffers of a cold index stay in malloc's
 * arenas when freed: a first `navi status` over 1 GiB of transcripts peaked 15-20 MB higher that way
 * (bench/index-corpus.ts, the rows built as the CLI ships).
 */
function readWrapped(file: string): string {
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    const buffer = Buffer.allocUnsafeSlow(WRAPPER_HEAD.length + size + WRAPPER_TAIL.length)
    keptForLife.push(buffer)
    let end = buffer.write(WRAPPER_HEAD, 0, 'latin1')
    const codeEnd = end + size
    while (end < codeEnd) {
      const n = readSync(fd, buffer, end, codeEnd - end, null)
      if (n === 0) break
      end += n
    }
    end += buffer.write(WRAPPER_TAIL, end, 'latin1')
    return buffer.toString('latin1', 0, end)
  } finally {
    closeSync(fd)
  }
}

/**
 * Runs one file of the CLI beside this one (`codeFile`) as a CommonJS module, with its own code cache
 * (`prefix`), and returns its exports. What happened is left under `stateKey` for `navi doctor`; `scope`
 * is how far into the CLI the run goes already (code-cache-state.ts).
 */
function runWithCodeCache(
  codeFile: string,
  prefix: string,
  stateKey: symbol,
  scope: number,
): unknown {
  const path = join(here, codeFile)
  const state: CodeCacheState = {
    build: __NAVI_CLI_BUILD__,
    codeFile: path,
    file: join(
      cacheDir,
      codeCacheFileName({
        prefix,
        build: __NAVI_CLI_BUILD__,
        nodeVersion: process.version,
        arch: process.arch,
        untilStopped,
        execArgv: process.execArgv,
        nodeOptions: process.env.NODE_OPTIONS,
      }),
    ),
    status: 'off',
    error: null,
    scope,
    cachedScope: null,
  }
  ;(globalThis as Record<symbol, unknown>)[stateKey] = state
  const cachedData = readCache(state)
  // The build keeps the bundle ASCII (scripts/cli-bundle.ts): read as Latin-1, it is the same text,
  // decoded faster, into a one-byte string.
  const script = new Script(readWrapped(path), { filename: path, cachedData })
  if (cachedData) state.status = script.cachedDataRejected ? 'rejected' : 'used'

  if (state.status === 'absent' || state.status === 'rejected')
    state.write = () => writeCache(script, state, prefix)
  // After the command, so the cache holds every function it compiled, not only the top level (unless
  // `navi doctor` wrote it already, to say whether it can). A cache used is written anew when this run
  // went further into the CLI than the one that wrote it (a first `navi --help`, then `navi status`).
  process.once('exit', () => {
    const missing = state.status === 'absent' || state.status === 'rejected'
    const narrower = state.status === 'used' && state.scope > (state.cachedScope ?? -1)
    if (missing || narrower) writeCache(script, state, prefix)
  })

  const module = { exports: {} }
  const run = script.runInThisContext() as (...args: unknown[]) => void
  run(module.exports, createRequire(path), module, path, here)
  return module.exports
}

/**
 * Another file of the CLI, run the same way when the first one asks for it (the engine side, loaded only
 * by a command that needs the engine: scripts/cli-bundle.ts). Its scope is the engine's: it is written
 * when missing or refused. Each file once.
 */
const loaded = new Map<string, unknown>()
;(globalThis as Record<symbol, unknown>)[LOAD_CLI_PART] = (
  codeFile: string,
  prefix: string,
): unknown => {
  if (!loaded.has(codeFile))
    loaded.set(
      codeFile,
      runWithCodeCache(codeFile, prefix, ENGINE_CODE_CACHE_STATE, CODE_CACHE_SCOPE.engine),
    )
  return loaded.get(codeFile)
}

runWithCodeCache(
  __NAVI_CLI_CODE_FILE__,
  __NAVI_CODE_CACHE_PREFIX__,
  CODE_CACHE_STATE,
  CODE_CACHE_SCOPE.help,
)
