/**
 * The adversarial table's figures: every row of tests/support/bad-inputs/ run as the test runs it (a
 * fresh Navi home with a healthy project, the bad input planted, `navi status`, `sessions --all` and
 * `doctor` as JSON and as text in one child process), and per row the wall time and peak RSS. Reports
 * cases tried, crashes, hangs, other problems (off-contract output, a lost healthy project, an escape on
 * the terminal, a silent failure), the worst rows by time and memory, and a reference row (a case with
 * no bad input) measured in the same run, so the worst row is also given as a ratio to it.
 *
 * `node bin/run-ts.mjs bench/bad-inputs.ts [--jobs N]` — writes bench/results/bad-inputs.json.
 */
import pLimit from 'p-limit'
import { buildRunner, runCase, type CaseResult } from '../tests/support/bad-inputs/harness.ts'
import { createHealthyBase } from '../tests/support/bad-inputs/healthy.ts'
import { BAD_INPUTS, type BadInput } from '../tests/support/bad-inputs/table.ts'
import { isMain, numberOption, printTable, round, writeResult } from './lib/report.ts'

const REFERENCE: BadInput = {
  group: 'reference',
  name: 'no bad input at all',
  plant: async () => {},
}

function kindOf(result: CaseResult): 'hang' | 'crash' | 'other' | 'ok' {
  if (result.hung) return 'hang'
  if (result.problems.some((p) => p.startsWith('crash'))) return 'crash'
  return result.problems.length > 0 ? 'other' : 'ok'
}

export async function benchBadInputs(jobs: number) {
  const [healthy, runner] = await Promise.all([createHealthyBase(), buildRunner()])
  try {
    const reference = await runCase(REFERENCE, healthy, runner.file)
    const started = performance.now()
    const results = await pLimit(jobs).map(BAD_INPUTS, (row) => runCase(row, healthy, runner.file))
    const wallS = (performance.now() - started) / 1000
    const rss = (r: CaseResult) => r.report?.maxRssMb ?? 0
    const count = (kind: ReturnType<typeof kindOf>) =>
      results.filter((r) => kindOf(r) === kind).length
    const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 5)
    const hungriest = [...results].sort((a, b) => rss(b) - rss(a)).slice(0, 5)

    printTable(
      'Bad inputs',
      ['measure', 'value'],
      [
        ['cases tried', results.length],
        ['crashes', count('crash')],
        ['hangs', count('hang')],
        ['other problems', count('other')],
        ['reference case, s', round(reference.ms / 1000, 2)],
        ['reference peak RSS, MB', round(rss(reference))],
        ['worst time, s', round((slowest[0]?.ms ?? 0) / 1000, 2)],
        ['worst time / reference', round((slowest[0]?.ms ?? 0) / reference.ms, 1)],
        ['worst peak RSS, MB', round(rss(hungriest[0] ?? reference))],
        ['worst RSS / reference', round(rss(hungriest[0] ?? reference) / rss(reference), 1)],
        ['all rows, s (wall)', round(wallS)],
      ],
    )
    printTable(
      'Slowest rows',
      ['row', 's', 'MB'],
      slowest.map((r) => [r.row.name, round(r.ms / 1000, 2), round(rss(r))]),
    )
    printTable(
      'Largest rows',
      ['row', 'MB', 's'],
      hungriest.map((r) => [r.row.name, round(rss(r)), round(r.ms / 1000, 2)]),
    )
    const failing = results.filter((r) => r.problems.length > 0)
    if (failing.length > 0)
      printTable(
        'Problems',
        ['row', 'problem'],
        failing.flatMap((r) => r.problems.map((p) => [r.row.name, p])),
      )

    await writeResult('bad-inputs', {
      jobs,
      cases: results.length,
      crashes: count('crash'),
      hangs: count('hang'),
      otherProblems: count('other'),
      reference: { ms: round(reference.ms), maxRssMb: round(rss(reference)) },
      worstTime: { row: slowest[0]?.row.name, ms: round(slowest[0]?.ms ?? 0) },
      worstRss: { row: hungriest[0]?.row.name, maxRssMb: round(rss(hungriest[0] ?? reference)) },
      rows: results.map((r) => ({
        group: r.row.group,
        name: r.row.name,
        ms: round(r.ms),
        maxRssMb: round(rss(r)),
        problems: r.problems,
      })),
    })
    return { failing: failing.length }
  } finally {
    runner.dispose()
    await healthy.dispose()
  }
}

if (isMain(import.meta.url)) {
  const jobs = numberOption(process.argv.slice(2), 'jobs', 2)
  const { failing } = await benchBadInputs(jobs)
  process.exitCode = failing > 0 ? 1 : 0
}
