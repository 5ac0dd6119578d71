/**
 * The evidence a session carries for the faces and the trouble rules (core/trouble.ts): what it asks
 * permission for, the API failure it hit, the shell command it keeps running. Pure.
 */
import type { ApiFailure, CommandStreak, PendingRequest } from '../../../shared/schemas/session.ts'
import type { CodexRolloutSummary, HookSessionState, TranscriptSummary } from './source-records.ts'
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

/**
 * The failed API request a session is stuck on, classed: the transcript's last line (retried or given
 * up), else the hooks' StopFailure (the turn ended on an API error).
 */
export function apiFailureOf(
  transcript: TranscriptSummary | null,
  hook: HookSessionState | null = null,
): ApiFailure | null {
  return transcriptFailure(transcript) ?? hookFailure(hook)
}

function hookFailure(hook: HookSessionState | null): ApiFailure | null {
  if (hook?.lastEvent !== 'StopFailure' || !hook.stopFailure) return null
  const { error, message } = hook.stopFailure
  const words = message ?? error ?? 'the turn failed'
  return {
    kind: classifyApiFailure(error, null, `${error ?? ''} ${words}`),
    message: words,
    status: null,
    retrying: false,
    attempt: null,
    at: hook.lastEventAt,
  }
}

function transcriptFailure(transcript: TranscriptSummary | null): ApiFailure | null {
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

/** A Codex turn that ended on an API error (its rollout's `task_complete` error), classed. */
export function codexFailureOf(
  rollout: Pick<CodexRolloutSummary, 'turnError' | 'inTurn' | 'lastActivity'>,
): ApiFailure | null {
  const error = rollout.turnError
  if (!error || rollout.inTurn) return null
  const status = /\bstatus:? (\d{3})\b/.exec(error.message)
  const code = status ? Number(status[1]) : null
  return {
    kind: classifyApiFailure(null, code, error.message),
    message: error.message,
    status: code,
    retrying: false,
    attempt: null,
    at: error.at ?? rollout.lastActivity ?? new Date(0).toISOString(),
  }
}
