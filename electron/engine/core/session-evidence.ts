/**
 * The evidence a session carries for the faces and the trouble rules (core/trouble.ts): what it asks
 * permission for, the API failure it hit, the shell command it keeps running. Pure.
 */
import type { ApiFailure, CommandStreak, PendingRequest } from '../../../shared/schemas/session.ts'
import type { HookSessionState, TranscriptSummary } from './source-records.ts'
import { classifyApiFailure } from './trouble.ts'

/**
 * What a session that needs permission asks: the hooks' PermissionRequest when they told it (they name
 * the call the dialog is for), else the tool call the transcript shows waiting.
 */
export function pendingRequestOf(
  hook: HookSessionState | null,
  transcript: TranscriptSummary | null,
  since: string | null,
): PendingRequest | null {
  if (hook?.toolName) {
    return {
      tool: hook.toolName,
      detail: hook.toolDetail,
      description: hook.toolDescription ?? null,
      since,
      request_id: hook.requestId,
      input_digest: hook.inputDigest,
      // The runtime fills it in while Navi's hook waits (it knows the handler's marker).
      answer_until: null,
    }
  }
  const tail = transcript?.tail
  if (tail?.kind === 'tool_pending') {
    return {
      tool: tail.toolName,
      detail: tail.detail,
      description: tail.description,
      since,
      request_id: null,
      input_digest: null,
      answer_until: null,
    }
  }
  return null
}

/** The transcript's last line is a failed API request (retried or given up): the evidence, classed. */
export function apiFailureOf(transcript: TranscriptSummary | null): ApiFailure | null {
  const tail = transcript?.tail
  if (tail?.kind === 'api_error') {
    return {
      kind: classifyApiFailure(tail.errorClass, tail.status, tail.message),
      message: tail.message,
      status: tail.status,
      retrying: false,
      attempt: null,
      at: tail.since,
    }
  }
  if (tail?.kind === 'api_retry') {
    return {
      kind: classifyApiFailure(null, tail.status, tail.message),
      message: tail.message,
      status: tail.status,
      retrying: true,
      attempt: tail.attempt,
      at: tail.since,
    }
  }
  return null
}

export function commandStreakOf(
  summary: Pick<TranscriptSummary, 'commandStreak'> | null,
): CommandStreak | null {
  const streak = summary?.commandStreak
  if (!streak) return null
  const { command, runs, failures, since } = streak
  return { command, runs, failures, since }
}
