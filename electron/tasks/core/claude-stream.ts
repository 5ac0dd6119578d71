/**
 * One line of `claude -p --output-format stream-json --verbose` read as what a task needs (reference §3.3):
 * the session, the main agent's words, and the result envelope with its usage and cost. Tool calls,
 * sub-agents' messages and system chatter stay in the task's log only. Pure; never throws (a line that is
 * not JSON, or not a shape Navi knows, is `other`).
 */
import type { TokenUsage } from '../../../shared/schemas/session.ts'

export type AgentStreamEvent =
  | { kind: 'session'; sessionId: string }
  /** Text the main agent wrote (one content block). */
  | { kind: 'text'; text: string }
  | {
      kind: 'result'
      ok: boolean
      /** The agent's final words, or the error. */
      text: string
      sessionId: string | null
      turns: number
      tokens: TokenUsage
      costUsd: number
      /** The tokens are the session's running total (Codex after a resume), not this run's. */
      cumulative?: boolean
    }
  | { kind: 'other' }

export type Json = Record<string, unknown>
export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0)
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)

/** A stream line's JSON object, or null (not JSON, or not an object). */
export function streamObject(line: string): Json | null {
  try {
    const value: unknown = JSON.parse(line)
    return isObject(value) ? value : null
  } catch {
    return null
  }
}

export function readClaudeStreamLine(line: string): AgentStreamEvent[] {
  const value = streamObject(line)
  if (!value) return [{ kind: 'other' }]
  if (value.type === 'system' && value.subtype === 'init') {
    const sessionId = str(value.session_id)
    return sessionId ? [{ kind: 'session', sessionId }] : [{ kind: 'other' }]
  }
  if (value.type === 'assistant' && value.parent_tool_use_id == null && isObject(value.message)) {
    const content = Array.isArray(value.message.content) ? value.message.content : []
    const texts = content.flatMap((block: unknown) =>
      isObject(block) && block.type === 'text' && typeof block.text === 'string'
        ? [{ kind: 'text' as const, text: block.text }]
        : [],
    )
    return texts.length > 0 ? texts : [{ kind: 'other' }]
  }
  if (value.type === 'result') {
    const usage = isObject(value.usage) ? value.usage : {}
    const tokens = {
      input: num(usage.input_tokens),
      output: num(usage.output_tokens),
      cache_read: num(usage.cache_read_input_tokens),
      cache_creation: num(usage.cache_creation_input_tokens),
      total: 0,
    }
    tokens.total = tokens.input + tokens.output + tokens.cache_read + tokens.cache_creation
    const ok = value.is_error !== true && value.subtype === 'success'
    const errors = Array.isArray(value.errors)
      ? value.errors.filter((e) => typeof e === 'string')
      : []
    return [
      {
        kind: 'result',
        ok,
        text: str(value.result) ?? (errors.join('; ') || String(value.subtype ?? 'no result')),
        sessionId: str(value.session_id),
        turns: num(value.num_turns),
        tokens,
        costUsd: num(value.total_cost_usd),
      },
    ]
  }
  return [{ kind: 'other' }]
}
