/**
 * Answering an agent from Navi, measured (issue 12's "Measure and report"):
 * 1. The PermissionRequest hook's own cost (resources/hooks/navi-hook.sh with `--answerable`), N runs
 *    each: as a plain hook (reference), answerable with no Navi listening, answerable and listened to but
 *    not opted in. These must stay within the hook target of the speed issue (≤ 30 ms p50).
 * 2. A held hook: from an answer written by Navi to the hook printing it and exiting (the hook looks
 *    four times a second).
 * 3. With the real claude TUI in tmux (skip with `--no-claude`), a live Navi runtime and the tray's
 *    notification loop with a recorder: from the PermissionRequest hook firing (its spool file's time) to
 *    the notification being shown, and from "Allow" (the contract call) to the tool's effect on disk.
 * `node bin/run-ts.mjs bench/answer-latency.ts [runs] [--no-claude]` (default 30; claude rounds: 5);
 * writes bench/results/answer-latency.json.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { claimListener, setOptIn } from '../electron/engine/adapters/answers-dir.ts'
import { hookAnswerOutput } from '../electron/engine/core/answer-rules.ts'
import { percentile, printTable, round, writeResult } from './lib/report.ts'

const args = process.argv.slice(2)
const RUNS = Number(args.find((a) => /^\d+$/.test(a)) ?? 30)
const WITH_CLAUDE = !args.includes('--no-claude')
const CLAUDE_ROUNDS = 5
const handler = fileURLToPath(new URL('../resources/hooks/navi-hook.sh', import.meta.url))
const payload = JSON.stringify({
  session_id: '4ebfe5b2-1111-4000-8000-000000000001',
  transcript_path: '/home/user/.claude/projects/-home-user-proj/4ebfe5b2.jsonl',
  cwd: '/home/user/proj',
  hook_event_name: 'PermissionRequest',
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command: 'npm test', description: 'Run the tests' },
  permission_suggestions: [],
})

/** One hook run: ms from spawn to exit, and what it printed. */
function runHook(home: string, answerable: boolean): Promise<{ ms: number; stdout: string }> {
  const started = performance.now()
  const child = spawn(
    '/bin/sh',
    [handler, '--navi-home', home, ...(answerable ? ['--answerable'] : [])],
    { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir() } },
  )
  let stdout = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stdin.end(payload)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', () => resolve({ ms: performance.now() - started, stdout }))
  })
}

async function timeHook(home: string, answerable: boolean): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < RUNS + 3; i++) {
    const { ms } = await runHook(home, answerable)
    if (i >= 3) times.push(ms)
  }
  await rm(join(home, 'hooks'), { recursive: true, force: true })
  return times
}

/** ms from the answer being written to the held hook exiting with it. */
async function timeHeld(home: string): Promise<number[]> {
  const answers = join(home, 'answers')
  await claimListener(answers)
  await setOptIn(answers, null, 60)
  const times: number[] = []
  for (let i = 0; i < Math.min(RUNS, 15); i++) {
    const run = runHook(home, true)
    const waiting = join(answers, 'waiting')
    let id: string | undefined
    for (let tries = 0; tries < 400 && !id; tries++) {
      id = (await readdir(waiting).catch(() => [] as string[])).find((n) => !n.endsWith('.tmp'))
      if (!id) await new Promise((r) => setTimeout(r, 5))
    }
    if (!id) throw new Error('the hook never started waiting')
    const written = performance.now()
    await writeFile(join(answers, `${id}.allow`), `${hookAnswerOutput('allow')}\n`)
    const { stdout } = await run
    if (!stdout.includes('"allow"')) throw new Error(`the hook printed ${JSON.stringify(stdout)}`)
    times.push(performance.now() - written)
  }
  await setOptIn(answers, null, null)
  return times
}

const stats = (values: number[]) => ({
  p50: round(percentile(values, 50)),
  p95: round(percentile(values, 95)),
  n: values.length,
})

async function main(): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'navi-answer-bench-'))
  await mkdir(join(home, 'answers'), { recursive: true })
  const plain = await timeHook(home, false)
  const noListener = await timeHook(home, true)
  await claimListener(join(home, 'answers'))
  const notOptedIn = await timeHook(home, true)
  const held = await timeHeld(home)
  await rm(home, { recursive: true, force: true })

  const hookRows = [
    ['plain hook (reference)', plain],
    ['answerable, no Navi listening', noListener],
    ['answerable, Navi listening, not opted in', notOptedIn],
    ['held: answer written → hook printed it', held],
  ] as const
  printTable(
    `PermissionRequest hook, ${String(RUNS)} runs each (ms)`,
    ['case', 'p50', 'p95', 'ratio p50 to plain'],
    hookRows.map(([name, v]) => [
      name,
      stats([...v]).p50,
      stats([...v]).p95,
      round(percentile([...v], 50) / percentile([...plain], 50), 2),
    ]),
  )
  const claude = WITH_CLAUDE
    ? await (await import('./lib/answer-claude.ts')).measureWithClaude(CLAUDE_ROUNDS)
    : null
  if (claude) {
    printTable(
      `With the real claude in tmux, ${String(CLAUDE_ROUNDS)} rounds (ms)`,
      ['step', 'p50', 'p95'],
      [
        [
          'permission request → notification shown',
          stats(claude.toNotification).p50,
          stats(claude.toNotification).p95,
        ],
        ['Allow → tool effect on disk', stats(claude.toEffect).p50, stats(claude.toEffect).p95],
      ],
    )
  }
  await writeResult('answer-latency', {
    runs: RUNS,
    hook: Object.fromEntries(hookRows.map(([name, v]) => [name, stats([...v])])),
    ...(claude
      ? {
          claude: {
            rounds: CLAUDE_ROUNDS,
            request_to_notification_ms: stats(claude.toNotification),
            allow_to_tool_effect_ms: stats(claude.toEffect),
          },
        }
      : {}),
  })
  if (existsSync(home)) await rm(home, { recursive: true, force: true })
}

await main()
