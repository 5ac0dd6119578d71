/**
 * A live runtime's side of the query socket: `navi status`, `sessions` and `events` ask it instead of
 * reading everything again. One Navi per home answers; another one started beside it takes over when that
 * one stops (the tray quit while a `navi watch` runs) or gives way (a background runtime, which steps
 * aside when asked), so that commands keep asking a Navi while any runs.
 */
import type { ContractHandlers } from '../../shared/ipc-contract.ts'
import { errorText } from '../../shared/log.ts'
import { formatEvents, writesEventsText } from '../../shared/events-text.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { EnginePaths } from '../engine/core/paths.ts'
import type { Engine } from '../engine/index.ts'
import { querySocketPath, refreshesBefore } from './query-protocol.ts'
import type { QuerySocket } from './query-socket.ts'

export interface QueryServingOptions {
  paths: EnginePaths
  engine: Engine
  handlers: ContractHandlers
  log: { info(message: string): void; warn(message: string): void }
  /** How often a Navi that does not answer tries again to (the runtime's check interval). */
  retryMs: number
  /** Set for the background runtime (cli/background.ts): it answers, and gives the socket up when asked. */
  background?: {
    onQuery: () => void
    onStepAside: () => void
  }
}

export interface QueryServing {
  /** Serves the socket if no other Navi does; a Navi the user started keeps trying until it does. */
  start(): Promise<void>
  serves(): boolean
  close(): Promise<void>
}

export function createQueryServing(opts: QueryServingOptions): QueryServing {
  const { paths, engine, handlers, log, background } = opts
  const path = querySocketPath(paths)
  let socket: QuerySocket | null = null
  let retryTimer: ReturnType<typeof setInterval> | null = null
  let closed = false
  /** The last reason the socket was not served: said once, not at every try. */
  let problem: string | null = null

  const open = async (at: string): Promise<QuerySocket | null> => {
    // Loaded by a live runtime alone: checking every call against the whole contract builds every
    // schema of it, which a read-only command (a `once` runtime) never needs.
    const [{ openQuerySocket }, { dispatchCall }] = await Promise.all([
      import('./query-socket.ts'),
      import('./dispatch.ts'),
    ])
    return openQuerySocket({
      path: at,
      ...(background && {
        stepAside: () => {
          const closing = socket
          socket = null
          void closing?.close().finally(background.onStepAside)
        },
      }),
      answer: async (channel, input) => {
        background?.onQuery()
        // A cycle that starts now: whatever changed before the question is in the answer, even a
        // change a watcher has not told yet (repository watchers wait 75 ms for a burst to end: such a
        // repository is looked at). It reads what the watchers named, not every folder: at 2,000
        // sessions in 200 repositories that is a watcher's cycle, not 40 ms of stats.
        if (refreshesBefore(channel, input)) await engine.refresh({ force: false, watched: true })
        return dispatchCall(handlers, channel, input)
      },
      asText: eventsAsText,
      onError: (message) => {
        if (message !== problem) log.info(message)
        problem = message
      },
    })
  }

  /** Tries again while another Navi answers: once it stops, this one does. */
  const keepTrying = (at: string): void => {
    let trying = false
    retryTimer = setInterval(() => {
      if (socket || trying || closed) return
      trying = true
      open(at)
        .then(async (opened) => {
          if (closed) await opened?.close()
          else socket = opened
        })
        .catch((error: unknown) => log.warn(`query socket: ${errorText(error)}`))
        .finally(() => (trying = false))
    }, opts.retryMs)
    retryTimer.unref()
  }

  return {
    async start() {
      if (path === null) {
        log.info(`${paths.naviHome}: too deep a path for a socket; commands compute their answers`)
        return
      }
      socket = await open(path)
      // The background runtime does not wait for the socket: it exits when another Navi answers.
      if (!background) keepTrying(path)
    },
    serves: () => socket !== null,
    async close() {
      closed = true
      if (retryTimer) clearInterval(retryTimer)
      await socket?.close()
      socket = null
    },
  }
}

/**
 * `navi events`' lines for a page of `events:list`, when the command asked for the lines this Navi
 * writes and the page is the whole answer (a second page would have to be laid out with the first).
 */
function eventsAsText(channel: string, data: unknown, wanted: unknown): string | null {
  if (channel !== 'events:list' || !writesEventsText(wanted, process.env.TZ ?? null)) return null
  const page = data as { events: readonly EngineEvent[]; has_more: boolean }
  return page.has_more ? null : formatEvents(page.events)
}
