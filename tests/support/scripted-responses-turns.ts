/**
 * Scripted model turns for the fake OpenAI Responses API (`scripted-responses-api.ts`) and their
 * encoding as the SSE stream the real `codex` binary accepts (reference, section 14.2). Build turns
 * with `textAnswer('done')`, `execCommand('echo hi')`, `functionCalls([...])` or
 * `responsesHttpError(429)`; add `{ reasoning: 'plan' }` for a reasoning summary item and
 * `{ delayMs }` to keep the CLI busy. Pure: the server owns ids, the clock and the sockets.
 */
import {
  scriptedHttpError,
  type ScriptedHttpError,
  type ScriptedHttpErrorOptions,
} from './scripted-http-error.ts'
import { splitInChunks, sseEvent } from './sse-encoding.ts'

/** Token counts reported in `response.completed` (`input_tokens` include the cached ones). */
export interface ResponsesUsage {
  input_tokens: number
  cached_tokens: number
  output_tokens: number
  reasoning_tokens: number
}

/** @default the usage every turn reports unless the server or the turn overrides it */
export const defaultResponsesUsage: ResponsesUsage = {
  input_tokens: 120,
  cached_tokens: 20,
  output_tokens: 30,
  reasoning_tokens: 5,
}

interface TurnOptions {
  /** Sleep this long before answering. */
  delayMs?: number
  /**
   * Answer only once this holds (checked every 100 ms, for at most 30 s; then answered anyway, so the
   * test's own assertion says what never happened). Stands for a model that takes its time.
   */
  holdUntil?: () => boolean | Promise<boolean>
  /** Overrides the server's usage numbers for this turn only. */
  usage?: Partial<ResponsesUsage>
  /** A reasoning output item with this summary text, sent first. */
  reasoning?: string
}

/** One function call of a turn; `callId` defaults to a unique `call_…` id. */
export interface FunctionCall {
  name: string
  arguments: Record<string, unknown>
  callId?: string
}

export interface ResponsesTextTurn extends TurnOptions {
  kind: 'text'
  text: string
}

export interface ResponsesCallTurn extends TurnOptions {
  kind: 'function_calls'
  /** Optional assistant message sent before the calls. */
  text?: string
  calls: FunctionCall[]
}

/** An HTTP error answer with an OpenAI error type, e.g. `rate_limit_exceeded`. */
export type ResponsesErrorTurn = ScriptedHttpError

export type ResponsesTurn = ResponsesTextTurn | ResponsesCallTurn | ResponsesErrorTurn

/** An assistant message that ends the turn. */
export function textAnswer(text: string, opts: TurnOptions = {}): ResponsesTextTurn {
  return { kind: 'text', text, ...opts }
}

/** An `exec_command` call: Codex really runs `cmd` in a shell and sends its output back. */
export function execCommand(
  cmd: string,
  opts: TurnOptions & { text?: string; callId?: string; workdir?: string } = {},
): ResponsesCallTurn {
  const { text, callId, workdir, ...rest } = opts
  const args: Record<string, unknown> = workdir === undefined ? { cmd } : { cmd, workdir }
  return {
    kind: 'function_calls',
    text,
    calls: [{ name: 'exec_command', arguments: args, callId }],
    ...rest,
  }
}

/** Several function calls of any tool in one response. */
export function functionCalls(
  calls: FunctionCall[],
  opts: TurnOptions & { text?: string } = {},
): ResponsesCallTurn {
  const { text, ...rest } = opts
  return { kind: 'function_calls', text, calls, ...rest }
}

const errorTypeByStatus: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_api_key',
  403: 'permission_denied',
  404: 'not_found',
  429: 'rate_limit_exceeded',
  500: 'server_error',
  503: 'server_error',
}

/** An HTTP error answer with `{"error":{"message","type"}}`. */
export function responsesHttpError(
  status: number,
  opts: ScriptedHttpErrorOptions = {},
): ResponsesErrorTurn {
  return scriptedHttpError(status, errorTypeByStatus, 'server_error', opts)
}

/** Ids and numbers the server fills in when it plays a successful turn. */
export interface ResponsesTurnContext {
  responseId: string
  model: string
  usage: ResponsesUsage
  /** A fresh suffix for item and call ids, unique on this server. */
  nextId: () => string
}

interface EncodedItem {
  events: string[]
  item: Record<string, unknown>
}

function reasoningItem(index: number, id: string, summary: string): EncodedItem {
  const item = { id, type: 'reasoning', summary: [{ type: 'summary_text', text: summary }] }
  return {
    item,
    events: [
      sseEvent('response.output_item.added', {
        output_index: index,
        item: { id, type: 'reasoning', summary: [] },
      }),
      ...splitInChunks(summary, 2).map((delta) =>
        sseEvent('response.reasoning_summary_text.delta', {
          item_id: id,
          output_index: index,
          summary_index: 0,
          delta,
        }),
      ),
      sseEvent('response.output_item.done', { output_index: index, item }),
    ],
  }
}

function messageItem(index: number, id: string, text: string): EncodedItem {
  const part = { type: 'output_text', text, annotations: [] }
  const item = { id, type: 'message', status: 'completed', role: 'assistant', content: [part] }
  const at = { item_id: id, output_index: index, content_index: 0 }
  return {
    item,
    events: [
      sseEvent('response.output_item.added', {
        output_index: index,
        item: { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
      }),
      sseEvent('response.content_part.added', {
        ...at,
        part: { type: 'output_text', text: '', annotations: [] },
      }),
      ...splitInChunks(text, 2).map((delta) =>
        sseEvent('response.output_text.delta', { ...at, delta }),
      ),
      sseEvent('response.output_text.done', { ...at, text }),
      sseEvent('response.content_part.done', { ...at, part }),
      sseEvent('response.output_item.done', { output_index: index, item }),
    ],
  }
}

function functionCallItem(
  index: number,
  id: string,
  callId: string,
  call: FunctionCall,
): EncodedItem {
  const args = JSON.stringify(call.arguments)
  const base = { id, type: 'function_call', call_id: callId, name: call.name }
  const item = { ...base, status: 'completed', arguments: args }
  return {
    item,
    events: [
      sseEvent('response.output_item.added', {
        output_index: index,
        item: { ...base, status: 'in_progress', arguments: '' },
      }),
      ...splitInChunks(args, 3).map((delta) =>
        sseEvent('response.function_call_arguments.delta', {
          item_id: id,
          output_index: index,
          delta,
        }),
      ),
      sseEvent('response.function_call_arguments.done', {
        item_id: id,
        output_index: index,
        arguments: args,
      }),
      sseEvent('response.output_item.done', { output_index: index, item }),
    ],
  }
}

/** The full SSE body of a successful turn, `response.created` to `response.completed`. */
export function encodeResponsesTurnAsSse(
  turn: ResponsesTextTurn | ResponsesCallTurn,
  ctx: ResponsesTurnContext,
): string {
  const items: EncodedItem[] = []
  if (turn.reasoning !== undefined) {
    items.push(reasoningItem(items.length, `rs_${ctx.nextId()}`, turn.reasoning))
  }
  if (turn.text !== undefined)
    items.push(messageItem(items.length, `msg_${ctx.nextId()}`, turn.text))
  if (turn.kind === 'function_calls') {
    for (const call of turn.calls) {
      const suffix = ctx.nextId()
      items.push(
        functionCallItem(items.length, `fc_${suffix}`, call.callId ?? `call_${suffix}`, call),
      )
    }
  }
  const { usage } = ctx
  const response = { id: ctx.responseId, object: 'response', model: ctx.model }
  return [
    sseEvent('response.created', { response: { ...response, status: 'in_progress', output: [] } }),
    ...items.flatMap((i) => i.events),
    sseEvent('response.completed', {
      response: {
        ...response,
        status: 'completed',
        output: items.map((i) => i.item),
        usage: {
          input_tokens: usage.input_tokens,
          input_tokens_details: { cached_tokens: usage.cached_tokens },
          output_tokens: usage.output_tokens,
          output_tokens_details: { reasoning_tokens: usage.reasoning_tokens },
          total_tokens: usage.input_tokens + usage.output_tokens,
        },
      },
    }),
  ].join('')
}

/** The JSON body of an HTTP error answer. */
export function encodeResponsesErrorBody(turn: ResponsesErrorTurn): string {
  return JSON.stringify({ error: { message: turn.message, type: turn.errorType, code: null } })
}
