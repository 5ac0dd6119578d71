/**
 * `navi watch` and `navi serve` wait on `untilStopSignal`: a second Ctrl-C (or a SIGTERM right after
 * SIGINT) while they shut down must not kill them halfway. A real child process: its shutdown takes a
 * while, and the second signal lands inside it.
 */
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { waitUntil } from '../support/wait.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const OUTPUT_MODULE = join(ROOT, 'electron/cli/output.ts')

describe('untilStopSignal', () => {
  it('survives a second SIGINT and a SIGTERM during a slow shutdown, and exits 0', async () => {
    const script = `
      const { untilStopSignal } = await import(${JSON.stringify(OUTPUT_MODULE)})
      // What keeps navi watch alive (its poll timer), here a plain interval.
      const alive = setInterval(() => {}, 1000)
      // The handlers first, then 'ready': stderr is a synchronous pipe, the test may signal at once.
      const stop = untilStopSignal()
      process.stderr.write('ready\\n')
      await stop
      // A shutdown that lasts until the test has sent its second signals and says so on stdin (at most
      // 20 s), however slowly a loaded machine runs the test.
      await new Promise((r) => {
        process.stdin.once('data', r)
        setTimeout(r, 20_000).unref()
      })
      process.stdin.destroy()
      clearInterval(alive)
      process.stderr.write('stopped cleanly\\n')
    `
    const child = execa(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: ROOT,
        reject: false,
        buffer: false,
      },
    )
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    await waitUntil(
      () => stderr.includes('ready'),
      30_000,
      () => `ready: ${stderr}`,
    )
    child.kill('SIGINT')
    await waitUntil(
      () => stderr.includes('stopping…'),
      10_000,
      () => `stopping: ${stderr}`,
    )
    child.kill('SIGINT')
    child.kill('SIGTERM')
    // Both were taken by the handler (a SIGTERM without one would have ended the child here).
    await waitUntil(
      () => stderr.split('still stopping').length - 1 >= 2,
      10_000,
      () => `two "still stopping": ${stderr}`,
    )
    child.stdin?.end('signals sent\n')
    const result = await child
    expect(result.signal).toBeUndefined()
    expect(result.exitCode).toBe(0)
    expect(stderr).toContain('still stopping')
    expect(stderr).toContain('stopped cleanly')
  })
})
