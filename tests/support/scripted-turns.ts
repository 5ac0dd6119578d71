/**
 * Scripted assistant turns for the fake Anthropic Messages API (`scripted-api.ts`) and their encoding
 * as the SSE stream the real `claude` binary accepts (reference, section 1.1). Build turns with
 * `text('hi')`, `toolUse('Write', { file_path, content })`, `toolUses([...], { text })`,
 * `structured({ name: 'x' })` or `httpError(429, { retryAfterSec: 1 })`, add `{ delayMs }` to any of
 * them to make the "busy" state observable, and `enqueue` them on a running server. Everything in
 * this file is pure: the server owns ids, the clock and the sockets.
 */
import { scriptedHttpError, type ScriptedHttpError } from './scripted-http-error.ts'
import { splitInChunks, sseEvent } from './sse-encoding.ts'

export { splitInChunks } from './sse-encoding.ts'

/** Token counts reported for a turn; `output_tokens` is the final count sent in `message_delta`. */
export interface TurnUsage {
  input_tokens: number
  output_tokens: number
  cache_creation_input_tokens: number
  cache_read_input_tokens: number
}

/** @default the usage every turn reports unless the server or the turn overrides it */
export const defaultUsage: TurnUsage = {
  input_tokens: 100,
  output_tokens: 25,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
}

/** One tool call of an assistant turn. `id` defaults to a unique `toolu_…` id. */
export interface ToolCall {
  name: string
  input: Record<string, unknown>
  id?: string
}

interface TurnOptions {
  /** Sleep this long before answering (the CLI shows "busy" meanwhile). */
  delayMs?: number
  /**
   * Answer only once this holds (checked every 100 ms, for at most 30 s; then answered anyway, so the
   * test's own assertion says what never happened). Stands for a model that takes its time.
   */
  holdUntil?: () => boolean | Promise<boolean>
  /** Overrides the server's usage numbers for this turn only. */
  usage?: Partial<TurnUsage>
}

export interface TextTurn extends TurnOptions {
  kind: 'text'
  text: string
}

export interface ToolUseTurn extends TurnOptions {
  kind: 'tool_use'
  /** Optional text block sent before the tool_use blocks. */
  text?: string
  calls: ToolCall[]
}

/** An HTTP error answer with an Anthropic error type, e.g. `rate_limit_error`. */
export type HttpErrorTurn = ScriptedHttpError

export type ScriptedTurn = TextTurn | ToolUseTurn | HttpErrorTurn

/** A text-only turn ending with `stop_reason: "end_turn"`. */
export function text(t: string, opts: TurnOptions = {}): TextTurn {
  return { kind: 'text', text: t, ...opts }
}

/** A turn with one tool_use block of any tool; the CLI really executes it. */
export function toolUse(
  name: string,
  input: Record<string, unknown>,
  opts: TurnOptions & { text?: string; id?: string } = {},
): ToolUseTurn {
  const { text: leading, id, ...rest } = opts
  return { kind: 'tool_use', text: leading, calls: [{ name, input, id }], ...rest }
}

/** A turn with several tool_use blocks (the CLI runs them, then sends all tool_results at once). */
export function toolUses(
  calls: ToolCall[],
  opts: TurnOptions & { text?: string } = {},
): ToolUseTurn {
  const { text: leading, ...rest } = opts
  return { kind: 'tool_use', text: leading, calls, ...rest }
}

/** A `StructuredOutput` tool call; with `--json-schema` it ends the run with `structured_output`. */
export function structured(obj: Record<string, unknown>, opts: TurnOptions = {}): ToolUseTurn {
  return toolUse('StructuredOutput', obj, opts)
}

const errorTypeByStatus: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
}

/** An HTTP error answer, e.g. `httpError(429, { retryAfterSec: 1 })`. */
export function httpError(
  status: number,
  opts: { type?: string; message?: string; retryAfterSec?: number; delayMs?: number } = {},
): HttpErrorTurn {
  const { type, ...rest } = opts
  return scriptedHttpError(status, errorTypeByStatus, 'api_error', { ...rest, errorType: type })
}

/** Ids and numbers the server fills in when it plays a successful turn. */
export interface TurnContext {
  messageId: string
  model: string
  usage: TurnUsage
  nextToolId: () => string
}

function textBlockEvents(index: number, t: string): string[] {
  return [
    sseEvent('content_block_start', { index, content_block: { type: 'text', text: '' } }),
    ...splitInChunks(t, 2).map((piece) =>
      sseEvent('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }),
    ),
    sseEvent('content_block_stop', { index }),
  ]
}

function toolBlockEvents(index: number, call: ToolCall, id: string): string[] {
  return [
    sseEvent('content_block_start', {
      index,
      content_block: { type: 'tool_use', id, name: call.name, input: {} },
    }),
    ...splitInChunks(JSON.stringify(call.input), 3).map((piece) =>
      sseEvent('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: piece },
      }),
    ),
    sseEvent('content_block_stop', { index }),
  ]
}

/** The full SSE body of a successful (text or tool_use) turn, message_start to message_stop. */
export function encodeTurnAsSse(turn: TextTurn | ToolUseTurn, ctx: TurnContext): string {
  const { usage } = ctx
  const blocks: string[] = []
  let index = 0
  const leadingText: string | undefined = turn.text
  if (leadingText !== undefined) blocks.push(...textBlockEvents(index++, leadingText))
  if (turn.kind === 'tool_use') {
    for (const call of turn.calls)
      blocks.push(...toolBlockEvents(index++, call, call.id ?? ctx.nextToolId()))
  }
  const message = {
    id: ctx.messageId,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...usage, output_tokens: 1 },
  }
  return [
    sseEvent('message_start', { message }),
    ...blocks,
    sseEvent('message_delta', {
      delta: {
        stop_reason: turn.kind === 'tool_use' ? 'tool_use' : 'end_turn',
        stop_sequence: null,
      },
      usage: { output_tokens: usage.output_tokens },
    }),
    sseEvent('message_stop', {}),
  ].join('')
}

/** The JSON body of an HTTP error answer. */
export function encodeErrorBody(turn: HttpErrorTurn): string {
  return JSON.stringify({ type: 'error', error: { type: turn.errorType, message: turn.message } })
}
