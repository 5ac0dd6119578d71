/**
 * One process of the incremental benchmark: a running engine (watchers on, as under the tray or `navi
 * watch`) over the paths from NAVI_HOME / CLAUDE_CONFIG_DIR / CODEX_HOME absorbs a 1 KiB append to
 * `<file>` N times; for each, the engine's own time for the cycle that took it in (`durationMs`, wall), the
 * time the engine's thread was on a CPU from the append until the session showed it (`cpuMs`: the watcher's
 * callbacks, the cycle and its listeners; not the time it waited for a core another process held), the bytes
 * the process read meanwhile (/proc/self/io) and the file-system calls it made (stat, lstat, exists,
 * readdir, open: counted by wrapping node:fs before the engine is loaded). Prints one JSON object.
 * `node out/.../append-child.mjs <file> <sessionId> <cwd> [appends]` (bundled by the benchmarks).
 */
import fs from 'node:fs'
import { readFileSync } from 'node:fs'
import { appendFile } from 'node:fs/promises'
import { syncBuiltinESMExports } from 'node:module'
import { appendedPromptLine } from './appended-line.ts'

const calls = { stat: 0, readdir: 0, open: 0 }
type Counted = keyof typeof calls
const wrap = <T extends object>(target: T, names: string[], kind: Counted) => {
  for (const name of names) {
    const original = (target as Record<string, unknown>)[name]
    if (typeof original !== 'function') continue
    ;(target as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
      calls[kind]++
      return (original as (...a: unknown[]) => unknown).apply(this, args)
    }
  }
}
wrap(fs, ['statSync', 'lstatSync', 'existsSync', 'stat', 'lstat'], 'stat')
wrap(fs, ['readdirSync', 'readdir'], 'readdir')
wrap(fs, ['openSync', 'open'], 'open')
wrap(fs.promises, ['stat', 'lstat'], 'stat')
wrap(fs.promises, ['readdir'], 'readdir')
wrap(fs.promises, ['open'], 'open')
syncBuiltinESMExports()

const { createEngine } = await import('../../electron/engine/index.ts')
const { resolvePaths } = await import('../../electron/engine/core/paths.ts')

/**
 * CPU time of this process's main thread, in ms: Linux's per-thread schedstat (V8's helper threads and
 * the time spent waiting for a core are not in it); elsewhere the whole process's CPU time.
 */
const mainThreadCpuMs = (): number => {
  try {
    const ns = Number(
      readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0],
    )
    if (Number.isFinite(ns)) return ns / 1e6
  } catch {
    // Not Linux: the process's time below.
  }
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

const bytesRead = (): number =>
  Number(/^rchar:\s+(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? Number.NaN)

const [file, sessionId, cwd, count = '5'] = process.argv.slice(2)
if (!file || !sessionId || !cwd) throw new Error('append-child <file> <sessionId> <cwd> [appends]')

const ABSORB_TIMEOUT_MS = 20_000
const engine = createEngine({ paths: resolvePaths(), watch: true })
await engine.start()
// The watchers settle; a poll never comes during the test (30 s).
await new Promise((resolve) => setTimeout(resolve, 500))
const cycles: {
  ms: number
  cpuMs: number
  bytesRead: number
  stat: number
  readdir: number
  open: number
}[] = []
for (let i = 0; i < Number(count); i++) {
  const at = new Date()
  // Bounded: a cycle that never shows the line fails the run rather than hanging the benchmark.
  const absorbed = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      off()
      reject(new Error(`append ${i + 1} not absorbed within ${ABSORB_TIMEOUT_MS} ms`))
    }, ABSORB_TIMEOUT_MS)
    const off = engine.subscribe(() => {
      const session = engine.getSessions().find((s) => s.id === sessionId)
      if (session?.last_activity && session.last_activity >= at.toISOString()) {
        clearTimeout(timer)
        off()
        resolve()
      }
    })
  })
  const before = { ...calls, bytes: bytesRead(), cpu: mainThreadCpuMs() }
  await appendFile(file, appendedPromptLine(sessionId, cwd, at))
  await absorbed
  const cpuMs = mainThreadCpuMs() - before.cpu
  cycles.push({
    ms: engine.diagnostics().durationMs,
    cpuMs,
    bytesRead: bytesRead() - before.bytes,
    stat: calls.stat - before.stat,
    readdir: calls.readdir - before.readdir,
    open: calls.open - before.open,
  })
  await new Promise((resolve) => setTimeout(resolve, 600))
}
await engine.stop()
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
console.log(
  JSON.stringify({
    cycles,
    medianMs: median(cycles.map((c) => c.ms)),
    medianCpuMs: median(cycles.map((c) => c.cpuMs)),
    medianBytesRead: median(cycles.map((c) => c.bytesRead)),
    medianStats: median(cycles.map((c) => c.stat)),
  }),
)
