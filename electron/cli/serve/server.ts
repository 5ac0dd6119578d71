/**
 * `navi serve`'s HTTP server: the built renderer, the contract over `POST /api/call/<channel>` and the
 * pushes over `GET /api/stream`, on 127.0.0.1 only, behind the Host/Origin checks and the token of
 * `request-auth.ts`.
 */
import { randomBytes } from 'node:crypto'
import { readFile, realpath, stat } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve, sep } from 'node:path'
import type { ContractHandlers, PushChannel } from '../../../shared/ipc-contract.ts'
import { dispatchCall } from '../../runtime/dispatch.ts'
import type { PushHub } from '../../runtime/push-hub.ts'
import { RENDERER_CSP } from '../../../shared/csp.ts'
import { printErr } from '../output.ts'
import { send, sendCallError, sendJson, sendText } from './http-responses.ts'
import { checkRequest, tokenCookie } from './request-auth.ts'
import { createSseStreams } from './sse.ts'
import { contentTypeFor, resolveStaticPath } from '../../runtime/static-files.ts'

export interface NaviServerOptions {
  handlers: ContractHandlers
  hub: Pick<PushHub, 'subscribe'>
  /** The built renderer (`out/renderer`). */
  rendererDir: string
  /** 0 picks a free port. */
  port: number
  /** @default 128 random bits, hex */
  token?: string
  /** @default 15000 */
  keepAliveMs?: number
}

export interface NaviServer {
  /** `http://127.0.0.1:<port>/?token=<token>`: opening it logs the browser in. */
  url: string
  port: number
  token: string
  /** Ends the SSE streams and stops listening. */
  close(): Promise<void>
}

/** Largest request body accepted: a call's input is a few fields. */
export const MAX_BODY_BYTES = 64 * 1024

const CALL_PREFIX = '/api/call/'

export async function createNaviServer(opts: NaviServerOptions): Promise<NaviServer> {
  const token = opts.token ?? randomBytes(16).toString('hex')
  if (token.length === 0) throw new Error('the token must not be empty')
  let port = opts.port
  const keepAliveMs = opts.keepAliveMs ?? 15_000
  /** An event stream silent for two keep-alives: the client is gone. */
  const streamIdleMs = keepAliveMs * 2 + 5_000
  const streams = createSseStreams({
    subscribe: (listener) => opts.hub.subscribe(listener),
    keepAliveMs,
  })

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const target = req.url ?? '/'
    const queryAt = target.indexOf('?')
    const pathname = queryAt < 0 ? target : target.slice(0, queryAt)
    const query = new URLSearchParams(queryAt < 0 ? '' : target.slice(queryAt + 1))
    const decision = checkRequest({
      host: req.headers.host,
      hostHeaders: countHeader(req.rawHeaders, 'host'),
      origin: req.headers.origin,
      authorization: req.headers.authorization,
      queryToken: query.get('token') ?? undefined,
      cookie: req.headers.cookie,
      port,
      expected: token,
    })
    if (!decision.ok) return sendText(res, decision.status, decision.reason)

    const method = req.method ?? 'GET'
    if (pathname === '/api/stream') {
      if (method !== 'GET') return sendText(res, 405, 'method not allowed')
      req.socket.setTimeout(streamIdleMs)
      return streams.open(req, res, async () => initialPushes(opts.handlers))
    }
    if (pathname.startsWith(CALL_PREFIX)) {
      if (method !== 'POST') return sendCallError(res, 405, 'method_not_allowed', 'use POST')
      return handleCall(req, res, opts.handlers, pathname.slice(CALL_PREFIX.length))
    }
    if (pathname.startsWith('/api/')) return sendCallError(res, 404, 'not_found', pathname)
    if (method !== 'GET' && method !== 'HEAD') return sendText(res, 405, 'method not allowed')
    if (pathname === '/' && query.has('token')) {
      // The token leaves the address bar (and history) at once; the cookie carries it from here.
      const headers: Record<string, string> = { Location: '/', 'Cache-Control': 'no-store' }
      if (decision.via === 'query') headers['Set-Cookie'] = tokenCookie(port, token)
      return send(res, 302, headers, '')
    }
    return serveStatic(res, opts.rendererDir, pathname, method === 'HEAD')
  }

  const server = createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    // A request is being answered: no idle limit until it is (the keep-alive timeout takes over after).
    req.socket.setTimeout(0)
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendText(res, 500, 'internal error')
      else res.end()
      printErr(`navi serve: ${error instanceof Error ? error.message : String(error)}`)
    })
  })
  limitConnections(server)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      streams.closeAll()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}

/**
 * Sockets that say nothing, or stop halfway, must not pile up: any local program can open them without
 * the token, and enough of them would starve the browser. A connection that sends no request within
 * `IDLE_SOCKET_MS` is closed; headers must arrive within 10 s and a whole request within 15 s; an idle
 * keep-alive connection lasts 5 s; and past `MAX_CONNECTIONS` new connections are refused at once. While
 * a request is handled its socket has no idle limit (a call may wait on a PM run); an event stream writes
 * a keep-alive often enough to stay under its own.
 */
function limitConnections(server: Server): void {
  server.headersTimeout = 10_000
  server.requestTimeout = 15_000
  server.keepAliveTimeout = 5_000
  server.maxConnections = MAX_CONNECTIONS
  server.on('connection', (socket) => socket.setTimeout(IDLE_SOCKET_MS, () => socket.destroy()))
}

/** A connection that has sent no request for this long is closed. */
export const IDLE_SOCKET_MS = 10_000

/** Connections open at once: a few browser tabs need a dozen. */
export const MAX_CONNECTIONS = 256

/** How many times `name` appears in `rawHeaders` (alternating names and values). */
function countHeader(rawHeaders: string[], name: string): number {
  let count = 0
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() === name) count++
  }
  return count
}

async function initialPushes(handlers: ContractHandlers): Promise<[PushChannel, unknown][]> {
  const [state, briefing] = await Promise.all([
    dispatchCall(handlers, 'state:get', undefined),
    dispatchCall(handlers, 'briefing:get', undefined),
  ])
  const first: [PushChannel, unknown][] = []
  if (state.ok) first.push(['state:changed', state.data])
  if (briefing.ok) first.push(['briefing:changed', briefing.data])
  return first
}

async function handleCall(
  req: IncomingMessage,
  res: ServerResponse,
  handlers: ContractHandlers,
  rawChannel: string,
): Promise<void> {
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > MAX_BODY_BYTES) return tooLarge(req, res)
  const body = await readBody(req, MAX_BODY_BYTES)
  if (body === null) return tooLarge(req, res)
  let input: unknown = undefined
  if (body.trim() !== '') {
    try {
      input = JSON.parse(body)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      return sendCallError(res, 400, 'bad_json', `the body is not JSON: ${reason}`)
    }
  }
  let channel: string
  try {
    channel = decodeURIComponent(rawChannel)
  } catch {
    // Kept as sent: the dispatcher answers it as an unknown channel (404).
    channel = rawChannel
  }
  const result = await dispatchCall(handlers, channel, input)
  const status = !result.ok && result.error.code === 'unknown_channel' ? 404 : 200
  sendJson(res, status, result)
}

function tooLarge(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Connection', 'close')
  sendCallError(res, 413, 'too_large', `the body is over ${MAX_BODY_BYTES} bytes`)
  req.resume()
}

/** The body as text, or null once it passes `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        req.off('data', onData)
        resolve(null)
      } else chunks.push(chunk)
    }
    req.on('data', onData)
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

async function serveStatic(
  res: ServerResponse,
  rendererDir: string,
  pathname: string,
  headOnly: boolean,
): Promise<void> {
  const resolved = resolveStaticPath(rendererDir, pathname)
  if (!resolved.ok) {
    return sendText(res, resolved.reason === 'outside' ? 403 : 400, 'forbidden path')
  }
  const file = await realpath(resolved.path).catch(() => null)
  const root = await realpath(rendererDir).catch(() => null)
  const isIndex = resolved.path === resolve(rendererDir, 'index.html')
  if (!file || !root || !(await stat(file).catch(() => null))?.isFile()) {
    if (isIndex) {
      return sendText(res, 503, 'The renderer is not built: run `npm run build` first.')
    }
    return sendText(res, 404, 'not found')
  }
  // A symlink inside the renderer must not lead outside it either.
  if (!file.startsWith(root + sep)) return sendText(res, 403, 'forbidden path')
  const type = contentTypeFor(file)
  const headers: Record<string, string> = { 'Content-Type': type }
  if (type.startsWith('text/html')) {
    headers['Content-Security-Policy'] = RENDERER_CSP
    headers['Cache-Control'] = 'no-store'
  } else headers['Cache-Control'] = 'no-cache'
  send(res, 200, headers, await readFile(file), headOnly)
}
