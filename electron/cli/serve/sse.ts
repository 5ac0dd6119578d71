/**
 * `GET /api/stream`: Server-Sent Events. Each client gets `retry: 2000`, the current state and briefing,
 * then every push; a comment line every `keepAliveMs` keeps proxies and the browser from giving up.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { PushChannel } from '../../../shared/ipc-contract.ts'
import type { PushListener } from '../../runtime/push-hub.ts'
import { BASE_HEADERS } from './http-responses.ts'
import { errorText } from '../../../shared/log.ts'
import { printErr } from '../output.ts'

/** One event in the wire format. JSON escapes newlines, so `data` is always a single line. */
export function encodeSseEvent(channel: PushChannel, payload: unknown): string {
  return `event: ${channel}\ndata: ${JSON.stringify(payload ?? null)}\n\n`
}

export interface SseStreams {
  /** Starts a stream on `res`; `initial` gives the first events (sent before any push). */
  open(
    req: IncomingMessage,
    res: ServerResponse,
    initial: () => Promise<[PushChannel, unknown][]>,
  ): void
  /** Ends every stream. */
  closeAll(): void
  count(): number
}

export function createSseStreams(opts: {
  subscribe(listener: PushListener): () => void
  keepAliveMs: number
}): SseStreams {
  const streams = new Set<() => void>()

  return {
    open(req, res, initial) {
      res.writeHead(200, {
        ...BASE_HEADERS,
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      })
      res.write('retry: 2000\n\n')
      const write = (text: string) => {
        if (!res.writableEnded && !res.destroyed) res.write(text)
      }
      // Pushes that arrive while the first events are being read wait for them, to keep the order.
      let queued: [PushChannel, unknown][] | null = []
      const unsubscribe = opts.subscribe((channel, payload) => {
        if (queued) queued.push([channel, payload])
        else write(encodeSseEvent(channel, payload))
      })
      const keepAlive = setInterval(() => write(': keep-alive\n\n'), opts.keepAliveMs)
      keepAlive.unref()
      const end = () => {
        if (!streams.delete(end)) return
        clearInterval(keepAlive)
        unsubscribe()
        if (!res.writableEnded) res.end()
      }
      streams.add(end)
      req.on('close', end)
      res.on('close', end)
      initial()
        .catch((error: unknown): [PushChannel, unknown][] => {
          // The stream still carries every push from here on; the missing first events are a bug to see.
          printErr(`navi serve: the first events of a stream failed: ${errorText(error)}`)
          return []
        })
        .then((first) => {
          const waiting = queued ?? []
          queued = null
          for (const [channel, payload] of [...first, ...waiting]) {
            write(encodeSseEvent(channel, payload))
          }
        })
    },
    closeAll() {
      for (const end of [...streams]) end()
    },
    count: () => streams.size,
  }
}
