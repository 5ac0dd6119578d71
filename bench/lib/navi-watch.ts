/**
 * `navi watch --json --no-pm` as the benchmarks run it beside their measurements: started, waited on until
 * its engine says it is ready (bounded), and stopped the way a user stops it (SIGINT).
 */
import { type ChildProcess, spawn } from 'node:child_process'

/** Starts `navi watch` from the bundled CLI `cli`; resolves once it is ready, rejects if it exits first. */
export async function startNaviWatch(
  cli: string,
  env: NodeJS.ProcessEnv,
  readyTimeoutMs = 300_000,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [cli, 'watch', '--json', '--no-pm'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // Its events are not looked at; the pipe is read so it never fills.
  child.stdout?.resume()
  await new Promise<void>((resolve, reject) => {
    let stderr = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`navi watch not ready after ${readyTimeoutMs} ms: ${stderr}`))
    }, readyTimeoutMs)
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      if (stderr.includes('"ready":true')) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`navi watch exited ${code}: ${stderr}`))
    })
  })
  return child
}

export async function stopNaviWatch(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGINT')
  await exited
}
