// How the `navi` CLI is bundled (`npm run build:cli`), and how benchmarks and tests bundle their own Node
// programs the same way.
//
// Libraries are bundled in, not loaded from node_modules at run time: resolving and compiling a few hundred
// small files was most of a `navi status` (0.46 s → 0.32 s with nothing to show). The CLI is one CommonJS
// file run by a small CommonJS launcher with V8's code cache (electron/cli/launcher.ts); other programs are
// split ES module chunks. Either sits beside the fold worker, at the depth the code expects when it finds
// resources/ and the built renderer from its own location.
import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type BuildOptions, type Plugin } from 'esbuild'
import { defaultConfig } from '../electron/engine/core/config.ts'
import { defaultSettings } from '../shared/schemas/settings.ts'
import { LOAD_CLI_PART } from '../electron/cli/code-cache-state.ts'

/** CommonJS libraries inside an ES module still look for `require`, `__filename` and `__dirname`. */
const COMMONJS_GLOBALS = [
  "import { createRequire as __naviRequire } from 'node:module';",
  "import { fileURLToPath as __naviPath } from 'node:url';",
  "import { dirname as __naviDir } from 'node:path';",
  'const require = __naviRequire(import.meta.url);',
  'const __filename = __naviPath(import.meta.url);',
  'const __dirname = __naviDir(__filename);',
].join(' ')

const FOLD_WORKER = fileURLToPath(
  new URL('../electron/engine/adapters/fold-worker.ts', import.meta.url),
)
/** bin/cli-sources.cjs: the list of sources bin/navi.cjs checks the built CLI against. */
const cliSources = createRequire(import.meta.url)('../bin/cli-sources.cjs') as {
  writeSourceList(root: string, file: string): void
  SOURCE_LIST_FILE: string
}
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

const CLI_ENTRY = fileURLToPath(new URL('../electron/cli/navi.ts', import.meta.url))
const CLI_ENGINE_ENTRY = fileURLToPath(new URL('../electron/cli/engine-side.ts', import.meta.url))
const LAUNCHER = fileURLToPath(new URL('../electron/cli/launcher.ts', import.meta.url))

/**
 * zod's error messages in 40-odd languages, reachable only through `z.locales` (never used here): its
 * namespace import keeps them all in the bundle, a third of zod's bytes. English is built in elsewhere.
 */
const withoutZodLocales: Plugin = {
  name: 'without-zod-locales',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export {}',
      loader: 'js',
    }))
  },
}

/** A CommonJS file built from ES module sources: their own location (`import.meta.url`) is the file's. */
const AS_COMMONJS = {
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  define: { 'import.meta.url': '__naviBundleUrl' },
  banner: { js: "const __naviBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
} satisfies BuildOptions

/** What every bundle of Navi's Node code shares. */
const SHARED: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // The ES module builds: a UMD build (jsonc-parser's `main`) requires its parts by computed paths.
  mainFields: ['module', 'main'],
  // Every `navi` command compiles what it loads: fewer bytes are less to compile. Names are not kept
  // (keeping them costs a call per function at load); nothing reads a function's name.
  minify: true,
  plugins: [withoutZodLocales],
}

/** The built command's first file (bin/navi.cjs requires it): the launcher. */
export const NAVI_CLI_FILE = 'navi.cjs'
/** The CLI's front (its first part), which the launcher runs with its code cache. */
export const NAVI_CLI_CODE_FILE = 'navi-main.cjs'
/** The CLI's engine side, which the front has the launcher run when a command needs the engine. */
export const NAVI_CLI_ENGINE_FILE = 'navi-engine.cjs'

/**
 * The `navi` command as it ships (`npm run build:cli` → out/cli/): `navi.cjs`, the launcher, runs
 * `navi-main.cjs`, the CLI's front, with V8's code cache (launcher.ts), and the front has it run
 * `navi-engine.cjs`, the engine side (electron/cli/engine-side.ts), the same way when a command needs the
 * engine; then `fold-worker.cjs`. Two parts, not one: a cache is deserialised whole, and the answers a
 * terminal user asks for most (from a running Navi, or kept by the last command) need none of the
 * engine's bytecode (one file: 820 KB of cache on every command; the front's: ~160 KB). Each part
 * is one file, not chunks: with its bytecode cached, compiling all of it costs less than finding and
 * linking the chunks a command needs; what a command does not use is still never run (esbuild keeps each
 * dynamically imported module's body for its first use). The launcher is CommonJS too: Node loads an ES
 * module entry through its module loader, about 4 ms more on every command.
 */
export async function bundleNaviCli(opts: {
  outdir: string
  logLevel?: 'info' | 'silent'
}): Promise<void> {
  await bundleWithCodeCache({
    entry: CLI_ENTRY,
    launcherFile: NAVI_CLI_FILE,
    codeFile: NAVI_CLI_CODE_FILE,
    cachePrefix: 'cli-code-',
    engine: {
      entry: CLI_ENGINE_ENTRY,
      codeFile: NAVI_CLI_ENGINE_FILE,
      cachePrefix: 'cli-engine-code-',
    },
    ...opts,
  })
  // Beside the bundle, written after it: what bin/navi.cjs checks the bundle is newer than.
  cliSources.writeSourceList(REPO_ROOT, join(opts.outdir, cliSources.SOURCE_LIST_FILE))
}

/**
 * A Node program built the way the `navi` command is (see bundleNaviCli): `<name>.cjs`, the launcher, runs
 * `<name>-main.cjs` with its code cache in `$NAVI_HOME/cache/<name>-code-*.bin`. For the benchmarks'
 * programs that time what a user's `navi` pays. The entry must not use top-level `await` (CommonJS).
 * Returns the launcher's path.
 */
export async function bundleLikeNaviCli(opts: {
  entry: string
  outdir: string
  logLevel?: 'info' | 'silent'
}): Promise<string> {
  const name = basename(opts.entry).replace(/\.[^.]+$/, '')
  const launcherFile = `${name}.cjs`
  await bundleWithCodeCache({
    ...opts,
    launcherFile,
    codeFile: `${name}-main.cjs`,
    cachePrefix: `${name}-code-`,
  })
  return join(opts.outdir, launcherFile)
}

async function bundleWithCodeCache(opts: {
  entry: string
  launcherFile: string
  codeFile: string
  /** Of the cache files in $NAVI_HOME/cache/; the launcher removes this prefix's caches of other builds. */
  cachePrefix: string
  /**
   * A second part, the program's engine side: its entry, imported by the first part's modules, is built
   * into a file of its own, and the first part loads that file through the launcher instead.
   */
  engine?: { entry: string; codeFile: string; cachePrefix: string }
  outdir: string
  logLevel?: 'info' | 'silent'
}): Promise<void> {
  const { outdir, logLevel = 'info', codeFile, launcherFile, engine } = opts
  const part = (entry: string, file: string, plugins: Plugin[]) =>
    build({
      ...SHARED,
      entryPoints: [{ in: entry, out: file.replace(/\.cjs$/, '') }],
      ...AS_COMMONJS,
      define: {
        ...AS_COMMONJS.define,
        // The configuration's defaults, computed from its schema here rather than on every command.
        __NAVI_DEFAULT_CONFIG_JSON__: JSON.stringify(JSON.stringify(defaultConfig())),
        __NAVI_DEFAULT_SETTINGS_JSON__: JSON.stringify(JSON.stringify(defaultSettings())),
      },
      plugins: [...(SHARED.plugins ?? []), ...plugins],
      outdir,
      logLevel,
    })
  await part(opts.entry, codeFile, engine ? [loadedThroughLauncher(engine)] : [])
  if (engine) await part(engine.entry, engine.codeFile, [])
  // One build id over both parts: the caches of one part are never taken for the other build's.
  const files = engine ? [codeFile, engine.codeFile] : [codeFile]
  const hash = createHash('sha256')
  for (const file of files) {
    const code = readFileSync(join(outdir, file))
    assertAscii(code, file)
    hash.update(code)
  }
  const buildId = hash.digest('hex').slice(0, 16)
  await build({
    ...SHARED,
    entryPoints: [{ in: LAUNCHER, out: launcherFile.replace(/\.cjs$/, '') }],
    ...AS_COMMONJS,
    define: {
      ...AS_COMMONJS.define,
      __NAVI_CLI_BUILD__: JSON.stringify(buildId),
      __NAVI_CLI_CODE_FILE__: JSON.stringify(codeFile),
      __NAVI_CODE_CACHE_PREFIX__: JSON.stringify(opts.cachePrefix),
    },
    outdir,
    logLevel,
  })
  await buildFoldWorker(outdir, logLevel)
}

/**
 * Makes the engine side's entry, wherever the first part imports it, a module that has the launcher run
 * the engine side's own file (launcher.ts `LOAD_CLI_PART`); without the launcher (that file required
 * directly), Node's `require` loads it, without a code cache.
 */
function loadedThroughLauncher(engine: {
  entry: string
  codeFile: string
  cachePrefix: string
}): Plugin {
  const namespace = 'navi-cli-part'
  return {
    name: 'navi-cli-engine-part',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /engine-side\.ts$/ }, (args) =>
        resolve(args.resolveDir, args.path) === engine.entry
          ? { path: engine.entry, namespace }
          : undefined,
      )
      pluginBuild.onLoad({ filter: /.*/, namespace }, () => ({
        contents: [
          `const load = globalThis[Symbol.for(${JSON.stringify(LOAD_CLI_PART.description)})];`,
          `module.exports = load ? load(${JSON.stringify(engine.codeFile)}, ${JSON.stringify(engine.cachePrefix)})`,
          `  : require(require('node:path').join(__dirname, ${JSON.stringify(engine.codeFile)}));`,
        ].join('\n'),
        loader: 'js',
      }))
    },
  }
}

/**
 * The fold worker (a cold index folds transcripts on worker threads), beside the entry: CommonJS. In an
 * ES module every top-level binding is a module variable, a cell V8 reads through on each access, and
 * the fold's hot loops read theirs on every byte (json-projection.ts's `bytes`, `at`, `end`); in
 * CommonJS they are the wrapper function's plain slots. A worker folding half of the 1 GiB corpus took
 * 978 ms as an ES module and 848 as CommonJS (CPU profiles), and it starts ~7 ms sooner (no ES module
 * loader to set up).
 */
export async function buildFoldWorker(outdir: string, logLevel: 'info' | 'silent'): Promise<void> {
  await build({
    ...SHARED,
    entryPoints: [{ in: FOLD_WORKER, out: 'fold-worker' }],
    ...AS_COMMONJS,
    outdir,
    logLevel,
  })
}

/**
 * The launcher reads the CLI as Latin-1 on every command (launcher.ts), which is the same text only because
 * it is ASCII; as UTF-8, one non-ASCII character made V8 hold all of it as a two-byte string (twice the
 * memory, slower to decode). esbuild escapes non-ASCII in strings but not in regular expression literals:
 * write those as `\uXXXX`. A build that is not ASCII fails here, naming the place.
 */
function assertAscii(code: Buffer, name: string): void {
  const at = code.findIndex((byte) => byte > 0x7f)
  if (at === -1) return
  const near = code.subarray(Math.max(0, at - 60), at + 20).toString('utf8')
  throw new Error(`${name} is not ASCII at byte ${at}, near: ${near}`)
}

/**
 * Bundles `entry` into `outdir` (emptied by the caller) as ES module chunks; the entry keeps its name, as
 * `.mjs`. For the benchmarks' and tests' own Node programs; the `navi` command is `bundleNaviCli`.
 */
export async function bundleCli(opts: {
  entry: string
  outdir: string
  logLevel?: 'info' | 'silent'
}): Promise<void> {
  const { entry, outdir, logLevel = 'info' } = opts
  await build({
    ...SHARED,
    entryPoints: [{ in: entry, out: basename(entry).replace(/\.[^.]+$/, '') }],
    splitting: true,
    format: 'esm',
    outdir,
    chunkNames: '[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    banner: { js: COMMONJS_GLOBALS },
    logLevel,
  })
  await buildFoldWorker(outdir, logLevel)
}

// Run as `node bin/run-ts.mjs scripts/cli-bundle.ts` (npm run build:cli); imported by tests, it only exports.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  rmSync('out/cli', { recursive: true, force: true })
  await bundleNaviCli({ outdir: 'out/cli' })
}
