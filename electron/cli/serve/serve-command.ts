/**
 * `navi serve`: the runtime (engine, PM unless --no-pm, settings, contract) and the HTTP server that gives
 * the popover to a browser. Runs until SIGINT or SIGTERM, then closes everything.
 */
import type { EnginePaths } from '../../runtime/index.ts'
import { createCliRuntime } from '../cli-runtime.ts'
import { createErrorEcho, printErr, printJson, printOut, untilStopSignal } from '../output.ts'
import { inertLine } from '../../../shared/text.ts'
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

export { parsePort } from './parse-port.ts'

export async function serveCommand(paths: EnginePaths, opts: ServeOptions): Promise<number> {
  // Listening before anything is printed: a Ctrl-C right after the URL (or during start-up) stops cleanly.
  const stopSignal = untilStopSignal()
  const runtime = await createCliRuntime({
    paths,
    mode: 'live',
    pm: opts.withPm,
    // Tasks started from the browser run here; what they relay is printed (a browser gets it pushed).
    tasks: true,
    onTaskNote: (_task, title, body) => {
      if (!opts.json) printOut(`navi serve: ${inertLine(title)}: ${inertLine(body)}`)
    },
    face: 'browser',
  })
  const echoErrors = createErrorEcho('navi serve')
  runtime.engine.subscribe((_events, state) => echoErrors(state.errors))
  let server: NaviServer
  try {
    echoErrors((await runtime.start()).errors)
    server = await createNaviServer({
      handlers: runtime.handlers,
      hub: runtime.hub,
      rendererDir: resolveRendererDir(),
      port: opts.port,
    })
  } catch (error) {
    await runtime.stop()
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
  await runtime.stop()
  return 0
}
