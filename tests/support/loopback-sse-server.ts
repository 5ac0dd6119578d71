/**
 * The HTTP core of the scripted model APIs (`scripted-api.ts` for Anthropic Messages,
 * `scripted-responses-api.ts` for OpenAI Responses). It listens on 127.0.0.1 with an ephemeral port,
 * records every request with its decoded JSON body, and plays a FIFO queue of scripted turns: a
 * request the protocol routes as `scripted` consumes the next turn (after its `delayMs`), or gets the
 * protocol's "script exhausted" turn when the queue is empty. Successful turns are written as one SSE
 * body, `http_error` turns as a JSON error with an optional `retry-after`. Everything that depends on
 * the wire protocol (routing, the SSE and error bodies, answers to side requests and probes) comes
 * from a `LoopbackSseProtocol` plug-in. `close()` drops keep-alive sockets and pending delayed answers.
 */
import { randomBytes } from 'node:crypto'
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { readJsonBody } from './request-body.ts'
import { waitUntil } from './wait.ts'

/** Text of the turn played when a scripted request finds the queue empty. */
export const SCRIPT_EXHAUSTED_TEXT = '(script exhausted)'

/** Options every scripted API takes; `Usage` is the protocol's token counts. */
export interface ScriptedApiBaseOptions<Usage> {
  /** Usage numbers of every turn (per-turn `usage` overrides). @default the protocol's defaults */
  usage?: Partial<Usage>
  /** Model reported in the answers. @default the request's `model` */
  model?: string
  /** Text answered to tool-less side requests. @default 'ok' */
  sideText?: string
}

/** Routes the core itself assigns: a queued turn was played, or the queue was empty. */
export type QueueRoute = 'scripted' | 'exhausted'

/** One request as the server received it; `Extra` are the protocol's own (non-queue) routes. */
export interface RecordedHttpRequest<Extra extends string> {
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
  route: QueueRoute | Extra
  /** 0-based index of the scripted turn this request consumed (route `scripted`). */
  turnIndex?: number
  receivedAt: number
}

/** The shape every protocol's error turn shares. */
export interface HttpErrorAnswer {
  kind: 'http_error'
  status: number
  /** Value of the `retry-after` header in seconds; no header when undefined. */
  retryAfterSec?: number
  delayMs?: number
}

/** Any scripted turn: a successful one (encoded as SSE) or an `HttpErrorAnswer`. */
export type ScriptedAnswer =
  HttpErrorAnswer | { kind: string; delayMs?: number; holdUntil?: () => boolean | Promise<boolean> }

/** What the core hands the protocol when it encodes a successful turn. */
export interface SseAnswerContext {
  /** Random per-server id, so ids of two servers never collide. */
  runId: string
  /** 1-based count of answered turns (errors included); also used in the request id. */
  answerSeq: number
  /** Parsed JSON body of the request being answered. */
  body: unknown
}

/** How a protocol plug-in answers a request that does not consume the queue. */
export interface LoopbackReply<Turn> {
  /** Plays `turn` like a scripted one (SSE or error), without touching the queue. */
  turn(turn: Turn): void
  /** Writes `json` with `status` and a JSON content type. */
  json(status: number, json: string): void
  /** Writes an empty answer with `status`. */
  empty(status: number): void
}

/** The protocol-specific part of a scripted API: routing and encoding. */
export interface LoopbackSseProtocol<Turn extends ScriptedAnswer, Extra extends string> {
  /** `scripted` for requests that consume the queue, one of the protocol's own routes otherwise. */
  routeOf(method: string, path: string, body: unknown): 'scripted' | Extra
  /** Answers every request not routed `scripted`. */
  answerUnscripted(entry: RecordedHttpRequest<Extra>, reply: LoopbackReply<Turn>): void
  /** Played when a `scripted` request finds the queue empty. */
  exhaustedTurn: Turn
  /** Header carrying the per-answer request id, e.g. `request-id`. */
  requestIdHeader: string
  /** The SSE body of a successful turn. */
  encodeSse(turn: Exclude<Turn, HttpErrorAnswer>, ctx: SseAnswerContext): string
  /** The JSON body of an error turn. */
  encodeError(turn: Extract<Turn, HttpErrorAnswer>): string
  /** When set, WebSocket upgrade attempts are recorded with this route and refused with a 404. */
  upgradeRoute?: Extra
}

/** A running scripted API; protocol modules add their own fields on top. */
export interface LoopbackSseServer<Turn, Extra extends string> {
  /** `http://127.0.0.1:<port>`. */
  origin: string
  port: number
  requests: RecordedHttpRequest<Extra>[]
  enqueue(...turns: Turn[]): void
  /** Scripted turns answered so far (exhausted answers not included). */
  readonly consumed: number
  /** Scripted turns still queued. */
  readonly pending: number
  /** How many requests arrived with an empty queue and got the "exhausted" turn. */
  readonly exhaustedCount: number
  /** Resolves once `n` scripted turns were answered; rejects after `timeoutMs`. */
  waitForConsumed(n: number, timeoutMs: number): Promise<void>
  /** Resolves with the first recorded request matching `predicate`; rejects after `timeoutMs`. */
  waitForRequest(
    predicate: (r: RecordedHttpRequest<Extra>) => boolean,
    timeoutMs: number,
  ): Promise<RecordedHttpRequest<Extra>>
  close(): Promise<void>
}

const isHttpError = <Turn extends ScriptedAnswer>(
  turn: Turn,
): turn is Extract<Turn, HttpErrorAnswer> => turn.kind === 'http_error'

const isSuccess = <Turn extends ScriptedAnswer>(
  turn: Turn,
): turn is Exclude<Turn, HttpErrorAnswer> => turn.kind !== 'http_error'

/** Starts a scripted API speaking `protocol` on 127.0.0.1 with an ephemeral port. */
export async function startLoopbackSseServer<Turn extends ScriptedAnswer, Extra extends string>(
  protocol: LoopbackSseProtocol<Turn, Extra>,
): Promise<LoopbackSseServer<Turn, Extra>> {
  type Entry = RecordedHttpRequest<Extra>
  const queue: Turn[] = []
  const requests: Entry[] = []
  const timers = new Set<NodeJS.Timeout>()
  const runId = randomBytes(4).toString('hex')
  let consumed = 0
  let exhaustedCount = 0
  let dequeued = 0
  let answerSeq = 0
  let closed = false

  const delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t)
        resolve()
      }, ms)
      timers.add(t)
    })

  const record = (req: IncomingMessage, body: unknown, route?: Extra): Entry => {
    const url = req.url ?? '/'
    const path = url.split('?')[0] ?? '/'
    const method = req.method ?? 'GET'
    const entry: Entry = {
      seq: requests.length + 1,
      method,
      path,
      url,
      headers: req.headers,
      body,
      route: route ?? protocol.routeOf(method, path, body),
      receivedAt: Date.now(),
    }
    requests.push(entry)
    return entry
  }

  function sendTurn(res: ServerResponse, turn: Turn, body: unknown): void {
    if (closed || res.destroyed) return
    answerSeq += 1
    const idHeader = { [protocol.requestIdHeader]: `req_${runId}_${String(answerSeq)}` }
    if (isSuccess(turn)) {
      const sse = protocol.encodeSse(turn, { runId, answerSeq, body })
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        ...idHeader,
      })
      res.end(sse)
    } else if (isHttpError(turn)) {
      const retry =
        turn.retryAfterSec === undefined ? {} : { 'retry-after': String(turn.retryAfterSec) }
      res.writeHead(turn.status, { 'content-type': 'application/json', ...idHeader, ...retry })
      res.end(protocol.encodeError(turn))
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const entry = record(req, await readJsonBody(req))
    if (entry.route !== 'scripted') {
      return protocol.answerUnscripted(entry, {
        turn: (turn) => sendTurn(res, turn, entry.body),
        json: (status, json) => {
          res.writeHead(status, { 'content-type': 'application/json' }).end(json)
        },
        empty: (status) => void res.writeHead(status).end(),
      })
    }
    const turn = queue.shift()
    if (turn === undefined) {
      entry.route = 'exhausted'
      exhaustedCount += 1
      return sendTurn(res, protocol.exhaustedTurn, entry.body)
    }
    entry.turnIndex = dequeued++
    if (turn.delayMs) await delay(turn.delayMs)
    if ('holdUntil' in turn && turn.holdUntil) {
      const until = turn.holdUntil
      await waitUntil(until, 30_000, 'a held turn’s condition').catch(() => undefined)
    }
    // Counted once answered, so waitForConsumed(n) means "the CLI has turn n in hand".
    sendTurn(res, turn, entry.body)
    consumed += 1
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end(String(err))
    })
  })
  const { upgradeRoute } = protocol
  if (upgradeRoute !== undefined) {
    server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
      record(req, undefined, upgradeRoute)
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')
    })
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo

  return {
    origin: `http://127.0.0.1:${String(port)}`,
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
