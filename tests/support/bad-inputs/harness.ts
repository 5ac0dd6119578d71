/**
 * Runs one row of the bad-input table: a fresh case (context.ts), the row's bad input planted, then one
 * child process (runner.ts, bundled once) running status, sessions and doctor, killed if it outlives
 * `HANG_MS`. `checkCase` lists what went wrong; the test asserts none did, the benchmark counts them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { engineStateSchema } from '../../../shared/schemas/state.ts'
import { doctorOutputSchema, sessionsOutputSchema } from '../../../shared/schemas/cli.ts'
import { createCaseContext, type CaseContext, type HealthyBase } from './context.ts'
import type { RunnerReport } from './runner.ts'
import type { BadInput, CaseOutput } from './types.ts'
import { findActiveCharacter } from '../../../shared/text.ts'
import { bundleForNode } from '../node-bundle.ts'

/** A case still running after this is a hang (six commands, on a loaded two-core machine). */
export const HANG_MS = 90_000
/** Peak RSS above this is a runaway read (a /dev/zero link once cost 600–830 MB). */
export const MAX_RSS_MB = 400

/** Bundles runner.ts beside the CLI bundle (so it resolves node_modules the same way); returns it. */
export function buildRunner(): Promise<{ file: string; dispose(): void }> {
  return bundleForNode(
    'tests/support/bad-inputs/runner.ts',
    `bad-input-runner-${process.pid}`,
    'runner.mjs',
  )
}

export interface CaseResult {
  row: BadInput
  /** Wall time of the child, ms. */
  ms: number
  hung: boolean
  report: RunnerReport | null
  output: CaseOutput
  problems: string[]
}

export async function runCase(
  row: BadInput,
  healthy: HealthyBase,
  runner: string,
): Promise<CaseResult> {
  const ctx = await createCaseContext(healthy)
  const reportDir = mkdtempSync(join(tmpdir(), 'navi-bad-report-'))
  try {
    await row.plant(ctx)
    const reportFile = join(reportDir, 'report.json')
    const started = performance.now()
    const child = await execa(process.execPath, [runner, reportFile], {
      cwd: ctx.scratch,
      env: caseEnv(ctx),
      extendEnv: false,
      reject: false,
      timeout: HANG_MS,
      killSignal: 'SIGKILL',
      stdin: 'ignore',
    })
    const ms = performance.now() - started
    let report: RunnerReport | null = null
    try {
      report = JSON.parse(readFileSync(reportFile, 'utf8')) as RunnerReport
    } catch {
      report = null
    }
    const output = parseOutput(report)
    const problems = checkCase(row, ctx, report, output, child.timedOut, String(child.stderr))
    return { row, ms, hung: child.timedOut, report, output, problems }
  } finally {
    await rm(ctx.root, { recursive: true, force: true }).catch(() => undefined)
    rmSync(reportDir, { recursive: true, force: true })
  }
}

/** Only git and the system tools on PATH: doctor then checks claude, codex and gh without spawning them. */
function caseEnv(ctx: CaseContext): Record<string, string> {
  return {
    PATH: '/usr/bin:/bin',
    HOME: ctx.root,
    NAVI_HOME: ctx.naviHome,
    CLAUDE_CONFIG_DIR: ctx.claudeConfigDir,
    CODEX_HOME: ctx.codexHome,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
  }
}

function parseOutput(report: RunnerReport | null): CaseOutput {
  const runs = report?.runs ?? []
  const json = (command: string): unknown => {
    const run = runs.find((r) => r.args[0] === command && r.args.includes('--json'))
    try {
      return run ? (JSON.parse(run.stdout) as unknown) : null
    } catch {
      return null
    }
  }
  const status = engineStateSchema.safeParse(json('status'))
  const sessions = sessionsOutputSchema.safeParse(json('sessions'))
  const doctor = doctorOutputSchema.safeParse(json('doctor'))
  return {
    status: status.success ? status.data : null,
    sessions: sessions.success ? sessions.data : null,
    doctor: doctor.success ? doctor.data : null,
    allText: runs.map((r) => `${r.stdout}\n${r.stderr}`).join('\n'),
  }
}

export function checkCase(
  row: BadInput,
  ctx: CaseContext,
  report: RunnerReport | null,
  out: CaseOutput,
  hung: boolean,
  childStderr: string,
): string[] {
  if (hung) return [`hang: still running after ${HANG_MS} ms`]
  if (!report) return [`crash: the runner wrote no report (${childStderr.slice(0, 300)})`]
  const problems: string[] = []
  for (const run of report.runs) {
    if (run.exitCode !== 0) {
      problems.push(
        `crash: navi ${run.args.join(' ')} exited ${run.exitCode}: ${run.stderr.slice(0, 300)}`,
      )
    }
  }
  if (report.maxRssMb > MAX_RSS_MB)
    problems.push(`memory: peak RSS ${report.maxRssMb.toFixed(0)} MB`)
  if (!out.status) problems.push('status --json is off-contract')
  if (!out.sessions) problems.push('sessions --json is off-contract')
  if (!out.doctor) problems.push('doctor --json is off-contract')
  const healthy = out.status?.projects.find((p) => p.project_dir === ctx.healthy.repoDir)
  if (out.status && !healthy) problems.push('the healthy project is gone from status')
  if (healthy && healthy.git?.head_sha !== ctx.healthy.headSha) {
    problems.push(
      `the healthy project's head is ${healthy.git?.head_sha ?? 'unknown'} (${healthy.git?.error})`,
    )
  }
  if (healthy && !healthy.sessions.some((s) => s.id === ctx.healthy.sessionId)) {
    problems.push('the healthy session is gone from its project')
  }
  if (out.sessions && !out.sessions.sessions.some((s) => s.id === ctx.healthy.sessionId)) {
    problems.push('the healthy session is gone from sessions --all')
  }
  const humanText = report.runs
    .filter((r) => !r.args.includes('--json'))
    .map((r) => r.stdout + r.stderr)
    .join('\n')
  if (findActiveCharacter(humanText) !== -1)
    problems.push('an escape or bidi control reached the terminal')
  if (findActiveCharacter(out.allText) !== -1)
    problems.push('an escape or bidi control is in the output')
  const expected = row.reported?.(ctx)
  if (expected !== undefined) {
    const said = [
      ...(out.status?.errors ?? []),
      ...(out.doctor?.errors ?? []),
      JSON.stringify(out.doctor),
    ].join('\n')
    const found = typeof expected === 'string' ? said.includes(expected) : expected.test(said)
    if (!found) problems.push(`not reported: nothing mentions ${String(expected)}`)
  }
  const own = row.check?.(out, ctx)
  if (own) problems.push(own)
  return problems
}
