/**
 * Time and memory to index a generated corpus of Claude transcripts (1 GiB, 500 sessions, 40 project
 * cwds), side by side with `ccusage session --json --offline` (ccusage@20.0.24) on the same
 * CLAUDE_CONFIG_DIR; Navi again warm (the median of 5 processes after it on the same NAVI_HOME); both again with Navi built
 * as the `navi` command ships; and the engine time a running engine (watchers on) spends on a 1 KiB append
 * (lib/append-child.ts). Every measured run is its own process, so wall time and peak RSS are per process
 * (see lib/process-stats.ts). The OS page cache is warmed first, for both tools alike.
 *
 * `node bin/run-ts.mjs bench/index-corpus.ts [--quick] [--keep] [--runs N] [--mb N] [--sessions N]`
 * (runs: median of 3 by default, 1 with --quick)
 * --quick: 100 MiB / 100 sessions. --keep: keep the corpus and the ccusage install in the temp dir
 * (they are reused by the next run). Writes bench/results/index-corpus.json.
 */
import { createReadStream } from 'node:fs'
import { mkdir, mkdtemp, rm, stat, truncate, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CCUSAGE_VERSION, ensureCcusage } from './lib/ccusage.ts'
import { ensureCorpus, type Corpus } from './lib/corpus.ts'
import {
  appendOutputSchema,
  parseChild,
  type IndexRun,
  summarizeIndexRuns,
  type IndexCorpusOptions,
  type Measured,
} from './lib/index-report.ts'
import { measuredEnv, measuredEnvNote } from './lib/measured-env.ts'
import { runMeasured } from './lib/process-stats.ts'
import { bundleCli, bundleLikeNaviCli } from '../scripts/cli-bundle.ts'
import { hasFlag, isMain, mib, numberOption, writeResult } from './lib/report.ts'

const REPO = fileURLToPath(new URL('..', import.meta.url))
/**
 * The child runs bundled, twice over (lib/index-report.ts IndexRun): as ES module chunks, where a process
 * loads only what it runs, and built as the `navi` command ships (`npm run build:cli`): one CommonJS file
 * with V8's code cache in NAVI_HOME, written by the cold run and used by the warm one, as a user's second
 * `navi` uses the first one's. Compiling TypeScript on the fly (tsx) would add a third of a second that
 * no user pays.
 */
const CHILD_ENTRY = 'bench/lib/index-child.ts'

/**
 * Warm processes per run, one after the other on the same home; the run's warm figure is their median. A
 * warm start is a tenth of a second, where one process caught by the machine's other work is off by a
 * tenth of itself; a user starts `navi` many times a day.
 */
const WARM_PROCESSES = 5

/**
 * Appends the running engine absorbs; the figure is their median. The first takes the session from ended
 * to active (a snapshot saved, an event logged: ~25 ms); of 7, the median swung 4.4–6.8 ms between runs
 * of the same code, where 31 in a harness of their own gave 3.6–3.8 every time.
 */
const APPENDS = 21

async function warmRuns(run: () => Promise<Measured>): Promise<Measured> {
  const measured: Measured[] = []
  for (let i = 0; i < WARM_PROCESSES; i++) measured.push(await run())
  measured.sort((a, b) => a.run.wallMs - b.run.wallMs)
  return measured[Math.floor(measured.length / 2)] as Measured
}
const CHILD_DIR = join(REPO, 'out', 'bench-index')
const CLI_CHILD_DIR = join(REPO, 'out', 'bench-index-cli')

export async function benchIndexCorpus(opts: IndexCorpusOptions) {
  const megabytes = opts.megabytes ?? (opts.quick ? 100 : 1024)
  const sessionCount = opts.sessions ?? (opts.quick ? 100 : 500)
  const root = join(tmpdir(), `navi-bench-corpus-${megabytes}m-${sessionCount}s`)
  const ccusagePrefix = join(tmpdir(), `navi-bench-ccusage-${CCUSAGE_VERSION}`)
  const scratch = await mkdtemp(join(tmpdir(), 'navi-bench-index-'))
  try {
    console.log(`corpus: ${megabytes} MiB in ${sessionCount} sessions under ${root}`)
    const envNote = measuredEnvNote()
    if (envNote) console.log(envNote)
    const corpus = await ensureCorpus({
      root,
      totalBytes: megabytes * 1024 * 1024,
      sessions: sessionCount,
      projects: 40,
    })
    console.log(
      corpus.reused
        ? `reused (${mib(corpus.bytes).toFixed(0)} MiB)`
        : `generated ${mib(corpus.bytes).toFixed(0)} MiB in ${(corpus.generateMs / 1000).toFixed(1)} s`,
    )
    const cli = await ensureCcusage(ccusagePrefix)
    await Promise.all(
      [CHILD_DIR, CLI_CHILD_DIR].map((d) => rm(d, { recursive: true, force: true })),
    )
    await bundleCli({ entry: join(REPO, CHILD_ENTRY), outdir: CHILD_DIR, logLevel: 'silent' })
    const child = join(CHILD_DIR, 'index-child.mjs')
    const cliChild = await bundleLikeNaviCli({
      entry: join(REPO, CHILD_ENTRY),
      outdir: CLI_CHILD_DIR,
      logLevel: 'silent',
    })
    await bundleCli({
      entry: join(REPO, 'bench/lib/append-child.ts'),
      outdir: join(CHILD_DIR, 'append'),
      logLevel: 'silent',
    })
    const appendChild = join(CHILD_DIR, 'append', 'append-child.mjs')
    const home = join(scratch, 'home')
    const codexHome = join(scratch, 'codex')
    const empty = join(scratch, 'empty-claude')
    await Promise.all([home, codexHome, empty].map((d) => mkdir(d, { recursive: true })))
    const env = (claudeConfigDir: string, naviHome: string): NodeJS.ProcessEnv =>
      measuredEnv({
        HOME: home,
        CLAUDE_CONFIG_DIR: claudeConfigDir,
        CODEX_HOME: codexHome,
        NAVI_HOME: naviHome,
      })
    const navi = async (naviHome: string, claudeDir: string, program = child) => {
      const run = await runMeasured(process.execPath, [program], {
        cwd: REPO,
        env: env(claudeDir, naviHome),
      })
      return { run, child: parseChild(run) }
    }
    const ccusage = () =>
      runMeasured(process.execPath, [cli, 'session', '--json', '--offline'], {
        env: env(corpus.claudeConfigDir, join(scratch, 'unused-navi')),
      })

    await warmPageCache(corpus)
    const baseline = await navi(join(scratch, 'navi-baseline'), empty)
    const target = pickAppendTarget(corpus)
    const runs: IndexRun[] = []
    for (let i = 0; i < opts.runs; i++) {
      const naviHome = join(scratch, `navi-${i}`)
      const original = await stat(target.path)
      try {
        const cc = await ccusage()
        if (cc.exitCode !== 0) throw new Error(`ccusage exited ${cc.exitCode}: ${cc.stderr}`)
        const cold = await navi(naviHome, corpus.claudeConfigDir)
        const warm = await warmRuns(() => navi(naviHome, corpus.claudeConfigDir))
        const cliHome = join(scratch, `navi-cli-${i}`)
        const cliCold = await navi(cliHome, corpus.claudeConfigDir, cliChild)
        const cliWarm = await warmRuns(() => navi(cliHome, corpus.claudeConfigDir, cliChild))
        runs.push({ ccusage: cc, cold, warm, cliCold, cliWarm })
        const s = (m: Measured) => `${(m.run.wallMs / 1000).toFixed(2)} s`
        console.log(
          `run ${i + 1}/${opts.runs}: ccusage ${(cc.wallMs / 1000).toFixed(2)} s, ` +
            `navi cold ${s(cold)}, warm ${s(warm)}; as the CLI ships: cold ${s(cliCold)}, warm ${s(cliWarm)}`,
        )
      } finally {
        // Put the appended transcript back as it was, so the corpus can be reused.
        await truncate(target.path, original.size)
        await utimes(target.path, original.atime, original.mtime)
      }
    }
    // A running engine over the last run's home: what an agent's 1 KiB line costs it.
    const original = await stat(target.path)
    let append
    try {
      const run = await runMeasured(
        process.execPath,
        [appendChild, target.path, target.sessionId, target.cwd, String(APPENDS)],
        { cwd: REPO, env: env(corpus.claudeConfigDir, join(scratch, `navi-${opts.runs - 1}`)) },
      )
      if (run.exitCode !== 0) throw new Error(`append child exited ${run.exitCode}: ${run.stderr}`)
      append = appendOutputSchema.parse(JSON.parse(run.stdout.trim().split('\n').pop() ?? ''))
    } finally {
      await truncate(target.path, original.size)
      await utimes(target.path, original.atime, original.mtime)
    }
    return summarizeIndexRuns({
      corpus,
      megabytes,
      sessionCount,
      baseline,
      runs,
      append,
      root,
      opts,
    })
  } finally {
    await rm(scratch, { recursive: true, force: true })
    if (!opts.keep) {
      await rm(root, { recursive: true, force: true })
      await rm(ccusagePrefix, { recursive: true, force: true })
    }
  }
}

/** Reads every transcript once so neither tool pays for the disk and both run from the page cache. */
async function warmPageCache(corpus: Corpus): Promise<void> {
  for (const file of corpus.files) {
    await new Promise<void>((resolve, reject) => {
      createReadStream(file.path, { highWaterMark: 1024 * 1024 })
        .on('data', () => undefined)
        .on('end', resolve)
        .on('error', reject)
    })
  }
}

/** The median-sized transcript: a typical session the user is still typing into. */
function pickAppendTarget(corpus: Corpus) {
  const sorted = [...corpus.files].sort((a, b) => a.bytes - b.bytes)
  const target = sorted[Math.floor(sorted.length / 2)]
  if (!target) throw new Error('empty corpus')
  return target
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2)
  const quick = hasFlag(args, '--quick')
  const result = await benchIndexCorpus({
    quick,
    keep: hasFlag(args, '--keep'),
    runs: numberOption(args, 'runs', quick ? 1 : 3),
    ...(args.some((a) => a.startsWith('--mb'))
      ? { megabytes: numberOption(args, 'mb', 1024) }
      : {}),
    ...(args.some((a) => a.startsWith('--sessions'))
      ? { sessions: numberOption(args, 'sessions', 500) }
      : {}),
  })
  await writeResult('index-corpus', result)
}
