/**
 * Answering an agent's permission request from Navi: which answer may go through, and what the hook
 * handler prints for it. Pure.
 *
 * An answer names the one request it is for: the request id (the spool name the hook handler gave the
 * PermissionRequest it is waiting on), the tool and a digest of the tool's input. It goes through only
 * while that very request is the session's pending one and its handler still waits (its marker, pid
 * alive, before its deadline). So an answer to a request already answered in the terminal, replaced by
 * another, or replayed later is refused, and changes nothing. Deny wins over allow: an allow is refused
 * once a deny is on its way, a deny replaces an allow the handler has not taken yet (the handler takes
 * a deny first when both are there).
 */
import { sha256Hex } from './digest.ts'
import type { PendingRequest, Session } from '../../../shared/schemas/session.ts'

export type AnswerDecision = 'allow' | 'deny'

/** What the user answered, and the request it was shown. */
export interface AnswerInput {
  request_id: string
  tool: string
  input_digest: string
  decision: AnswerDecision
  /** With a deny: what the agent is told instead (e.g. what to do differently). */
  message?: string | undefined
}

/** The handler's marker (`answers/waiting/<id>`): its pid and when it stops waiting. */
export interface WaitingMarker {
  pid: number
  deadlineMs: number
}

/** What already lies in the answers folder for the request. */
export type AnswerOnFile = 'none' | 'allow' | 'deny' | 'taken'

export type AnswerCheck = { ok: true } | { ok: false; reason: string }

/** A deny with no message of its own tells the agent this. */
export const DEFAULT_DENY_MESSAGE = 'The user denied this from Navi.'
/** The longest message passed on to the agent. */
export const MAX_ANSWER_MESSAGE = 2000

/**
 * Whether the answer may be written for the handler to take.
 * @param waiting the handler's marker and whether its pid lives; null when there is none.
 */
export function checkAnswer(opts: {
  pending: PendingRequest | null
  answer: AnswerInput
  waiting: (WaitingMarker & { alive: boolean }) | null
  onFile: AnswerOnFile
  now: number
  /**
   * `tmux`: typed into the pane's dialog instead (adapters/tmux-keys.ts checks the screen), so no
   * handler need wait. @default 'hook'
   */
  via?: 'hook' | 'tmux'
}): AnswerCheck {
  const { pending, answer, waiting, onFile, now } = opts
  if (!pending) return refuse('no permission request is pending in this session')
  if (pending.request_id !== answer.request_id) {
    return refuse(
      'stale answer: that request is no longer pending (answered elsewhere, or replaced by another)',
    )
  }
  if (pending.tool !== answer.tool || pending.input_digest !== answer.input_digest) {
    return refuse('the request changed since it was shown: nothing was answered')
  }
  if (opts.via === 'tmux') return { ok: true }
  if (onFile === 'taken') return refuse('that request was already answered from Navi')
  if (onFile === 'deny' && answer.decision === 'allow') {
    return refuse('that request was already denied (a deny wins over an allow)')
  }
  if (!waiting || !waiting.alive || waiting.deadlineMs <= now) {
    return refuse(
      'the agent no longer waits for an answer from Navi: its own dialog decides (answer it there)',
    )
  }
  return { ok: true }
}

function refuse(reason: string): AnswerCheck {
  return { ok: false, reason }
}

/** What the PermissionRequest hook prints (the same for Claude Code and Codex). */
export function hookAnswerOutput(decision: AnswerDecision, message?: string): string {
  const behavior =
    decision === 'allow'
      ? { behavior: 'allow' }
      : { behavior: 'deny', message: denyMessage(message) }
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: behavior },
  })
}

function denyMessage(message: string | undefined): string {
  const text = (message ?? '').trim().slice(0, MAX_ANSWER_MESSAGE)
  return text.length > 0 ? text : DEFAULT_DENY_MESSAGE
}

/** Which answer a `.taken` file holds (the handler printed it). */
export function takenDecision(text: string): AnswerDecision | null {
  if (/"behavior"\s*:\s*"deny"/.test(text)) return 'deny'
  if (/"behavior"\s*:\s*"allow"/.test(text)) return 'allow'
  return null
}

/** `<pid> <deadline in epoch seconds>`, as the handler writes it. */
export function parseWaitingMarker(text: string): WaitingMarker | null {
  const match = /^(\d+) (\d+)\s*$/.exec(text)
  if (!match) return null
  const pid = Number(match[1])
  const deadline = Number(match[2])
  if (!Number.isSafeInteger(pid) || pid <= 1 || !Number.isSafeInteger(deadline)) return null
  return { pid, deadlineMs: deadline * 1000 }
}

/**
 * A request id as the handler makes them (mktemp's random letters): also what keeps a request id from
 * naming any other file.
 */
export function isRequestId(id: string): boolean {
  return /^[A-Za-z0-9]{6,32}$/.test(id)
}

/**
 * A short digest of a tool call's input: the same call gives the same digest whatever the key order,
 * and any change of a value gives another.
 */
export function inputDigest(input: unknown): string {
  return sha256Hex(canonicalJson(input)).slice(0, 16)
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * The session with its pending request's `answer_until`: the end of the wait of the handler that holds
 * it, when one does (`waiting`: request id → deadline ms, from adapters/answers-dir.ts).
 */
export function withAnswerWindow(session: Session, waiting: ReadonlyMap<string, number>): Session {
  const pending = session.pending_request
  const deadline = pending?.request_id ? waiting.get(pending.request_id) : undefined
  const answerUntil = deadline === undefined ? null : new Date(deadline).toISOString()
  if (!pending || pending.answer_until === answerUntil) return session
  return { ...session, pending_request: { ...pending, answer_until: answerUntil } }
}
