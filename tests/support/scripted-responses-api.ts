/**
 * A scripted OpenAI Responses API on 127.0.0.1 for driving the real `codex` binary. Start it with
 * `const api = await startScriptedResponsesApi()`, point Codex at `api.baseUrl` (the custom provider
 * of `codex-driver.ts`), then `api.enqueue(execCommand('echo hi'), textAnswer('done'))`. Every
 * `POST …/responses` that offers tools consumes the next turn of the FIFO queue; tool-less side
 * requests get a fixed text; an empty queue answers "(script exhausted)" so the run ends instead of
 * hanging (see `api.exhaustedCount`). Anything else Codex asks (model lists, WebSocket upgrades) is
 * recorded and answered so the CLI falls back to plain HTTPS. Always `await api.close()`: it drops
 * keep-alive sockets and pending delayed answers. This file holds only the Responses protocol; the
 * HTTP server and the queue live in `loopback-sse-server.ts`.
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
  defaultResponsesUsage,
  encodeResponsesErrorBody,
  encodeResponsesTurnAsSse,
  responsesHttpError,
  textAnswer,
  type ResponsesTurn,
  type ResponsesUsage,
} from './scripted-responses-turns.ts'

export * from './scripted-responses-turns.ts'

/** Routes of requests that do not consume the queue. */
type UnscriptedRoute = 'side' | 'probe' | 'upgrade' | 'other'

/** How the server routed a request. */
export type ResponsesRoute = QueueRoute | UnscriptedRoute

/** A request as the fake API received it (`path` e.g. `/v1/responses`, `url` with the query). */
export type RecordedResponsesRequest = RecordedHttpRequest<UnscriptedRoute>

/** A `function_call_output` item Codex sent back in a later request. */
export interface FunctionCallOutput {
  call_id: string
  output: unknown
}

export type ScriptedResponsesApiOptions = ScriptedApiBaseOptions<ResponsesUsage>

export interface ScriptedResponsesApi extends LoopbackSseServer<ResponsesTurn, UnscriptedRoute> {
  /** `http://127.0.0.1:<port>/v1`: the provider's `base_url`. */
  baseUrl: string
  /** Every `function_call_output` seen in any request body, first occurrence per `call_id`. */
  functionCallOutputs(): FunctionCallOutput[]
}

export const RESPONSES_EXHAUSTED_TEXT = SCRIPT_EXHAUSTED_TEXT

function routeOf(method: string, path: string, body: unknown): 'scripted' | UnscriptedRoute {
  if (method === 'POST' && path.endsWith('/responses'))
    return offersTools(body) ? 'scripted' : 'side'
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

/** Routing and encoding of the OpenAI Responses API; ids count per server. */
function responsesProtocol(
  opts: ScriptedResponsesApiOptions,
): LoopbackSseProtocol<ResponsesTurn, UnscriptedRoute> {
  const baseUsage: ResponsesUsage = { ...defaultResponsesUsage, ...opts.usage }
  let idSeq = 0
  return {
    routeOf,
    exhaustedTurn: textAnswer(RESPONSES_EXHAUSTED_TEXT),
    requestIdHeader: 'x-request-id',
    encodeError: encodeResponsesErrorBody,
    encodeSse: (turn, { runId, answerSeq, body }) =>
      encodeResponsesTurnAsSse(turn, {
        responseId: `resp_${runId}_${String(answerSeq)}`,
        model: opts.model ?? requestModel(body) ?? 'gpt-fake-1',
        usage: { ...baseUsage, ...turn.usage },
        nextId: () => `${runId}_${String(++idSeq)}`,
      }),
    // WebSocket transport attempts: refuse them so Codex uses HTTPS POST.
    upgradeRoute: 'upgrade',
    answerUnscripted: (entry, reply) => {
      if (entry.route === 'probe') {
        // A model list that names no model: Codex keeps its fallback metadata.
        const isModels = entry.path.endsWith('/models')
        const json = isModels ? { object: 'list', data: [], models: [] } : {}
        return reply.json(isModels ? 200 : 404, JSON.stringify(json))
      }
      if (entry.route === 'side') return reply.turn(textAnswer(opts.sideText ?? 'ok'))
      const message = `no route ${entry.method} ${entry.path}`
      reply.json(404, encodeResponsesErrorBody(responsesHttpError(404, { message })))
    },
  }
}

/** Starts the fake Responses API on 127.0.0.1 with an ephemeral port. */
export async function startScriptedResponsesApi(
  opts: ScriptedResponsesApiOptions = {},
): Promise<ScriptedResponsesApi> {
  const server = await startLoopbackSseServer(responsesProtocol(opts))
  return Object.assign(server, {
    baseUrl: `${server.origin}/v1`,
    functionCallOutputs: () => collectFunctionCallOutputs(server.requests),
  })
}
