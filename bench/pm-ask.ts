/**
 * `navi ask`'s own overhead: questions to the real claude against the scripted API through the runtime's
 * `pm:ask` handler, timed whole, against a bare `claude -p` answering the same scripted way in the same
 * run (the reference: the CLI's start-up and one request). What is left is Navi's: the inbox, the layout,
 * the history, the schema, the parsing. Also the first streamed piece of the answer (`pm:answer`).
 * `node bin/run-ts.mjs bench/pm-ask.ts [runs]` (default 5); writes bench/results/pm-ask.json.
 */
import { createNaviRuntime } from '../electron/runtime/index.ts'
import { runClaudePrint } from '../tests/support/claude-driver.ts'
import { startPmWorld } from '../tests/support/pm-world.ts'
import { structured, text } from '../tests/support/scripted-api.ts'
import { percentile, printTable, round, writeResult } from './lib/report.ts'

const RUNS = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5)

async function main(): Promise<void> {
  const { api, env, repo, dispose } = await startPmWorld('bench-pm-ask-')
  const paths = {
    naviHome: env.NAVI_HOME,
    claudeConfigDir: env.CLAUDE_CONFIG_DIR,
    codexHome: env.CODEX_HOME,
  }
  const runtime = await createNaviRuntime({ paths, mode: 'once', pm: true, env })
  const total: number[] = []
  const bare: number[] = []
  const firstPiece: number[] = []
  try {
    await runtime.start()
    let askedAt = 0
    let first: number | null = null
    runtime.hub.subscribe((channel) => {
      if (channel === 'pm:answer' && first === null) first = performance.now() - askedAt
    })
    for (let i = 0; i < RUNS; i++) {
      api.enqueue(
        structured({
          answer: `Apollo had one commit this morning and no session ran there (run ${String(i)}).`,
        }),
      )
      first = null
      askedAt = performance.now()
      const result = await runtime.handlers['pm:ask']({ question: 'what did apollo do today?' })
      total.push(performance.now() - askedAt)
      if (result.error) throw new Error(result.error)
      if (first !== null) firstPiece.push(first)
    }
    for (let i = 0; i < RUNS; i++) {
      api.enqueue(text('Apollo had one commit this morning.'))
      const started = performance.now()
      const run = await runClaudePrint({
        cwd: repo.dir,
        env: env as unknown as Parameters<typeof runClaudePrint>[0]['env'],
        prompt: 'what did apollo do today?',
        args: ['--output-format', 'json'],
        timeoutMs: 60_000,
      })
      if (run.exitCode !== 0) throw new Error(`bare claude failed: ${run.stderr}`)
      bare.push(performance.now() - started)
    }
  } finally {
    await runtime.stop()
    await dispose()
  }
  const overhead = [percentile(total, 50) - percentile(bare, 50)]
  const row = (name: string, values: number[]) => [
    name,
    round(percentile(values, 50)),
    round(percentile(values, 95)),
  ]
  printTable(
    `pm:ask with the real claude and the scripted API, ${String(RUNS)} questions (ms)`,
    ['measure', 'p50', 'p95'],
    [
      row('whole question (handler)', total),
      row('bare claude -p, same scripted API (reference)', bare),
      row("Navi's own overhead (p50 difference)", overhead),
      row('first streamed piece of the answer', firstPiece),
    ],
  )
  const stats = (values: number[]) => ({
    p50: round(percentile(values, 50)),
    p95: round(percentile(values, 95)),
  })
  await writeResult('pm-ask', {
    runs: RUNS,
    total_ms: stats(total),
    bare_claude_ms: stats(bare),
    navi_overhead_p50_ms: round(overhead[0] ?? Number.NaN),
    first_streamed_piece_ms: stats(firstPiece),
  })
}

await main()
