/**
 * A raw HTTP client for `navi serve` tests: `httpRequest(port, { path, headers })` sends exactly the
 * path and headers given (no `..` normalization, any Host), and `openEventStream` reads SSE events as
 * they arrive, with bounded waits.
 */
import { request, type IncomingHttpHeaders } from 'node:http'
import { waitUntil } from './wait.ts'

export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

export interface RawRequest {
  path: string
  method?: string
  headers?: Record<string, string>
  body?: string
  /** @default '127.0.0.1' */
  host?: string
}

export function httpRequest(port: number, req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: req.host ?? '127.0.0.1',
        port,
        path: req.path,
        method: req.method ?? 'GET',
        headers: { Host: `127.0.0.1:${port}`, ...req.headers },
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', reject)
      },
    )
    outgoing.on('timeout', () => outgoing.destroy(new Error(`timeout: ${req.path}`)))
    outgoing.on('error', reject)
    outgoing.end(req.body)
  })
}

/** `POST /api/call/<channel>` with the Bearer token; the parsed envelope. */
export async function callApi(
  port: number,
  token: string,
  channel: string,
  input?: unknown,
): Promise<{ status: number; json: unknown }> {
  const res = await httpRequest(port, {
    path: `/api/call/${channel}`,
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    ...(input === undefined ? {} : { body: JSON.stringify(input) }),
  })
  return { status: res.status, json: JSON.parse(res.body) as unknown }
}

export interface SseEvent {
  event: string
  data: unknown
}

export interface EventStream {
  status: number
  headers: IncomingHttpHeaders
  events: SseEvent[]
  /** Everything received, comments and `retry:` included. */
  raw(): string
  ended(): boolean
  waitFor(match: (e: SseEvent) => boolean, timeoutMs: number, what: string): Promise<SseEvent>
  close(): void
}

/** Opens `GET /api/stream`; resolves once the response headers arrived (any status). */
export function openEventStream(
  port: number,
  headers: Record<string, string>,
): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/stream',
        headers: { Host: `127.0.0.1:${port}`, ...headers },
      },
      (res) => {
        const events: SseEvent[] = []
        let raw = ''
        let rest = ''
        let ended = false
        res.on('data', (chunk: Buffer) => {
          raw += chunk.toString('utf8')
          rest += chunk.toString('utf8')
          const blocks = rest.split('\n\n')
          rest = blocks.pop() ?? ''
          for (const block of blocks) {
            const lines = block.split('\n')
            const event = lines.find((l) => l.startsWith('event: '))?.slice(7)
            const data = lines.find((l) => l.startsWith('data: '))?.slice(6)
            if (event !== undefined && data !== undefined) {
              events.push({ event, data: JSON.parse(data) as unknown })
            }
          }
        })
        res.on('end', () => (ended = true))
        res.on('close', () => (ended = true))
        res.on('error', () => (ended = true))
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          events,
          raw: () => raw,
          ended: () => ended,
          waitFor: (match, timeoutMs, what) =>
            waitUntil(
              () => events.find(match),
              timeoutMs,
              () => `${what}; got ${JSON.stringify(events.map((e) => e.event))}`,
            ),
          close: () => outgoing.destroy(),
        })
      },
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}
