/**
 * What Navi's hook handler adds per tool call.
 * 1. Spawn cost: the handler (resources/hooks/navi-hook.sh) N times with a realistic PostToolUse
 *    payload, against spawning `true` and a bare `node -e ""` (the least any Node handler costs, which
 *    is what Navi's handler was before it was a shell script), and once more with a 4 MiB payload.
 *    Claude Code runs the hook command through a shell, so the installed command is timed via
 *    `/bin/sh -c`. A tool call fires two hooks (PreToolUse and PostToolUse). Then the engine's side:
 *    what draining those spooled events into the inbox costs per event.
 * 2. In the real CLI (skip with `--no-claude`): print-mode runs of the real `claude` against the
 *    scripted API with 2 and 12 Bash tool calls, without hooks, with Navi's hooks as installed (tool
 *    events in the background) and with every hook synchronous. The slope between 2 and 12 calls
 *    cancels the per-session hooks and start-up, leaving the cost per tool call.
 * `npx tsx bench/hook-overhead.ts [runs] [--no-claude]` (default 50); writes
 * bench/results/hook-overhead.json.
 */
import { spawn } from 'node:child_process'
import { realpathSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { drainHookSpool } from '../electron/engine/adapters/hook-spool.ts'
import { installHooks } from '../electron/engine/adapters/hooks-install.ts'
import { buildNaviHookCommand } from '../electron/engine/core/hooks-settings.ts'
import { naviFiles } from '../electron/engine/core/paths.ts'
import {
  createClaudeEnv,
  disposeClaudeEnv,
  runClaudePrint,
} from '../tests/support/claude-driver.ts'
import { startScriptedApi, text, toolUse } from '../tests/support/scripted-api.ts'
import { measuredEnv } from './lib/measured-env.ts'

const args = process.argv.slice(2)
const RUNS = Number(args.find((a) => /^\d+$/.test(a)) ?? 50)
const WITH_CLAUDE = !args.includes('--no-claude')
const WARMUP = 3
const CLAUDE_RUNS = 3
const TOOL_CALLS = [2, 12] as const
const handler = fileURLToPath(new URL('../resources/hooks/navi-hook.sh', import.meta.url))
const resultsFile = fileURLToPath(new URL('./results/hook-overhead.json', import.meta.url))

const source = 'export const x = 1 // a line of source code\n'.repeat(200)
const hugePayload = JSON.stringify({
  session_id: '4ebfe5b2-1111-4000-8000-000000000001',
  hook_event_name: 'PostToolUse',
  tool_name: 'Read',
  tool_input: { file_path: '/home/user/proj/big.log' },
  tool_response: { content: 'log line of a big file\n'.repeat((4 * 1024 * 1024) / 24) },
})
const payload = JSON.stringify({
  session_id: '4ebfe5b2-1111-4000-8000-000000000001',
  transcript_path: '/home/user/.claude/projects/-home-user-proj/4ebfe5b2.jsonl',
  cwd: '/home/user/proj',
  hook_event_name: 'PostToolUse',
  prompt_id: 'p1',
  permission_mode: 'default',
  effort: { level: 'high' },
  tool_name: 'Write',
  tool_input: { file_path: '/home/user/proj/src/a.ts', content: source },
  tool_response: { type: 'create', filePath: '/home/user/proj/src/a.ts', content: source },
  tool_use_id: 'toolu_fake_031',
  duration_ms: 11,
})

/** Wall time of one spawn, from spawn to exit, with `input` written to its stdin. */
function timeSpawn(cmd: string, cmdArgs: string[], input: string, env: NodeJS.ProcessEnv) {
  return new Promise<number>((resolve, reject) => {
    const start = process.hrtime.bigint()
    const child = spawn(cmd, cmdArgs, { env, stdio: ['pipe', 'ignore', 'ignore'] })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${cmd} exited ${code}`))
      else resolve(Number(process.hrtime.bigint() - start) / 1e6)
    })
    child.stdin.on('error', () => {}) // `true` does not read its stdin
    child.stdin.end(input)
  })
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b)
function percentile(xs: number[], p: number): number {
  const s = sorted(xs)
  return s[Math.max(0, Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1))] ?? NaN
}
const round = (n: number) => Math.round(n * 10) / 10

interface Row {
  name: string
  p50: number
  p95: number
  mean: number
}

async function measure(name: string, run: () => Promise<number>): Promise<Row> {
  for (let i = 0; i < WARMUP; i++) await run()
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) times.push(await run())
  const mean = times.reduce((a, b) => a + b, 0) / times.length
  return { name, p50: percentile(times, 50), p95: percentile(times, 95), mean }
}

function printTable(header: string[], rows: (string | number)[][]): void {
  const cell = (v: string | number, i: number) =>
    i === 0 ? String(v).padEnd(30) : (typeof v === 'number' ? v.toFixed(1) : v).padStart(14)
  for (const r of [header, ...rows]) console.log(r.map(cell).join(''))
}

async function spawnCost(home: string) {
  const env = measuredEnv({ NAVI_HOME: home })
  const command = buildNaviHookCommand({ handlerPath: handler, naviHome: home })
  const rows = [
    await measure('true (baseline)', () => timeSpawn('true', [], payload, env)),
    await measure('node -e "" (bare node)', () =>
      timeSpawn(process.execPath, ['-e', ''], payload, env),
    ),
    await measure('sh navi-hook.sh', () => timeSpawn('/bin/sh', [handler], payload, env)),
    await measure('sh -c <installed command>', () =>
      timeSpawn('/bin/sh', ['-c', command], payload, env),
    ),
    await measure('sh -c <installed command>, 4 MiB', () =>
      timeSpawn('/bin/sh', ['-c', command], hugePayload, env),
    ),
  ]
  const spoolDir = join(home, 'hooks', 'spool')
  const spooled = (await readdir(spoolDir)).length
  const drainStarted = performance.now()
  const drained = await drainHookSpool(spoolDir, join(home, 'hooks', 'events.jsonl'))
  const drainMs = performance.now() - drainStarted
  const inbox = join(home, 'hooks', 'events.jsonl')
  const lines = (await readFile(inbox, 'utf8')).trimEnd().split('\n').length
  const bytesPerLine = Math.round((await stat(inbox)).size / lines)
  const [baseline, bareNode, , viaShell] = rows as [Row, Row, Row, Row]
  const perHook = viaShell.p50 - baseline.p50
  console.log(
    `\n1. spawn cost, ${RUNS} runs each (+${WARMUP} warm-up), payload ${payload.length} bytes`,
  )
  printTable(
    ['command', 'p50 ms', 'p95 ms', 'mean ms'],
    rows.map((r) => [r.name, r.p50, r.p95, r.mean]),
  )
  console.log(`one hook, blocking (p50, installed command - true): ${perHook.toFixed(1)} ms`)
  console.log(
    `  target <= 30 ms: ${viaShell.p50 <= 30 ? 'met' : 'not met'} (installed command p50 ${viaShell.p50.toFixed(1)} ms)`,
  )
  console.log(
    `  a bare node start, the floor of any Node handler: ${bareNode.p50.toFixed(1)} ms p50`,
  )
  console.log(`a tool call if both its hooks blocked: ${(2 * perHook).toFixed(1)} ms`)
  console.log(
    `drain: ${drained.appended} of ${spooled} spooled events into the inbox in ${drainMs.toFixed(1)} ms (${(drainMs / Math.max(1, spooled)).toFixed(3)} ms per event)`,
  )
  console.log(`inbox line: ${bytesPerLine} bytes`)
  return {
    rows: rows.map((r) => ({
      name: r.name,
      p50: round(r.p50),
      p95: round(r.p95),
      mean: round(r.mean),
    })),
    perHookBlockingMsP50: round(perHook),
    installedCommandMsP50: round(viaShell.p50),
    targetMs: 30,
    targetMet: viaShell.p50 <= 30,
    bareNodeMsP50: round(bareNode.p50),
    perToolCallIfBlockingMsP50: round(2 * perHook),
    drain: {
      events: drained.appended,
      spooled,
      ms: round(drainMs),
      msPerEvent: Math.round((drainMs / Math.max(1, spooled)) * 1000) / 1000,
    },
    inboxBytesPerLine: bytesPerLine,
  }
}

type Variant = 'none' | 'navi' | 'all-sync'

/** Median wall ms of a print-mode run with `calls` Bash tool calls, per variant. */
async function claudeCost(root: string) {
  const api = await startScriptedApi()
  const project = join(root, 'proj')
  await mkdir(project)
  const envs = new Map<Variant, Awaited<ReturnType<typeof createClaudeEnv>>>()
  try {
    for (const variant of ['none', 'navi', 'all-sync'] as const) {
      const env = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [project], maxRetries: 0 })
      envs.set(variant, env)
      if (variant === 'none') continue
      const paths = {
        naviHome: join(root, variant),
        claudeConfigDir: env.CLAUDE_CONFIG_DIR,
        codexHome: root,
      }
      await installHooks(paths)
      if (variant === 'all-sync') {
        const file = naviFiles(paths).claudeSettings
        await writeFile(
          file,
          (await readFile(file, 'utf8')).replaceAll('"async": true', '"async": false'),
        )
      }
    }
    const times = new Map<string, number[]>()
    for (let run = 0; run < CLAUDE_RUNS; run++) {
      for (const calls of TOOL_CALLS) {
        for (const [variant, env] of envs) {
          for (let i = 0; i < calls; i++) api.enqueue(toolUse('Bash', { command: 'true' }))
          api.enqueue(text('done'))
          const result = await runClaudePrint({
            cwd: project,
            env,
            prompt: 'go',
            args: ['--allowedTools', 'Bash'],
            timeoutMs: 120_000,
          })
          if (result.exitCode !== 0)
            throw new Error(`claude exited ${result.exitCode}: ${result.stderr}`)
          const key = `${variant}:${calls}`
          times.set(key, [...(times.get(key) ?? []), result.durationMs])
        }
      }
    }
    const median = (key: string) => percentile(times.get(key) ?? [], 50)
    const [few, many] = TOOL_CALLS
    const slope = (v: Variant) => (median(`${v}:${many}`) - median(`${v}:${few}`)) / (many - few)
    const rows = (['none', 'navi', 'all-sync'] as const).map((v) => ({
      variant: v,
      [`run${few}Ms`]: round(median(`${v}:${few}`)),
      [`run${many}Ms`]: round(median(`${v}:${many}`)),
      perToolCallMs: round(slope(v)),
      addedPerToolCallMs: round(slope(v) - slope('none')),
    }))
    console.log(`\n2. real claude -p, median of ${CLAUDE_RUNS} runs, Bash tool calls`)
    printTable(
      ['hooks', `${few} calls ms`, `${many} calls ms`, 'ms / call', 'added / call'],
      rows.map((r) => [
        r.variant,
        Number(r[`run${few}Ms`]),
        Number(r[`run${many}Ms`]),
        r.perToolCallMs,
        r.addedPerToolCallMs,
      ]),
    )
    return rows
  } finally {
    for (const env of envs.values()) await disposeClaudeEnv(env)
    await api.close()
  }
}

async function main(): Promise<void> {
  const root = realpathSync(await mkdtemp(join(tmpdir(), 'navi-hook-bench-')))
  try {
    const spawn = await spawnCost(join(root, 'spawn'))
    const claude = WITH_CLAUDE ? await claudeCost(root) : null
    await mkdir(join(resultsFile, '..'), { recursive: true })
    const result = {
      measuredAt: new Date().toISOString(),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      runs: RUNS,
      payloadBytes: payload.length,
      spawn,
      claude,
    }
    await writeFile(resultsFile, `${JSON.stringify(result, null, 2)}\n`)
    console.log(`\nwritten: ${resultsFile}`)
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

await main()
