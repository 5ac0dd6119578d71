/**
 * Size of the PM's inbox: estimated tokens of `buildInbox` for 10, 1,000 and 5,000 generated
 * events across 20 projects (two live sessions each, long prompts: the heavy case), target ≤ the budget
 * (4,000) at every size, with how many events are shown in full and how many are only counted.
 *
 * `node bin/run-ts.mjs bench/pm-inbox.ts [--projects 20] [--budget 4000] [--sizes 10,1000,5000]`
 * Writes bench/results/pm-inbox.json; exits 1 when an inbox is over budget.
 */
import {
  buildInbox,
  DEFAULT_INBOX_BUDGET_TOKENS,
  describeInbox,
  serializeInbox,
} from '../electron/pm/core/inbox.ts'
import { generateCorpus } from '../tests/support/pm-events-fixture.ts'
import { isMain, numberOption, printTable, round, writeResult } from './lib/report.ts'

export interface PmInboxOptions {
  sizes: number[]
  projects: number
  budget: number
}

export function measureInbox(options: PmInboxOptions) {
  const now = Date.parse('2026-02-16T15:00:00Z')
  return options.sizes.map((count) => {
    const { events, projects } = generateCorpus({ count, now, projectCount: options.projects })
    const started = performance.now()
    const inbox = buildInbox({
      now,
      trigger: 'commit',
      events,
      projects,
      budgetTokens: options.budget,
    })
    const buildMs = performance.now() - started
    const d = describeInbox(inbox)
    return {
      events: count,
      tokens: d.tokens,
      chars: serializeInbox(inbox).length,
      fullEvents: d.fullEvents,
      summarizedEvents: d.summarizedEvents,
      summaries: d.summaries,
      projectsListed: d.projects,
      projectsOmitted: d.projectsOmitted,
      sessionsListed: d.sessionsListed,
      buildMs: round(buildMs),
      withinBudget: d.tokens <= options.budget,
      allCounted: d.fullEvents + d.summarizedEvents === count,
    }
  })
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2)
  const sizesArg =
    args.find((a) => a.startsWith('--sizes='))?.slice(8) ?? args[args.indexOf('--sizes') + 1]
  const options: PmInboxOptions = {
    sizes:
      args.some((a) => a.startsWith('--sizes')) && sizesArg
        ? sizesArg.split(',').map(Number)
        : [10, 1000, 5000],
    projects: numberOption(args, 'projects', 20),
    budget: numberOption(args, 'budget', DEFAULT_INBOX_BUDGET_TOKENS),
  }
  const rows = measureInbox(options)
  printTable(
    `PM inbox size, ${options.projects} projects, budget ${options.budget} tokens (≈ chars/4)`,
    [
      'events',
      'tokens',
      'chars',
      'in full',
      'summarized',
      'summaries',
      'projects',
      'sessions',
      'build ms',
      'ok',
    ],
    rows.map((r) => [
      r.events,
      r.tokens,
      r.chars,
      r.fullEvents,
      r.summarizedEvents,
      r.summaries,
      r.projectsListed,
      r.sessionsListed,
      r.buildMs,
      r.withinBudget && r.allCounted ? 'yes' : 'NO',
    ]),
  )
  await writeResult('pm-inbox', { ...options, target: `≤ ${options.budget} tokens`, rows })
  process.exitCode = rows.every((r) => r.withinBudget && r.allCounted) ? 0 : 1
}
