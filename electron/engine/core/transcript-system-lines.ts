/**
 * Reading the `system` lines of a Claude transcript that tell how a turn ended. Pure.
 * - 1.0.43 to 1.0.56 wrote hook results as `system` lines without a subtype, with ANSI bold around the
 *   event name: `ESC[1mStop ESC[22m [cmd] completed successfully: …` (PostToolUse ones look alike).
 * - 2.1.x writes `system/api_error` while it retries a failed request:
 *   `{subtype: "api_error", level: "error", error, retryInMs, retryAttempt, maxRetries}`.
 */
import { asCappedString, asString, isObject, type JsonObject } from './json-narrow.ts'

const STOP_HOOK_PREFIX = /^Stop\s/
const ESC = String.fromCharCode(27)
const MESSAGE_MAX = 200

/** The text without ANSI SGR sequences (`ESC[…m`). */
function withoutSgr(text: string): string {
  return text
    .split(ESC)
    .map((part, i) => (i === 0 ? part : part.replace(/^\[[0-9;]*m/, '')))
    .join('')
}

/** A 1.0.x Stop-hook result line. */
export function isStopHookLine(line: JsonObject): boolean {
  if (line.subtype !== undefined || typeof line.content !== 'string') return false
  return STOP_HOOK_PREFIX.test(withoutSgr(line.content.slice(0, 64)))
}

/** `529 Overloaded` from the error an `api_error` line carries (its shapes vary with the failure). */
export function apiErrorMessage(error: unknown): string {
  if (typeof error === 'string') return asCappedString(error, MESSAGE_MAX) ?? ''
  if (!isObject(error)) return ''
  const nested = isObject(error.error) ? error.error : null
  const inner = nested && isObject(nested.error) ? nested.error : nested
  const message = asString(inner?.message) ?? asString(error.message)
  const status = typeof error.status === 'number' ? `${String(error.status)} ` : ''
  return asCappedString(`${status}${message ?? ''}`.trim(), MESSAGE_MAX) ?? ''
}
