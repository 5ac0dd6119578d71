/**
 * A scripted Anthropic Messages API on 127.0.0.1 for driving the real `claude` binary. Start it with
 * `const api = await startScriptedApi()`, point the CLI at `api.url` (`ANTHROPIC_BASE_URL`, see
 * `claude-driver.ts`), then `api.enqueue(toolUse('Write', {...}), text('done'))`. Every request
 * whose `tools` array is non-empty consumes the next turn of the FIFO queue; tool-less side requests
 * (session title) get a fixed reply; an empty queue answers "(script exhausted)" so the run ends
 * instead of hanging (see `api.exhaustedCount`). Every request is recorded in `api.requests` with its
 * parsed JSON body. Wait with `api.waitForConsumed(n, ms)` and always `await api.close()` (it also
 * drops keep-alive sockets and pending delayed answers).
 */
import { randomBytes } from 'node:crypto'
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import {
  defaultUsage,
  encodeErrorBody,
  encodeTurnAsSse,
  text,
  type ScriptedTurn,
  type TurnUsage,
} from './scripted-turns.ts'
import { waitUntil } from './wait.ts'

export * from './scripted-turns.ts'

/** How the server routed a request. */
export type RequestRoute = 'scripted' | 'exhausted' | 'side' | 'probe' | 'other'

export interface RecordedRequest {
  /** 1-based arrival order. */
  seq: number
  method: string
  /** Path without the query string, e.g. `/v1/messages`. */
  path: string
  /** Path with the query string, e.g. `/v1/messages?beta=true`. */
  url: string
  headers: IncomingHttpHeaders
  /** Parsed JSON body; `undefined` when there was no body or it was not JSON. */
  body: unknown
  route: RequestRoute
  /** 0-based index of the scripted turn this request consumed (route `scripted`). */
  turnIndex?: number
  receivedAt: number
}

/** A `tool_result` block the CLI sent back in a later request. */
export interface ToolResultBlock {
  tool_use_id: string
  content: unknown
  is_error?: boolean
}

export interface ScriptedApiOptions {
  /** Usage numbers of every turn (per-turn `usage` overrides). @default defaultUsage */
  usage?: Partial<TurnUsage>
  /** Model reported in `message_start`. @default the request's `model` */
  model?: string
  /** Title answered to title-generation side requests. @default 'Scripted session title' */
  title?: string
  /** Text answered to other tool-less side requests. @default 'ok' */
  sideText?: string
}

export interface ScriptedApi {
  url: string
  port: number
  requests: RecordedRequest[]
  enqueue(...turns: ScriptedTurn[]): void
  /** Scripted turns answered so far (exhausted answers not included). */
  readonly consumed: number
  /** Scripted turns still queued. */
  readonly pending: number
  /** How many requests arrived with an empty queue and got "(script exhausted)". */
  readonly exhaustedCount: number
  /** Resolves once `n` scripted turns were answered; rejects after `timeoutMs`. */
  waitForConsumed(n: number, timeoutMs: number): Promise<void>
  /** Resolves with the first recorded request matching `predicate`; rejects after `timeoutMs`. */
  waitForRequest(
    predicate: (r: RecordedRequest) => boolean,
    timeoutMs: number,
  ): Promise<RecordedRequest>
  /** Every `tool_result` block seen in any request body, first occurrence per `tool_use_id`. */
  toolResults(): ToolResultBlock[]
  close(): Promise<void>
}

export const EXHAUSTED_TEXT = '(script exhausted)'

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function decodeBody(raw: Buffer, encoding: string | undefined): unknown {
  if (raw.length === 0) return undefined
  try {
    const plain =
      encoding === 'gzip'
        ? gunzipSync(raw)
        : encoding === 'br'
          ? brotliDecompressSync(raw)
          : encoding === 'deflate'
            ? inflateSync(raw)
            : raw
    return JSON.parse(plain.toString('utf8')) as unknown
  } catch {
    return undefined
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

function routeOf(method: string, path: string, body: unknown): RequestRoute {
  if ((method === 'HEAD' || method === 'GET') && (path === '/' || path === '/api/hello'))
    return 'probe'
  if (method !== 'POST' || path !== '/v1/messages') return 'other'
  const tools = isRecord(body) ? body.tools : undefined
  return Array.isArray(tools) && tools.length > 0 ? 'scripted' : 'side'
}

function wantsJsonFormat(body: unknown): boolean {
  return isRecord(body) && isRecord(body.output_config) && body.output_config.format !== undefined
}

export function collectToolResults(requests: RecordedRequest[]): ToolResultBlock[] {
  const seen = new Map<string, ToolResultBlock>()
  for (const r of requests) {
    const messages = isRecord(r.body) && Array.isArray(r.body.messages) ? r.body.messages : []
    for (const m of messages) {
      const content = isRecord(m) && Array.isArray(m.content) ? m.content : []
      for (const block of content) {
        if (!isRecord(block) || block.type !== 'tool_result') continue
        const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : ''
        if (seen.has(id)) continue
        const isError = typeof block.is_error === 'boolean' ? block.is_error : undefined
        seen.set(id, { tool_use_id: id, content: block.content, is_error: isError })
      }
    }
  }
  return [...seen.values()]
}

/** Starts the fake API on 127.0.0.1 with an ephemeral port. */
export async function startScriptedApi(opts: ScriptedApiOptions = {}): Promise<ScriptedApi> {
  const queue: ScriptedTurn[] = []
  const requests: RecordedRequest[] = []
  const timers = new Set<NodeJS.Timeout>()
  const runId = randomBytes(4).toString('hex')
  const baseUsage: TurnUsage = { ...defaultUsage, ...opts.usage }
  let consumed = 0
  let exhaustedCount = 0
  let dequeued = 0
  let messageSeq = 0
  let requestSeq = 0
  let toolSeq = 0
  let closed = false

  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t)
        resolve()
      }, ms)
      timers.add(t)
    })

  function sendTurn(res: ServerResponse, turn: ScriptedTurn, body: unknown): void {
    if (closed || res.destroyed) return
    const requestId = `req_${runId}_${String(++requestSeq)}`
    if (turn.kind === 'http_error') {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'request-id': requestId,
      }
      if (turn.retryAfterSec !== undefined) headers['retry-after'] = String(turn.retryAfterSec)
      res.writeHead(turn.status, headers).end(encodeErrorBody(turn))
      return
    }
    messageSeq += 1
    const requestModel = isRecord(body) && typeof body.model === 'string' ? body.model : undefined
    const sse = encodeTurnAsSse(turn, {
      messageId: `msg_${runId}_${String(messageSeq)}`,
      model: opts.model ?? requestModel ?? 'claude-opus-4-8',
      usage: { ...baseUsage, ...turn.usage },
      nextToolId: () => `toolu_${runId}_${String(++toolSeq).padStart(3, '0')}`,
    })
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'request-id': requestId,
    })
    res.end(sse)
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    const url = req.url ?? '/'
    const path = url.split('?')[0] ?? '/'
    const method = req.method ?? 'GET'
    const body = decodeBody(raw, req.headers['content-encoding'])
    const record: RecordedRequest = {
      seq: requests.length + 1,
      method,
      path,
      url,
      headers: req.headers,
      body,
      route: routeOf(method, path, body),
      receivedAt: Date.now(),
    }
    requests.push(record)

    if (record.route === 'probe') return void res.writeHead(200).end()
    if (record.route === 'other') {
      res.writeHead(404, { 'content-type': 'application/json' })
      return void res.end(
        encodeErrorBody({
          kind: 'http_error',
          status: 404,
          errorType: 'not_found_error',
          message: `no route ${method} ${path}`,
        }),
      )
    }
    if (record.route === 'side') {
      const reply = wantsJsonFormat(body)
        ? JSON.stringify({ title: opts.title ?? 'Scripted session title' })
        : (opts.sideText ?? 'ok')
      return sendTurn(res, text(reply), body)
    }
    const turn = queue.shift()
    if (turn === undefined) {
      record.route = 'exhausted'
      exhaustedCount += 1
      return sendTurn(res, text(EXHAUSTED_TEXT), body)
    }
    record.turnIndex = dequeued++
    if (turn.delayMs) await delay(turn.delayMs)
    // Counted once answered, so waitForConsumed(n) means "the CLI has turn n in hand".
    sendTurn(res, turn, body)
    consumed += 1
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end(String(err))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${String(port)}`,
    port,
    requests,
    enqueue: (...turns) => void queue.push(...turns),
    get consumed() {
      return consumed
    },
    get pending() {
      return queue.length
    },
    get exhaustedCount() {
      return exhaustedCount
    },
    waitForConsumed: async (n, timeoutMs) => {
      await waitUntil(
        () => consumed >= n,
        timeoutMs,
        () =>
          `${String(n)} scripted turns (consumed ${String(consumed)}, ${String(requests.length)} requests)`,
        25,
      )
    },
    waitForRequest: (predicate, timeoutMs) =>
      waitUntil(() => requests.find(predicate), timeoutMs, 'a matching request', 25),
    toolResults: () => collectToolResults(requests),
    close: async () => {
      closed = true
      for (const t of timers) clearTimeout(t)
      timers.clear()
      const done = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await done
    },
  }
}
