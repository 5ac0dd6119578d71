/**
 * One Navi process of the corpus benchmark: a full engine cycle (`refresh()`) over the
 * paths from NAVI_HOME / CLAUDE_CONFIG_DIR / CODEX_HOME, then a clean `stop()` so whatever the engine
 * persists is flushed. Prints one JSON object on stdout. (What a running engine spends on an append is
 * lib/append-child.ts.) Bundled and run by bench/index-corpus.ts (as ES module chunks, and as the `navi`
 * command ships: scripts/cli-bundle.ts `bundleLikeNaviCli`) and bench/scale.ts. No top-level `await`:
 * the second build is CommonJS.
 */
import { readFileSync, writeSync } from 'node:fs'

/**
 * Bytes this process has read through read(2) and friends so far (page cache included). Read at once:
 * through the thread pool, the bench's own look added a few trips of idle time to what it measures.
 */
function bytesReadSoFar(): number {
  let io = ''
  try {
    io = readFileSync('/proc/self/io', 'utf8')
  } catch {
    // Not Linux: the bytes read are unknown (NaN in the report).
  }
  return Number(/^rchar:\s+(\d+)/m.exec(io)?.[1] ?? Number.NaN)
}

/** The engine's own clock: `performance.now()` would load perf_hooks into the process measured. */
const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6

async function main(): Promise<void> {
  const processStart = nowMs()
  // As the `navi` command runs any command that answers and exits (electron/cli/navi.ts): zod without
  // its compiled parsers, which cost more to build than a few hundred parses save.
  ;(await import('../../electron/cli/zod-jitless.ts')).parseWithoutJit()
  const { createEngine } = await import('../../electron/engine/index.ts')
  const { resolvePaths } = await import('../../electron/engine/core/paths.ts')
  const importMs = nowMs() - processStart

  const engine = createEngine({ paths: resolvePaths(), watch: false })
  const readBefore = bytesReadSoFar()
  const started = nowMs()
  const state = await engine.refresh({ force: false })
  const refreshMs = nowMs() - started
  const readDuring = bytesReadSoFar() - readBefore
  const sessions = engine.getSessions()
  const tokens = { input: 0, output: 0, cache_read: 0, cache_creation: 0, total: 0 }
  for (const session of sessions) {
    tokens.input += session.tokens.input
    tokens.output += session.tokens.output
    tokens.cache_read += session.tokens.cache_read
    tokens.cache_creation += session.tokens.cache_creation
    tokens.total += session.tokens.total
  }
  const diagnostics = engine.diagnostics()

  const stopStarted = nowMs()
  await engine.stop()
  const stopMs = nowMs() - stopStarted
  const memory = process.memoryUsage()

  // Straight to the descriptor, as the `navi` command prints (electron/cli/output.ts): Node's stdout
  // stream is not part of what this process measures.
  writeSync(
    1,
    `${JSON.stringify({
      importMs,
      refreshMs,
      stopMs,
      bytesReadByRefresh: readDuring,
      sessions: sessions.length,
      projects: state.projects.length,
      tokens,
      corruptLines: diagnostics.corruptLines,
      sourceErrors: diagnostics.sourceErrors,
      heapUsedMb: memory.heapUsed / 1024 / 1024,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    })}\n`,
  )
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
