/** The corpus benchmark's table and the lines under it (index-report.ts makes the numbers). */
import type { IndexCorpusResult } from './index-report.ts'
import { printTable } from './report.ts'

export function printIndexReport(r: IndexCorpusResult): void {
  printTable(
    `Indexing ${r.corpus.megabytes} MiB / ${r.corpus.sessions} sessions / ${r.corpus.projectCwds} cwds ` +
      `(median of ${r.runs} run(s), page cache warm)`,
    ['process', 'wall s', 'CPU s', 'peak RSS MB', 'MiB/s', 'wall ×ccusage', 'RSS ×ccusage'],
    [
      [
        'ccusage session --json --offline',
        r.ccusage.wallS,
        r.ccusage.cpuS,
        r.ccusage.peakRssMb,
        r.ccusage.mbPerS,
        1,
        1,
      ],
      [
        'navi cold (fresh NAVI_HOME)',
        r.naviCold.wallS,
        r.naviCold.cpuS,
        r.naviCold.peakRssMb,
        r.naviCold.mbPerS,
        r.ratios.coldWallVsCcusage,
        r.ratios.coldRssVsCcusage,
      ],
      [
        'navi warm (same NAVI_HOME, median of 5)',
        r.naviWarm.wallS,
        r.naviWarm.cpuS,
        r.naviWarm.peakRssMb,
        r.naviWarm.mbPerS,
        r.ratios.warmWallVsCcusage,
        r.ratios.warmRssVsCcusage,
      ],
      [
        'navi cold, built as the CLI ships',
        r.naviCliCold.wallS,
        r.naviCliCold.cpuS,
        r.naviCliCold.peakRssMb,
        r.naviCliCold.mbPerS,
        r.ratios.cliColdWallVsCcusage,
        r.ratios.cliColdRssVsCcusage,
      ],
      [
        'navi warm, built as the CLI ships (median of 5)',
        r.naviCliWarm.wallS,
        r.naviCliWarm.cpuS,
        r.naviCliWarm.peakRssMb,
        r.naviCliWarm.mbPerS,
        r.ratios.cliWarmWallVsCcusage,
        r.ratios.cliWarmRssVsCcusage,
      ],
      [
        'navi, empty CLAUDE_CONFIG_DIR',
        r.naviBaselineEmpty.wallS,
        r.naviBaselineEmpty.cpuS,
        r.naviBaselineEmpty.peakRssMb,
        '-',
        '-',
        '-',
      ],
    ],
  )
  console.log(
    `navi in-process: module load ${r.naviCold.importS} s, cold refresh ${r.naviCold.refreshS} s ` +
      `(read ${r.naviCold.bytesReadMb} MiB), warm refresh ${r.naviWarm.refreshS} s (read ${r.naviWarm.bytesReadMb} MiB)`,
  )
  console.log(`ccusage native binary alone: peak RSS ${r.ccusage.nativeBinaryRssMb} MB`)
  console.log(
    `1 KiB append absorbed by a running engine (watchers on), median of ${r.append.appends}: ` +
      `${r.append.engineCpuMsMedian} ms of the engine thread on a CPU (target <= 5), its cycle ` +
      `${r.append.engineMsMedian} ms wall (max ${r.append.engineMsMax}); per cycle ` +
      `${r.append.bytesReadMedian} bytes read, ${r.append.statsMedian} stat calls`,
  )
  const cc = r.ccusage.report
  const nv = r.naviCold.tokens
  if (cc && nv) {
    const cli = r.naviCliCold
    const equal =
      nv.total === cc.tokens.total &&
      cli.tokensTotal === nv.total &&
      cli.sessions === r.naviCold.sessions
    console.log(
      `cross-check: sessions navi ${r.naviCold.sessions} (CLI build ${cli.sessions}) / ccusage ${cc.sessions}; ` +
        `total tokens navi ${nv.total} (CLI build ${cli.tokensTotal}) / ccusage ${cc.tokens.total}` +
        (equal ? ' (equal)' : ' (DIFFER)'),
    )
  }
}
