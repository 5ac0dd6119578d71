/**
 * Child process of the bad-input table (harness.ts): runs `navi status`, `sessions --all` and `doctor`,
 * each with `--json` and as a person sees it, in this one process against the environment it was
 * given, and writes what each printed, its exit code and time, and the process's peak RSS, to the file
 * named by its first argument. A hang is the parent's to detect (it kills this process).
 */
import { writeFileSync } from 'node:fs'
import { runCli } from '../../../electron/cli/main.ts'
import { redirectOutput } from '../../../electron/cli/output.ts'

export const COMMANDS = [
  ['status', '--json'],
  ['sessions', '--all', '--json'],
  ['doctor', '--json'],
  ['status'],
  ['sessions', '--all'],
  ['doctor'],
] as const

export interface CommandRun {
  args: readonly string[]
  exitCode: number
  stdout: string
  stderr: string
  ms: number
}

export interface RunnerReport {
  runs: CommandRun[]
  /** Peak resident set of this process, MiB. */
  maxRssMb: number
}

async function runCaptured(args: readonly string[]): Promise<CommandRun> {
  let stdout = ''
  let stderr = ''
  // The CLI's own text through its sink; anything else written to the streams is captured too.
  redirectOutput({ out: (text) => (stdout += text), err: (text) => (stderr += text) })
  const out = process.stdout.write.bind(process.stdout)
  const err = process.stderr.write.bind(process.stderr)
  const capture =
    (append: (text: string) => void) =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
      const callback = rest.find((arg): arg is () => void => typeof arg === 'function')
      callback?.()
      return true
    }
  process.stdout.write = capture((text) => (stdout += text)) as typeof process.stdout.write
  process.stderr.write = capture((text) => (stderr += text)) as typeof process.stderr.write
  const started = performance.now()
  let exitCode: number
  try {
    exitCode = await runCli([...args])
  } catch (error) {
    stderr += `navi: ${error instanceof Error ? error.message : String(error)}\n`
    exitCode = 1
  } finally {
    process.stdout.write = out
    process.stderr.write = err
    redirectOutput(null)
  }
  return { args, exitCode, stdout, stderr, ms: performance.now() - started }
}

const reportFile = process.argv[2]
if (!reportFile) throw new Error('usage: runner <report.json>')
const runs: CommandRun[] = []
for (const args of COMMANDS) runs.push(await runCaptured(args))
const report: RunnerReport = { runs, maxRssMb: process.resourceUsage().maxRSS / 1024 }
writeFileSync(reportFile, JSON.stringify(report))
// Timers and watchers a command may have left must not keep the child alive.
process.exit(0)
