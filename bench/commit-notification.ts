/**
 * Commit → notification decision latency, p50/p95: a real `git commit` in a repo registered in
 * config.yaml, the running engine (watching) delivering the `commit` event to its subscriber, and the
 * tray's notification loop (electron/main/notifications/notification-loop.ts, the one `notifier.ts` runs
 * with Electron's `Notification`) deciding to notify. The commit group window is 0 (no grouping), so
 * the decision is taken in the subscriber call that delivers the event; with the default 30 s window the
 * notification follows the first commit by 30 s.
 * Each commit waits for its decision before the next (bounded), then a short pause.
 *
 * `node bin/run-ts.mjs bench/commit-notification.ts [--commits N] [--spacing MS]`
 * Writes bench/results/commit-notification.json.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { execa } from 'execa'
import type { EngineEvent } from '../shared/schemas/event.ts'
import type { ProjectSnapshot } from '../shared/schemas/project.ts'
import { parseSettings } from '../shared/schemas/settings.ts'
import { createEngine } from '../electron/engine/index.ts'
import type { NotificationSpec } from '../electron/main/notifications/decide.ts'
import { createNotificationLoop } from '../electron/main/notifications/notification-loop.ts'
import { createRepoFixture, FIXTURE_GIT_ENV } from '../tests/support/repo-fixture.ts'
import {
  isMain,
  mean,
  numberOption,
  percentile,
  printTable,
  round,
  sleep,
  writeResult,
} from './lib/report.ts'

export interface CommitNotificationOptions {
  commits: number
  spacingMs: number
  window: string
}

/** The tray's own notification loop (timer and state), with a recorder instead of Electron's `Notification`. */
function createDecisionLoop(
  window: string,
  onNotify: (spec: NotificationSpec, at: number) => void,
) {
  const { settings } = parseSettings({ commit_group_window: window })
  const loop = createNotificationLoop({
    getSettings: () => settings,
    isPopoverVisible: () => false,
    show: (spec) => onNotify(spec, performance.now()),
    withdraw: () => undefined,
  })
  const decideMs: number[] = []
  return {
    handleEvents(events: EngineEvent[], projects: ProjectSnapshot[]) {
      const started = performance.now()
      loop.handleEvents(events, projects)
      decideMs.push(performance.now() - started)
    },
    decideMs,
    stop: () => loop.stop(),
  }
}

export async function benchCommitNotification(opts: CommitNotificationOptions) {
  const repo = await createRepoFixture({ prefix: 'navi-bench-notify-' })
  const naviHome = join(repo.base, 'navi')
  await mkdir(naviHome)
  await writeFile(
    join(naviHome, 'config.yaml'),
    `projects:\n  - path: ${repo.dir}\n    name: bench\n`,
  )
  const engine = createEngine({
    paths: {
      naviHome,
      claudeConfigDir: join(repo.base, 'claude'),
      codexHome: join(repo.base, 'codex'),
    },
    watch: true,
  })
  const eventAt = new Map<string, number>()
  const notifiedAt = new Map<string, number>()
  const loop = createDecisionLoop(opts.window, (spec, at) => {
    // A commit notification's key names the group's first sha.
    const sha = spec.kind === 'commits' ? spec.key.split(':')[2] : undefined
    if (sha && !notifiedAt.has(sha)) notifiedAt.set(sha, at)
  })
  engine.subscribe((events, state) => {
    const at = performance.now()
    for (const e of events) {
      if (e.type === 'commit' && typeof e.details.sha === 'string') eventAt.set(e.details.sha, at)
    }
    loop.handleEvents(events, state.projects)
  })
  const rows: { sha: string; commitToEventMs: number; commitToDecisionMs: number }[] = []
  let missed = 0
  try {
    await engine.start()
    for (let i = 0; i < opts.commits; i++) {
      repo.file('README.md', `# fixture\nchange ${i}\n`)
      await execa('git', ['commit', '-q', '-a', '-m', `notify bench ${i}`], {
        cwd: repo.dir,
        env: FIXTURE_GIT_ENV,
        stdin: 'ignore',
      })
      const returnedAt = performance.now()
      const sha = await repo.git('rev-parse', 'HEAD')
      const deadline = performance.now() + 10_000
      while (!notifiedAt.has(sha) && performance.now() < deadline) await sleep(5)
      const decided = notifiedAt.get(sha)
      const event = eventAt.get(sha)
      if (decided === undefined || event === undefined) missed++
      else
        rows.push({
          sha,
          commitToEventMs: event - returnedAt,
          commitToDecisionMs: decided - returnedAt,
        })
      await sleep(opts.spacingMs)
    }
  } finally {
    loop.stop()
    await engine.stop()
    await repo.cleanup()
  }
  const toEvent = rows.map((r) => r.commitToEventMs)
  const toDecision = rows.map((r) => r.commitToDecisionMs)
  const result = {
    commits: opts.commits,
    notified: rows.length,
    missed,
    window: opts.window,
    spacingMs: opts.spacingMs,
    decision: {
      p50Ms: round(percentile(toDecision, 50)),
      p95Ms: round(percentile(toDecision, 95)),
      meanMs: round(mean(toDecision)),
      maxMs: round(Math.max(...toDecision)),
    },
    event: {
      p50Ms: round(percentile(toEvent, 50)),
      p95Ms: round(percentile(toEvent, 95)),
    },
    decideCallUs: {
      p50: round(percentile(loop.decideMs, 50) * 1000),
      p95: round(percentile(loop.decideMs, 95) * 1000),
    },
    latenciesMs: toDecision.map((l) => round(l)),
  }
  printTable(
    `Commit → notification decision (${opts.commits} commits, group window ${opts.window}, from git commit returning)`,
    ['stage', 'p50 ms', 'p95 ms', 'notified'],
    [
      [
        'commit → engine event',
        result.event.p50Ms,
        result.event.p95Ms,
        `${rows.length}/${opts.commits}`,
      ],
      [
        'commit → decision (notify)',
        result.decision.p50Ms,
        result.decision.p95Ms,
        `${rows.length}/${opts.commits}`,
      ],
    ],
  )
  console.log(
    `the notification loop's handleEvents itself: p50 ${result.decideCallUs.p50} µs, p95 ${result.decideCallUs.p95} µs per call.`,
  )
  return result
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2)
  const result = await benchCommitNotification({
    commits: numberOption(args, 'commits', 20),
    spacingMs: numberOption(args, 'spacing', 300),
    window: '0s',
  })
  await writeResult('commit-notification', result)
  if (result.missed > 0) process.exitCode = 1
}
