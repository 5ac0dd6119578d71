/**
 * A scripted Anthropic Messages API on 127.0.0.1 for driving the real `claude` binary. Start it with
 * `const api = await startScriptedApi()`, point the CLI at `api.url` (`ANTHROPIC_BASE_URL`, see
 * `claude-driver.ts`), then `api.enqueue(toolUse('Write', {...}), text('done'))`. Every request
 * whose `tools` array is non-empty consumes the next turn of the FIFO queue; tool-less side requests
 * (session title) get a fixed reply; an empty queue answers "(script exhausted)" so the run ends
 * instead of hanging (see `api.exhaustedCount`). Every request is recorded in `api.requests` with its
 * parsed JSON body. Wait with `api.waitForConsumed(n, ms)` and always `await api.close()` (it also
 * drops keep-alive sockets and pending delayed answers). This file holds only the Messages protocol
 * (routes, ids, encoding); the HTTP server and the queue live in `loopback-sse-server.ts`.
 */
import {
  SCRIPT_EXHAUSTED_TEXT,
  startLoopbackSseServer,
  type ScriptedApiBaseOptions,
  type LoopbackSseProtocol,
  type LoopbackSseServer,
  type QueueRoute,
  type RecordedHttpRequest,
} from './loopback-sse-server.ts'
import { isRecord, offersTools, requestModel } from './request-body.ts'
import {
  defaultUsage,
  encodeErrorBody,
  encodeTurnAsSse,
  httpError,
  text,
  type ScriptedTurn,
  type TurnUsage,
} from './scripted-turns.ts'

export * from './scripted-turns.ts'

/** Routes of requests that do not consume the queue. */
type UnscriptedRoute = 'side' | 'probe' | 'other'

/** How the server routed a request. */
export type RequestRoute = QueueRoute | UnscriptedRoute

/** A request as the fake API received it (`path` e.g. `/v1/messages`, `url` with the query). */
export type RecordedRequest = RecordedHttpRequest<UnscriptedRoute>

/** A `tool_result` block the CLI sent back in a later request. */
export interface ToolResultBlock {
  tool_use_id: string
  content: unknown
  is_error?: boolean
}

export interface ScriptedApiOptions extends ScriptedApiBaseOptions<TurnUsage> {
  /** Title answered to title-generation side requests. @default 'Scripted session title' */
  title?: string
}

export interface ScriptedApi extends LoopbackSseServer<ScriptedTurn, UnscriptedRoute> {
  /** `http://127.0.0.1:<port>`: the CLI's `ANTHROPIC_BASE_URL`. */
  url: string
  /** Every `tool_result` block seen in any request body, first occurrence per `tool_use_id`. */
  toolResults(): ToolResultBlock[]
}

export const EXHAUSTED_TEXT = SCRIPT_EXHAUSTED_TEXT

function routeOf(method: string, path: string, body: unknown): 'scripted' | UnscriptedRoute {
  if ((method === 'HEAD' || method === 'GET') && (path === '/' || path === '/api/hello'))
    return 'probe'
  if (method !== 'POST' || path !== '/v1/messages') return 'other'
  return offersTools(body) ? 'scripted' : 'side'
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

/** Routing and encoding of the Anthropic Messages API; ids count per server. */
function messagesProtocol(
  opts: ScriptedApiOptions,
): LoopbackSseProtocol<ScriptedTurn, UnscriptedRoute> {
  const baseUsage: TurnUsage = { ...defaultUsage, ...opts.usage }
  let messageSeq = 0
  let toolSeq = 0
  return {
    routeOf,
    exhaustedTurn: text(EXHAUSTED_TEXT),
    requestIdHeader: 'request-id',
    encodeError: encodeErrorBody,
    encodeSse: (turn, { runId, body }) =>
      encodeTurnAsSse(turn, {
        messageId: `msg_${runId}_${String(++messageSeq)}`,
        model: opts.model ?? requestModel(body) ?? 'claude-opus-4-8',
        usage: { ...baseUsage, ...turn.usage },
        nextToolId: () => `toolu_${runId}_${String(++toolSeq).padStart(3, '0')}`,
      }),
    answerUnscripted: (entry, reply) => {
      if (entry.route === 'probe') return reply.empty(200)
      if (entry.route === 'other') {
        const message = `no route ${entry.method} ${entry.path}`
        return reply.json(404, encodeErrorBody(httpError(404, { message })))
      }
      const sideReply = wantsJsonFormat(entry.body)
        ? JSON.stringify({ title: opts.title ?? 'Scripted session title' })
        : (opts.sideText ?? 'ok')
      reply.turn(text(sideReply))
    },
  }
}

/** Starts the fake API on 127.0.0.1 with an ephemeral port. */
export async function startScriptedApi(opts: ScriptedApiOptions = {}): Promise<ScriptedApi> {
  const server = await startLoopbackSseServer(messagesProtocol(opts))
  return Object.assign(server, {
    url: server.origin,
    toolResults: () => collectToolResults(server.requests),
  })
}
