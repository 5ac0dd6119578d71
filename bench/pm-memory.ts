/**
 * Memory file sizes after many PM runs: drives `navi brief --json` (the real CLI and the
 * real `claude`, against the scripted API) `--runs` times. The scripted model is a slightly
 * undisciplined PM: every run it Reads its memory, rewrites short-term.md with a new ~150-token
 * block on top of everything it had (without the safety valve it would pass its 2,000-token budget
 * around run 14), appends ~100 tokens to long-term.md (Write or Edit, alternately), and now and then
 * appends to `projects/<name>.md`. After each run the bench records each file's tokens
 * (`estimateTokens`) and bytes, what the model wrote, whether the valve trimmed it (the file differs
 * from what was written and carries a `<!-- trimmed by Navi` marker; new `pre-trim` versions), and
 * whether the valve's note reached the next run's system prompt.
 *
 * `node bin/run-ts.mjs bench/pm-memory.ts [--runs 50]`
 * Writes bench/results/pm-memory.json; exits 1 when a run fails or a file ends over budget + margin.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import {
  BUDGET_MARGIN,
  DEFAULT_MEMORY_BUDGETS,
  estimateTokens,
  isTrimMarker,
} from '../electron/pm/core/memory-budget.ts'
import { createClaudeEnv, claudeBinary, disposeClaudeEnv } from '../tests/support/claude-driver.ts'
import { createNaviEnv, runNavi } from '../tests/support/navi-cli.ts'
import {
  startScriptedApi,
  structured,
  toolUses,
  type ScriptedApi,
} from '../tests/support/scripted-api.ts'
import { createRandom, isMain, numberOption, printTable, round, writeResult } from './lib/report.ts'
import { briefing, FILES, planRun, type FileKey } from './lib/pm-memory-script.ts'

export interface FileSample {
  /** After the run and the safety valve; null when the file does not exist. */
  tokens: number | null
  bytes: number | null
  /** What the model wrote this run (null when it did not touch the file). */
  writtenTokens: number | null
  trimmed: boolean
  /** The file differs from what the model wrote without a trim marker (a write that failed). */
  unexpected: boolean
}

export interface RunSample {
  run: number
  seconds: number
  exitCode: number | undefined
  fresh: boolean
  files: Record<FileKey, FileSample>
  /** `pre-trim` versions that appeared during this run. */
  preTrimVersions: number
  /** The model appended to long-term.md with Edit (Write otherwise). */
  longTermByEdit: boolean
  /** Tool calls of the model that the CLI answered with an error. */
  toolErrors: number
  /** The previous run trimmed something, and this run's system prompt mentions it. */
  valveNoteDelivered: boolean | null
  /** The run's first request carried Navi's PM system prompt (so the check above can see notes). */
  systemPromptSeen: boolean
}

async function readOrNull(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8')
  } catch {
    return null
  }
}

/** The system prompt text of a Messages request (string or text blocks). */
function systemText(body: unknown): string {
  const system = (body as { system?: unknown } | undefined)?.system
  if (typeof system === 'string') return system
  if (!Array.isArray(system)) return ''
  return system.map((b: { text?: unknown }) => (typeof b.text === 'string' ? b.text : '')).join('')
}

async function preTrimIds(versionsDir: string): Promise<Set<string>> {
  const names = await readdir(versionsDir).catch(() => [])
  return new Set(names.filter((n) => n.endsWith('_pre-trim')))
}

async function dirBytes(dir: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = join(dir, entry.name)
    if (entry.isDirectory()) total += await dirBytes(full)
    else if (entry.isFile()) total += (await stat(full)).size
  }
  return total
}

export async function measureMemory(runs: number, log = console.error) {
  const api: ScriptedApi = await startScriptedApi()
  const claudeEnv = await createClaudeEnv({ apiUrl: api.url })
  const env = await createNaviEnv({ ...claudeEnv, NAVI_CLAUDE_BIN: claudeBinary() })
  const memoryDir = join(env.NAVI_HOME, 'pm', 'memory')
  const versionsDir = join(env.NAVI_HOME, 'pm', 'memory-versions')
  const rand = createRandom(3)
  const samples: RunSample[] = []
  try {
    for (let run = 1; run <= runs; run++) {
      const before = {} as Record<FileKey, string | null>
      for (const f of FILES) before[f.key] = await readOrNull(join(memoryDir, f.rel))
      const plan = planRun(run, memoryDir, before, rand)
      const trimsBefore = await preTrimIds(versionsDir)
      const firstRequest = api.requests.length
      const resultsBefore = new Set(api.toolResults().map((r) => r.tool_use_id))
      api.enqueue(toolUses(plan.reads), toolUses(plan.writes), structured(briefing(run)))

      const started = performance.now()
      const result = await runNavi(['brief', '--json'], env, 120_000)
      const seconds = (performance.now() - started) / 1000
      const fresh = (result.json as { is_stale?: unknown } | undefined)?.is_stale === false
      if (result.exitCode !== 0) log(`run ${run}: exit ${result.exitCode}\n${result.stderr}`)

      const files = {} as Record<FileKey, FileSample>
      for (const f of FILES) {
        const text = await readOrNull(join(memoryDir, f.rel))
        const written = plan.written[f.key]
        const changed = written !== undefined && text !== null && text !== written
        files[f.key] = {
          tokens: text === null ? null : estimateTokens(text),
          bytes: text === null ? null : Buffer.byteLength(text),
          writtenTokens: written === undefined ? null : estimateTokens(written),
          trimmed: changed && text.split('\n').some(isTrimMarker),
          unexpected: changed && !text.split('\n').some(isTrimMarker),
        }
      }
      const trimsAfter = await preTrimIds(versionsDir)
      const newRequests = api.requests.slice(firstRequest)
      const prev = samples.at(-1)
      const prevTrimmed = prev ? Object.values(prev.files).some((f) => f.trimmed) : false
      const prompt = systemText(newRequests.find((r) => r.route === 'scripted')?.body)
      const sample: RunSample = {
        run,
        seconds: round(seconds, 2),
        exitCode: result.exitCode,
        fresh,
        files,
        longTermByEdit: plan.writes.some((w) => w.name === 'Edit'),
        preTrimVersions: [...trimsAfter].filter((id) => !trimsBefore.has(id)).length,
        toolErrors: api
          .toolResults()
          .filter((r) => !resultsBefore.has(r.tool_use_id) && r.is_error === true).length,
        valveNoteDelivered: prevTrimmed ? /safety valve trimmed/.test(prompt) : null,
        systemPromptSeen: prompt.includes('project manager built into Navi'),
      }
      samples.push(sample)
      log(
        `run ${run}: ${sample.seconds} s, short ${files.shortTerm.tokens} tok, long ${files.longTerm.tokens} tok` +
          `${sample.preTrimVersions ? ', trimmed' : ''}${sample.toolErrors ? `, ${sample.toolErrors} tool errors` : ''}`,
      )
    }
    return {
      samples,
      versions: (await readdir(versionsDir).catch(() => [])).length,
      versionsBytes: await dirBytes(versionsDir),
    }
  } finally {
    await api.close()
    await disposeClaudeEnv(claudeEnv)
    for (const dir of [env.NAVI_HOME, env.CODEX_HOME]) {
      await rm(dir, { recursive: true, force: true })
    }
  }
}

export interface FileSummary {
  budget: number
  /** Budget + margin: the valve trims only above this. */
  limit: number
  finalTokens: number | null
  finalBytes: number | null
  /** Largest size after a run (after the valve). */
  maxTokens: number
  /** Largest size the model wrote (before the valve). */
  maxWrittenTokens: number
  trims: number
  firstTrimRun: number | null
}

/** Summary per file over all runs. */
export function summarize(samples: readonly RunSample[]): Record<FileKey, FileSummary> {
  const entries = FILES.map((f): [FileKey, FileSummary] => {
    const after = samples.map((s) => s.files[f.key].tokens ?? 0)
    const written = samples.map((s) => s.files[f.key].writtenTokens ?? 0)
    return [
      f.key,
      {
        budget: f.budget,
        limit: Math.floor(f.budget * (1 + BUDGET_MARGIN)),
        finalTokens: samples.at(-1)?.files[f.key].tokens ?? null,
        finalBytes: samples.at(-1)?.files[f.key].bytes ?? null,
        maxTokens: Math.max(0, ...after),
        maxWrittenTokens: Math.max(0, ...written),
        trims: samples.filter((s) => s.files[f.key].trimmed).length,
        firstTrimRun: samples.find((s) => s.files[f.key].trimmed)?.run ?? null,
      },
    ]
  })
  return Object.fromEntries(entries) as Record<FileKey, FileSummary>
}

if (isMain(import.meta.url)) {
  const runs = numberOption(process.argv.slice(2), 'runs', 50)
  const started = performance.now()
  const { samples, versions, versionsBytes } = await measureMemory(runs)
  const wallS = round((performance.now() - started) / 1000, 1)
  const perFile = summarize(samples)
  const cell = (s: FileSample) =>
    s.tokens === null ? '-' : `${s.tokens} (${s.bytes} B)${s.trimmed ? ' *' : ''}`
  const shown = samples.filter((s) => s.run === 1 || s.run % 10 === 0 || s.run === runs)
  printTable(
    `PM memory after ${runs} scripted runs (tokens ≈ bytes/4; * = trimmed by the safety valve this run)`,
    ['run', 'short-term', 'long-term', 'projects/apollo', 'projects/zephyr', 'pre-trim', 's'],
    [
      ...shown.map((s) => [
        String(s.run),
        cell(s.files.shortTerm),
        cell(s.files.longTerm),
        cell(s.files.apollo),
        cell(s.files.zephyr),
        samples.filter((x) => x.run <= s.run).reduce((n, x) => n + x.preTrimVersions, 0),
        s.seconds,
      ]),
      [
        'max',
        ...FILES.map(
          (f) => `${perFile[f.key].maxTokens} (written ${perFile[f.key].maxWrittenTokens})`,
        ),
        '',
        '',
      ],
      ['budget', ...FILES.map((f) => `${f.budget} (+${BUDGET_MARGIN * 100} %)`), '', ''],
    ],
  )
  const failed = samples.filter((s) => s.exitCode !== 0 || !s.fresh).length
  const toolErrors = samples.reduce((n, s) => n + s.toolErrors, 0)
  const edits = samples.filter((s) => s.longTermByEdit).length
  const unexpected = samples.filter((s) => Object.values(s.files).some((f) => f.unexpected)).length
  const notes = samples.filter((s) => s.valveNoteDelivered !== null)
  const notesDelivered = notes.filter((s) => s.valveNoteDelivered === true).length
  const promptsSeen = samples.filter((s) => s.systemPromptSeen).length
  const overLimit = FILES.filter((f) => perFile[f.key].maxTokens > perFile[f.key].limit)
  console.log(
    `\n${runs} runs in ${wallS} s; failed runs ${failed}; tool errors ${toolErrors}; long-term appended by Edit ${edits}×; ` +
      `runs whose memory differs from what the model wrote without a trim: ${unexpected}; ` +
      `memory-versions: ${versions} kept, ${versionsBytes} B; ` +
      `valve note in the next run's system prompt: ${notesDelivered}/${notes.length} ` +
      `(system prompt seen in ${promptsSeen}/${runs} runs)`,
  )
  await writeResult('pm-memory', {
    runs,
    wallS,
    command: `node bin/run-ts.mjs bench/pm-memory.ts --runs ${runs}`,
    budgets: DEFAULT_MEMORY_BUDGETS,
    margin: BUDGET_MARGIN,
    failedRuns: failed,
    toolErrors,
    longTermEdits: edits,
    unexpectedContentRuns: unexpected,
    trims: samples.reduce((n, s) => n + s.preTrimVersions, 0),
    valveNotes: { afterTrims: notes.length, delivered: notesDelivered, promptsSeen },
    versionsKept: versions,
    versionsBytes,
    files: perFile,
    samples,
  })
  process.exitCode =
    failed === 0 && toolErrors === 0 && unexpected === 0 && overLimit.length === 0 ? 0 : 1
}
