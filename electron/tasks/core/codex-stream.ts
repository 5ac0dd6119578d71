/**
 * One line of `codex exec --json` (reference §14.3) read as what a task needs: the thread, the agent's
 * messages, and the turn's end with its usage. `turn.completed.usage` is the thread's running total after
 * `exec resume`, so the result says it is cumulative. Codex reports no cost. Pure; never throws.
 */
import { codexTokenUsage } from '../../engine/core/codex-fold.ts'
import { isObject, streamObject, type AgentStreamEvent } from './claude-stream.ts'

export function readCodexStreamLine(line: string): AgentStreamEvent[] {
  const value = streamObject(line)
  if (!value) return [{ kind: 'other' }]
  if (value.type === 'thread.started' && typeof value.thread_id === 'string') {
    return [{ kind: 'session', sessionId: value.thread_id }]
  }
  if (value.type === 'item.completed' && isObject(value.item)) {
    const item = value.item
    return item.type === 'agent_message' && typeof item.text === 'string'
      ? [{ kind: 'text', text: item.text }]
      : [{ kind: 'other' }]
  }
  if (value.type === 'turn.completed') {
    const tokens = codexTokenUsage(isObject(value.usage) ? value.usage : {})
    return [
      {
        kind: 'result',
        ok: true,
        text: '',
        sessionId: null,
        turns: 1,
        tokens,
        costUsd: 0,
        cumulative: true,
      },
    ]
  }
  if (value.type === 'turn.failed') {
    const error =
      isObject(value.error) && typeof value.error.message === 'string'
        ? value.error.message
        : 'the turn failed'
    return [
      {
        kind: 'result',
        ok: false,
        text: error,
        sessionId: null,
        turns: 1,
        tokens: { input: 0, output: 0, cache_read: 0, cache_creation: 0, total: 0 },
        costUsd: 0,
      },
    ]
  }
  return [{ kind: 'other' }]
}
