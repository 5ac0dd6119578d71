/**
 * A scripted OpenAI Responses API on 127.0.0.1 for driving the real `codex` binary. Start it with
 * `const api = await startScriptedResponsesApi()`, point Codex at `api.baseUrl` (the custom provider
 * of `codex-driver.ts`), then `api.enqueue(execCommand('echo hi'), textAnswer('done'))`. Every
 * `POST …/responses` that offers tools consumes the next turn of the FIFO queue; tool-less side
 * requests get a fixed text; an empty queue answers "(script exhausted)" so the run ends instead of
 * hanging (see `api.exhaustedCount`). Anything else Codex asks (model lists, WebSocket upgrades) is
 * recorded and answered so the CLI falls back to plain HTTPS. Always `await api.close()`: it drops
 * keep-alive sockets and pending delayed answers.
 */
import { randomBytes } from 'node:crypto'
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import {
  defaultResponsesUsage,
  encodeResponsesErrorBody,
  encodeResponsesTurnAsSse,
  responsesHttpError,
  textAnswer,
  type ResponsesTurn,
  type ResponsesUsage,
} from './scripted-responses-turns.ts'
import { waitUntil } from './wait.ts'

export * from './scripted-responses-turns.ts'

/** How the server routed a request. */
export type ResponsesRoute = 'scripted' | 'exhausted' | 'side' | 'probe' | 'upgrade' | 'other'

export interface RecordedResponsesRequest {
  /** 1-based arrival order. */
  seq: number
  method: string
  /** Path without the query string, e.g. `/v1/responses`. */
  path: string
  url: string
  headers: IncomingHttpHeaders
  /** Parsed JSON body; `undefined` when there was no body or it was not JSON. */
  body: unknown
  route: ResponsesRoute
  /** 0-based index of the scripted turn this request consumed (route `scripted`). */
  turnIndex?: number
  receivedAt: number
}

/** A `function_call_output` item Codex sent back in a later request. */
export interface FunctionCallOutput {
  call_id: string
  output: unknown
}

export interface ScriptedResponsesApiOptions {
  /** Usage of every turn (per-turn `usage` overrides). @default defaultResponsesUsage */
  usage?: Partial<ResponsesUsage>
  /** Model reported in the responses. @default the request's `model` */
  model?: string
  /** Text answered to tool-less side requests. @default 'ok' */
  sideText?: string
}

export interface ScriptedResponsesApi {
  /** `http://127.0.0.1:<port>/v1`: the provider's `base_url`. */
  baseUrl: string
  port: number
  requests: RecordedResponsesRequest[]
  enqueue(...turns: ResponsesTurn[]): void
  /** Scripted turns answered so far (exhausted answers not included). */
  readonly consumed: number
  readonly pending: number
  /** Requests that arrived with an empty queue and got "(script exhausted)". */
  readonly exhaustedCount: number
  waitForConsumed(n: number, timeoutMs: number): Promise<void>
  /** Every `function_call_output` seen in any request body, first occurrence per `call_id`. */
  functionCallOutputs(): FunctionCallOutput[]
  close(): Promise<void>
}

export const RESPONSES_EXHAUSTED_TEXT = '(script exhausted)'

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function decodeBody(raw: Buffer, encoding: string | undefined): unknown {
  if (raw.length === 0) return undefined
  try {
    const decoders: Record<string, (b: Buffer) => Buffer> = {
      gzip: gunzipSync,
      br: brotliDecompressSync,
      deflate: inflateSync,
    }
    const decode = encoding === undefined ? undefined : decoders[encoding]
    return JSON.parse((decode ? decode(raw) : raw).toString('utf8')) as unknown
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

function routeOf(method: string, path: string, body: unknown): ResponsesRoute {
  if (method === 'POST' && path.endsWith('/responses')) {
    const tools = isRecord(body) ? body.tools : undefined
    return Array.isArray(tools) && tools.length > 0 ? 'scripted' : 'side'
  }
  if (method === 'GET' || method === 'HEAD') return 'probe'
  return 'other'
}

export function collectFunctionCallOutputs(
  requests: RecordedResponsesRequest[],
): FunctionCallOutput[] {
  const seen = new Map<string, FunctionCallOutput>()
  for (const r of requests) {
    const input = isRecord(r.body) && Array.isArray(r.body.input) ? r.body.input : []
    for (const item of input) {
      if (!isRecord(item) || item.type !== 'function_call_output') continue
      const callId = typeof item.call_id === 'string' ? item.call_id : ''
      if (!seen.has(callId)) seen.set(callId, { call_id: callId, output: item.output })
    }
  }
  return [...seen.values()]
}

/** Starts the fake Responses API on 127.0.0.1 with an ephemeral port. */
export async function startScriptedResponsesApi(
  opts: ScriptedResponsesApiOptions = {},
): Promise<ScriptedResponsesApi> {
  const queue: ResponsesTurn[] = []
  const requests: RecordedResponsesRequest[] = []
  const timers = new Set<NodeJS.Timeout>()
  const runId = randomBytes(4).toString('hex')
  const baseUsage: ResponsesUsage = { ...defaultResponsesUsage, ...opts.usage }
  let consumed = 0
  let exhaustedCount = 0
  let dequeued = 0
  let responseSeq = 0
  let idSeq = 0
  let closed = false

  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t)
        resolve()
      }, ms)
      timers.add(t)
    })

  const record = (
    req: IncomingMessage,
    body: unknown,
    route?: ResponsesRoute,
  ): RecordedResponsesRequest => {
    const url = req.url ?? '/'
    const path = url.split('?')[0] ?? '/'
    const method = req.method ?? 'GET'
    const entry: RecordedResponsesRequest = {
      seq: requests.length + 1,
      method,
      path,
      url,
      headers: req.headers,
      body,
      route: route ?? routeOf(method, path, body),
      receivedAt: Date.now(),
    }
    requests.push(entry)
    return entry
  }

  function sendTurn(res: ServerResponse, turn: ResponsesTurn, body: unknown): void {
    if (closed || res.destroyed) return
    const requestId = `req_${runId}_${String(++responseSeq)}`
    if (turn.kind === 'http_error') {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'x-request-id': requestId,
      }
      if (turn.retryAfterSec !== undefined) headers['retry-after'] = String(turn.retryAfterSec)
      res.writeHead(turn.status, headers).end(encodeResponsesErrorBody(turn))
      return
    }
    const requestModel = isRecord(body) && typeof body.model === 'string' ? body.model : undefined
    const sse = encodeResponsesTurnAsSse(turn, {
      responseId: `resp_${runId}_${String(responseSeq)}`,
      model: opts.model ?? requestModel ?? 'gpt-fake-1',
      usage: { ...baseUsage, ...turn.usage },
      nextId: () => `${runId}_${String(++idSeq)}`,
    })
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-request-id': requestId,
    })
    res.end(sse)
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    const entry = record(req, decodeBody(raw, req.headers['content-encoding']))
    if (entry.route === 'probe') {
      // A model list that names no model: Codex keeps its fallback metadata.
      const json = entry.path.endsWith('/models') ? { object: 'list', data: [], models: [] } : {}
      res.writeHead(entry.path.endsWith('/models') ? 200 : 404, {
        'content-type': 'application/json',
      })
      return void res.end(JSON.stringify(json))
    }
    if (entry.route === 'other') {
      res.writeHead(404, { 'content-type': 'application/json' })
      return void res.end(
        encodeResponsesErrorBody(
          responsesHttpError(404, { message: `no route ${entry.method} ${entry.path}` }),
        ),
      )
    }
    if (entry.route === 'side') return sendTurn(res, textAnswer(opts.sideText ?? 'ok'), entry.body)
    const turn = queue.shift()
    if (turn === undefined) {
      entry.route = 'exhausted'
      exhaustedCount += 1
      return sendTurn(res, textAnswer(RESPONSES_EXHAUSTED_TEXT), entry.body)
    }
    entry.turnIndex = dequeued++
    if (turn.delayMs) await delay(turn.delayMs)
    // Counted once answered, so waitForConsumed(n) means "the CLI has turn n in hand".
    sendTurn(res, turn, entry.body)
    consumed += 1
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end(String(err))
    })
  })
  // WebSocket transport attempts: refuse them so Codex uses HTTPS POST.
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    record(req, undefined, 'upgrade')
    socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo

  return {
    baseUrl: `http://127.0.0.1:${String(port)}/v1`,
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
    functionCallOutputs: () => collectFunctionCallOutputs(requests),
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
