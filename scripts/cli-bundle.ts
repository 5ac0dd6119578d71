// How the `navi` CLI is bundled (`npm run build:cli`, and tests that bundle an entry the same way).
//
// Its libraries are bundled in, not loaded from node_modules at run time: resolving and compiling a few
// hundred small files was most of a `navi status` (0.46 s → 0.32 s with nothing to show). The bundle is
// split, so what only some commands need (the help, execa, simple-git, the zstd decoder) is a chunk loaded
// on first use. Chunks sit beside the entry, at the depth the code expects when it finds resources/ and
// the built renderer from its own location.
import { rmSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'

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

/** Bundles `entry` into `outdir` (emptied by the caller); the entry keeps its name, as `.mjs`. */
export async function bundleCli(opts: {
  entry: string
  outdir: string
  logLevel?: 'info' | 'silent'
}): Promise<void> {
  const { entry, outdir, logLevel = 'info' } = opts
  await build({
    // The fold worker (a cold index folds transcripts on worker threads) sits beside the entry.
    entryPoints: [
      { in: entry, out: basename(entry).replace(/\.[^.]+$/, '') },
      { in: FOLD_WORKER, out: 'fold-worker' },
    ],
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The ES module builds: a UMD build (jsonc-parser's `main`) requires its parts by computed paths.
    mainFields: ['module', 'main'],
    outdir,
    chunkNames: '[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    banner: { js: COMMONJS_GLOBALS },
    // Every `navi` command compiles what it loads: fewer bytes are less to compile. Names are not kept
    // (keeping them costs a call per function at load); nothing reads a function's name.
    minify: true,
    plugins: [withoutZodLocales],
    logLevel,
  })
}

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

// Run as `node bin/run-ts.mjs scripts/cli-bundle.ts` (npm run build:cli); imported by tests, it only exports.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  rmSync('out/cli', { recursive: true, force: true })
  await bundleCli({ entry: 'electron/cli/navi.ts', outdir: 'out/cli' })
}
