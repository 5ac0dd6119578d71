/** The corpus benchmark's numbers: what a Navi child prints, and the summary table and JSON. */
import * as z from 'zod'
import { CCUSAGE_VERSION, parseCcusageSession } from './ccusage.ts'
import type { Corpus } from './corpus.ts'
import type { ProcessRun } from './process-stats.ts'
import { printIndexReport } from './index-table.ts'
import { mib, percentile, round } from './report.ts'

const childOutputSchema = z.object({
  importMs: z.number(),
  refreshMs: z.number(),
  bytesReadByRefresh: z.number(),
  sessions: z.number(),
  projects: z.number(),
  tokens: z.object({
    input: z.number(),
    output: z.number(),
    cache_read: z.number(),
    cache_creation: z.number(),
    total: z.number(),
  }),
  corruptLines: z.record(z.string(), z.number()),
  sourceErrors: z.array(z.string()),
  heapUsedMb: z.number(),
  maxRssMb: z.number(),
})
type ChildOutput = z.infer<typeof childOutputSchema>

export interface Measured {
  run: ProcessRun
  child: ChildOutput
}

/** What lib/append-child.ts prints: a running engine's cycles that took in 1 KiB appends. */
export const appendOutputSchema = z.object({
  cycles: z.array(
    z.object({
      ms: z.number(),
      cpuMs: z.number(),
      bytesRead: z.number(),
      stat: z.number(),
      readdir: z.number(),
      open: z.number(),
    }),
  ),
  medianMs: z.number(),
  medianCpuMs: z.number(),
  medianBytesRead: z.number(),
  medianStats: z.number(),
})
export type AppendOutput = z.infer<typeof appendOutputSchema>

/**
 * One run: ccusage, then Navi cold and warm twice over, in a fresh home each: the engine as ES module
 * chunks (what it loads is what a cycle needs) and built as the `navi` command ships (one file, its code
 * cache written by the cold run and used by the warm one).
 */
export interface IndexRun {
  ccusage: ProcessRun
  cold: Measured
  warm: Measured
  cliCold: Measured
  cliWarm: Measured
}

export interface IndexCorpusOptions {
  quick: boolean
  keep: boolean
  runs: number
  megabytes?: number
  sessions?: number
}

/** The JSON line a Navi child printed; throws with its stderr when it failed. */
export function parseChild(run: ProcessRun): ChildOutput {
  if (run.exitCode !== 0) {
    throw new Error(`navi child exited ${run.exitCode}: ${run.stderr.slice(-2000)}`)
  }
  const last = run.stdout.trim().split('\n').pop() ?? ''
  const parsed = childOutputSchema.safeParse(JSON.parse(last))
  if (!parsed.success) throw new Error(`unexpected navi child output: ${parsed.error.message}`)
  return parsed.data
}

/** Medians over the runs, ratios against ccusage; prints the table and returns the JSON. */
export function summarizeIndexRuns(input: {
  corpus: Corpus
  megabytes: number
  sessionCount: number
  baseline: Measured
  runs: IndexRun[]
  append: AppendOutput
  root: string
  opts: IndexCorpusOptions
}) {
  const { corpus, runs, baseline } = input
  const median = (pick: (r: (typeof runs)[number]) => number) => percentile(runs.map(pick), 50)
  const corpusMb = mib(corpus.bytes)
  // Milliseconds kept: a warm start is a tenth of a second, and its ratio to ccusage is the target.
  const row = (wallMs: number, cpuMs: number, rssMb: number) => ({
    wallS: round(wallMs / 1000, 3),
    cpuS: round(cpuMs / 1000, 3),
    peakRssMb: round(rssMb, 0),
    mbPerS: round(corpusMb / (wallMs / 1000), 0),
  })
  /** The medians of one process of every run. */
  const rowOf = (pick: (r: IndexRun) => ProcessRun) =>
    row(
      median((r) => pick(r).wallMs),
      median((r) => pick(r).cpuMs),
      median((r) => pick(r).peakRssMb),
    )
  const ccusage = rowOf((r) => r.ccusage)
  const cold = rowOf((r) => r.cold.run)
  const warm = rowOf((r) => r.warm.run)
  const cliCold = rowOf((r) => r.cliCold.run)
  const cliWarm = rowOf((r) => r.cliWarm.run)
  const base = row(baseline.run.wallMs, baseline.run.cpuMs, baseline.run.peakRssMb)
  const ratio = (a: number, b: number) => round(a / b, 3)
  const result = {
    corpus: {
      path: input.root,
      megabytes: round(corpusMb, 0),
      sessions: corpus.files.length,
      projectCwds: new Set(corpus.files.map((f) => f.cwd)).size,
      generateS: round(corpus.generateMs / 1000, 1),
      reused: corpus.reused,
      kept: input.opts.keep,
    },
    runs: runs.length,
    perRun: runs.map((r) => ({
      ccusage: brief(r.ccusage),
      naviCold: brief(r.cold.run),
      naviWarm: brief(r.warm.run),
      naviCliCold: brief(r.cliCold.run),
      naviCliWarm: brief(r.cliWarm.run),
    })),
    ccusageVersion: CCUSAGE_VERSION,
    ccusage: {
      ...ccusage,
      nativeBinaryRssMb: round(
        percentile(
          runs.map((r) =>
            Math.max(
              0,
              ...r.ccusage.processes.filter((p) => p.comm === 'ccusage').map((p) => p.hwmMb),
            ),
          ),
          50,
        ),
        0,
      ),
      report: parseCcusageSession(runs[0]?.ccusage.stdout ?? ''),
    },
    naviCold: {
      ...cold,
      refreshS: round(median((r) => r.cold.child.refreshMs ?? Number.NaN) / 1000, 2),
      importS: round(median((r) => r.cold.child.importMs ?? Number.NaN) / 1000, 2),
      bytesReadMb: round(mib(median((r) => r.cold.child.bytesReadByRefresh ?? Number.NaN)), 0),
      sessions: runs[0]?.cold.child.sessions ?? null,
      tokens: runs[0]?.cold.child.tokens ?? null,
      corruptLines: runs[0]?.cold.child.corruptLines ?? null,
      sourceErrors: runs[0]?.cold.child.sourceErrors ?? null,
    },
    naviWarm: {
      ...warm,
      refreshS: round(median((r) => r.warm.child.refreshMs ?? Number.NaN) / 1000, 2),
      bytesReadMb: round(mib(median((r) => r.warm.child.bytesReadByRefresh ?? Number.NaN)), 0),
    },
    /** The same child built as the `navi` command ships: one CommonJS file run with its code cache. */
    naviCliCold: {
      ...cliCold,
      sessions: runs[0]?.cliCold.child.sessions ?? null,
      tokensTotal: runs[0]?.cliCold.child.tokens.total ?? null,
    },
    naviCliWarm: {
      ...cliWarm,
      bytesReadMb: round(mib(median((r) => r.cliWarm.child.bytesReadByRefresh)), 0),
    },
    naviBaselineEmpty: {
      ...base,
      importS: round((baseline.child.importMs ?? Number.NaN) / 1000, 2),
    },
    append: {
      appends: input.append.cycles.length,
      engineMsMedian: round(input.append.medianMs, 1),
      engineMsMax: round(Math.max(...input.append.cycles.map((c) => c.ms)), 1),
      /** The engine thread's CPU from the append until the session showed it (target: <= 5 ms). */
      engineCpuMsMedian: round(input.append.medianCpuMs, 1),
      bytesReadMedian: input.append.medianBytesRead,
      statsMedian: input.append.medianStats,
      cycles: input.append.cycles.map((c) => ({
        ...c,
        ms: round(c.ms, 1),
        cpuMs: round(c.cpuMs, 1),
      })),
    },
    ratios: {
      coldWallVsCcusage: ratio(cold.wallS, ccusage.wallS),
      coldRssVsCcusage: ratio(cold.peakRssMb, ccusage.peakRssMb),
      warmWallVsCcusage: ratio(warm.wallS, ccusage.wallS),
      warmRssVsCcusage: ratio(warm.peakRssMb, ccusage.peakRssMb),
      cliColdWallVsCcusage: ratio(cliCold.wallS, ccusage.wallS),
      cliColdRssVsCcusage: ratio(cliCold.peakRssMb, ccusage.peakRssMb),
      cliWarmWallVsCcusage: ratio(cliWarm.wallS, ccusage.wallS),
      cliWarmRssVsCcusage: ratio(cliWarm.peakRssMb, ccusage.peakRssMb),
    },
  }
  printIndexReport(result)
  return result
}

/** One process of one run, for the per-run list. */
const brief = (run: ProcessRun) => ({
  wallS: round(run.wallMs / 1000, 2),
  peakRssMb: round(run.peakRssMb, 0),
})

export type IndexCorpusResult = ReturnType<typeof summarizeIndexRuns>
