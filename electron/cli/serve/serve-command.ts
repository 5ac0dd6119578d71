/**
 * `navi serve`: the engine (watching), the PM (unless --no-pm), the settings and the HTTP server that
 * gives the popover to a browser. Runs until SIGINT or SIGTERM, then closes everything.
 */
import { loadConfig } from '../../engine/adapters/config-file.ts'
import type { EnginePaths } from '../../engine/core/paths.ts'
import { createEngine } from '../../engine/index.ts'
import { createPm } from '../../pm/index.ts'
import { createContractHandlers } from '../../services/contract-handlers.ts'
import { createPushHub } from '../../services/push-hub.ts'
import { createSettingsFileStore } from '../../services/settings-store.ts'
import { checkTools } from '../../services/tools.ts'
import { createErrorEcho, printErr, printJson, printOut, untilStopSignal } from '../output.ts'
import { openUrl } from './open-url.ts'
import { resolveRendererDir } from './renderer-dir.ts'
import { createNaviServer, type NaviServer } from './server.ts'

export interface ServeOptions {
  /** 0 picks a free port. */
  port: number
  open: boolean
  withPm: boolean
  /** Print `{url, port, token}` as one JSON line instead of the sentence. */
  json: boolean
}

/** `--port` as a port number, or null when it is not one (0 = any free port). */
export function parsePort(value: string | undefined): number | null {
  if (value === undefined) return 0
  if (!/^\d{1,5}$/.test(value)) return null
  const port = Number(value)
  return port <= 65_535 ? port : null
}

export async function serveCommand(paths: EnginePaths, opts: ServeOptions): Promise<number> {
  // Listening before anything is printed: a Ctrl-C right after the URL (or during start-up) stops cleanly.
  const stopSignal = untilStopSignal()
  const engine = createEngine({ paths })
  const echoErrors = createErrorEcho('navi serve')
  engine.subscribe((_events, state) => echoErrors(state.errors))
  echoErrors((await engine.start()).errors)
  const pm = opts.withPm
    ? createPm({
        paths,
        engine,
        settings: (await loadConfig(paths)).config.pm,
        reloadSettings: async () => (await loadConfig(paths)).config.pm,
      })
    : null
  const hub = createPushHub({ engine, pm })
  const shutdown = async () => {
    hub.stop()
    await pm?.stop()
    await engine.stop()
  }
  let server: NaviServer
  try {
    await pm?.start()
    const handlers = createContractHandlers({
      engine,
      pm,
      settings: await createSettingsFileStore(paths),
      paths,
      checkTools: async () =>
        checkTools({
          env: process.env,
          claudePath: (await loadConfig(paths)).config.pm.claudePath,
        }),
      getPmRunning: () => hub.running(),
    })
    server = await createNaviServer({
      handlers,
      hub,
      rendererDir: resolveRendererDir(),
      port: opts.port,
    })
  } catch (error) {
    await shutdown()
    throw error
  }
  const { url, port, token } = server
  if (opts.json) printJson({ url, port, token }, 0)
  else printOut(`Navi is serving on ${url}`)
  if (opts.open) {
    const error = await openUrl(url)
    if (error) printErr(`navi: could not open a browser (${error}); open ${url} yourself`)
  }

  await stopSignal
  await server.close()
  await shutdown()
  return 0
}
