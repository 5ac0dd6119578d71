/**
 * The CLI writes its text straight to the descriptor (electron/cli/output.ts). A descriptor that cannot
 * take it now hands it to Node's stream, in order and whole: here a pipe made non-blocking (as Node makes
 * one it opened a stream on) whose reader waits until the writer has given everything, far more than a
 * pipe holds. And a reader that goes away ends the command with 141, whichever way the text went.
 */
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { waitUntil } from '../support/wait.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const OUTPUT_MODULE = join(ROOT, 'electron/cli/output.ts')
const ROWS = 20_000

const writer = `
  const { printJson, printOut, printErr, exitCodeOfOutput } = await import(${JSON.stringify(OUTPUT_MODULE)})
  // Node's stream on a pipe makes its descriptor non-blocking: the next direct write that does not fit
  // fails with EAGAIN.
  if (process.argv.includes('--nonblocking')) process.stdout
  printJson({ rows: Array.from({ length: ${ROWS} }, (_, i) => ({ i, text: 'row ' + i })) })
  printOut('after the document')
  printErr('written')
  process.on('exit', () => { process.exitCode = exitCodeOfOutput() ?? 0 })
`

function startWriter(args: string[]) {
  return execa(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', writer, '--', ...args],
    { cwd: ROOT, reject: false, buffer: false },
  )
}

describe('CLI output', () => {
  // (A pipe the writer left alone is blocking; the built CLI's tests (cli-closed-output.test.ts and
  // every test that reads its output) write through that.)
  it('gives a reader that waits everything, in order, through a non-blocking pipe', async () => {
    const child = startWriter(['--nonblocking'])
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    // Nothing is read until the writer says it has handed everything over (or, blocking, it waits in
    // its write; then the reading starts after the bound and unblocks it).
    // Nothing is read until the writer says it has handed everything over.
    child.stdout?.pause()
    await waitUntil(
      () => stderr.includes('written'),
      30_000,
      () => `stderr: ${stderr}`,
    )
    const chunks: Buffer[] = []
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk))
    child.stdout?.resume()
    const result = await child
    expect(result.exitCode, stderr).toBe(0)
    const lines = Buffer.concat(chunks).toString('utf8').split('\n')
    expect(lines.at(-2)).toBe('after the document')
    const document = JSON.parse(lines.slice(0, -2).join('\n')) as { rows: { i: number }[] }
    expect(document.rows.length).toBe(ROWS)
    expect(document.rows.every((row, i) => row.i === i)).toBe(true)
  })

  it('ends with 141 when the reader has gone', async () => {
    const child = startWriter([])
    child.stdout?.destroy()
    const result = await child
    expect(result.exitCode).toBe(141)
  })
})
