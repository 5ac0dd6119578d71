/**
 * The HTTP error turn both scripted model APIs play (`scripted-turns.ts` for Anthropic,
 * `scripted-responses-turns.ts` for OpenAI Responses). Only the error type names and the JSON body
 * differ between the protocols, so each passes its own status-to-type table. Pure.
 */

/** An HTTP error answer; `loopback-sse-server.ts` writes it with an optional `retry-after`. */
export interface ScriptedHttpError {
  kind: 'http_error'
  status: number
  /** The protocol's error type, e.g. `rate_limit_error`; derived from the status when omitted. */
  errorType: string
  message: string
  /** Value of the `retry-after` header in seconds; no header when undefined. */
  retryAfterSec?: number
  /** Sleep this long before answering. */
  delayMs?: number
}

export interface ScriptedHttpErrorOptions {
  errorType?: string
  message?: string
  retryAfterSec?: number
  delayMs?: number
}

/** An error turn whose type defaults to `typeByStatus[status]`, else `fallbackType`. */
export function scriptedHttpError(
  status: number,
  typeByStatus: Record<number, string>,
  fallbackType: string,
  opts: ScriptedHttpErrorOptions,
): ScriptedHttpError {
  return {
    kind: 'http_error',
    status,
    errorType: opts.errorType ?? typeByStatus[status] ?? fallbackType,
    message: opts.message ?? `fake ${String(status)} error`,
    retryAfterSec: opts.retryAfterSec,
    delayMs: opts.delayMs,
  }
}
