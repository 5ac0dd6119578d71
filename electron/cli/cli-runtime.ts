/**
 * The runtime as a CLI command makes it: the same `createNaviRuntime`, loaded at the first use, and the
 * built CLI's code cache told that this run went as far as the engine (code-cache-state.ts).
 */
import type { NaviRuntime, NaviRuntimeOptions } from '../runtime/index.ts'
import { CODE_CACHE_SCOPE, widenCodeCacheScope } from './code-cache-state.ts'
import { printErr } from './output.ts'

export async function createCliRuntime(opts: NaviRuntimeOptions): Promise<NaviRuntime> {
  widenCodeCacheScope(CODE_CACHE_SCOPE.engine)
  const { createNaviRuntime } = await import('../runtime/index.ts')
  // The engine's failures on stderr as the rest of the CLI's text: inert, and through its one channel.
  return createNaviRuntime({ onError: (message) => printErr(`navi engine: ${message}`), ...opts })
}
