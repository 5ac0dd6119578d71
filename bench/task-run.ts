/**
 * Delegated tasks, Navi's own share: the time from "run" (the service's `start`) to the agent's first
 * request to the API, against a bare `claude -p` from its spawn to its first request in the same run (the
 * CLI's own start-up, the reference); Navi's memory per running task (tasks held mid-turn by the scripted
 * API); and the relay latency from the API's reply carrying a `[NOTIFY]` to Navi's notification decision
 * (claude printing the line included). Real claude, scripted API.
 * `node bin/run-ts.mjs bench/task-run.ts [--runs N]` (default 5); writes bench/results/task-run.json.
 */
import { mib, percentile, printTable, round, writeResult } from './lib/report.ts'
import { runClaudePrint } from '../tests/support/claude-driver.ts'
import { text } from '../tests/support/scripted-api.ts'
import { createTaskWorld } from '../tests/support/task-world.ts'
import { waitUntil } from '../tests/support/wait.ts'

const args = process.argv.slice(2)
const RUNS = Number(args[args.indexOf('--runs') + 1] ?? 5) || 5
const HELD_TASKS = 4

/** Requests that carry the model's conversation (side requests, a title, have no tools, or `[]`). */
const isMain = (body: unknown) =>
  ((body as { tools?: unknown[] } | undefined)?.tools ?? []).length > 0

async function main(): Promise<void> {
  const w = await createTaskWorld('bench', { tasksConfig: [`max_running: ${String(HELD_TASKS)}`] })
  const toFirstRequest: number[] = []
  const bareToFirstRequest: number[] = []
  const relay: number[] = []
  let perTaskMib = Number.NaN
  let perTaskHeapMib = Number.NaN
  try {
    const firstMainAfter = (index: number) =>
      waitUntil(
        () => w.api.requests.slice(index).find((r) => isMain(r.body)) ?? null,
        60_000,
        'the first request of the run',
        5,
      )
    for (let i = 0; i < RUNS; i++) {
      const note = `done ${String(i)}`
      w.api.enqueue(text(`[NOTIFY] ${note}`))
      const before = w.api.requests.length
      const startedAt = Date.now()
      const started = await w.tasks.start({ text: `job ${String(i)}`, project: 'apollo' })
      if (!started.ok) throw new Error(started.error)
      const first = await firstMainAfter(before)
      toFirstRequest.push(first.receivedAt - startedAt)
      await w.tasks.settled(started.task.id)
      // The reply carrying [NOTIFY] answers that first request (one text turn, served at once).
      const relayed = w.notes.find((n) => n.body === note)
      if (!relayed) throw new Error(`the note "${note}" was not relayed`)
      relay.push(relayed.at - first.receivedAt)
    }
    for (let i = 0; i < RUNS; i++) {
      w.api.enqueue(text('plain answer'))
      const before = w.api.requests.length
      const startedAt = Date.now()
      const run = runClaudePrint({
        cwd: w.repo.dir,
        env: w.claudeEnv,
        prompt: 'say something',
        args: ['--output-format', 'stream-json', '--verbose'],
        timeoutMs: 60_000,
      })
      const first = await firstMainAfter(before)
      bareToFirstRequest.push(first.receivedAt - startedAt)
      await run
    }

    // Memory: tasks held mid-turn, each in a directory of its own (two in one directory would queue).
    global.gc?.()
    const baseline = process.memoryUsage()
    let release = false
    const dirs = await Promise.all(
      Array.from({ length: HELD_TASKS }, async (_, i) => {
        const { mkdtemp } = await import('node:fs/promises')
        const { tmpdir } = await import('node:os')
        const { join } = await import('node:path')
        return mkdtemp(join(tmpdir(), `navi-bench-task-${String(i)}-`))
      }),
    )
    for (const _ of dirs) w.api.enqueue(text('[NOTIFY] held', { holdUntil: () => release }))
    const held = []
    for (const dir of dirs) {
      const s = await w.tasks.start({ text: 'held job', cwd: dir })
      if (!s.ok) throw new Error(s.error)
      held.push(s.task.id)
    }
    await waitUntil(
      async () =>
        (await w.tasks.list()).filter((t) => t.status === 'running').length === HELD_TASKS,
      60_000,
      'every held task running',
    )
    global.gc?.()
    const held_ = process.memoryUsage()
    perTaskMib = mib(held_.rss - baseline.rss) / HELD_TASKS
    perTaskHeapMib = mib(held_.heapUsed - baseline.heapUsed) / HELD_TASKS
    release = true
    for (const id of held) await w.tasks.settled(id)
  } finally {
    await w.cleanup()
  }

  const overhead = percentile(toFirstRequest, 50) - percentile(bareToFirstRequest, 50)
  const row = (name: string, values: number[]) => [
    name,
    round(percentile(values, 50)),
    round(percentile(values, 95)),
  ]
  printTable(
    `delegated tasks with the real claude and the scripted API, ${String(RUNS)} runs (ms)`,
    ['measure', 'p50', 'p95'],
    [
      row('run → the agent’s first request (service start)', toFirstRequest),
      row('bare claude -p spawn → its first request (reference)', bareToFirstRequest),
      ['Navi’s own overhead (p50 difference)', round(overhead), ''],
      row('reply carrying [NOTIFY] → notification decision', relay),
      [`Navi RSS per running task (${String(HELD_TASKS)} held)`, `${round(perTaskMib, 2)} MiB`, ''],
      [`Navi JS heap per running task`, `${round(perTaskHeapMib, 2)} MiB`, ''],
    ],
  )
  const stats = (values: number[]) => ({
    p50: round(percentile(values, 50)),
    p95: round(percentile(values, 95)),
  })
  await writeResult('task-run', {
    runs: RUNS,
    run_to_first_request_ms: stats(toFirstRequest),
    bare_claude_to_first_request_ms: stats(bareToFirstRequest),
    navi_overhead_p50_ms: round(overhead),
    notify_relay_ms: stats(relay),
    navi_rss_per_running_task_mib: round(perTaskMib, 2),
    navi_heap_per_running_task_mib: round(perTaskHeapMib, 2),
    held_tasks: HELD_TASKS,
  })
}

await main()
