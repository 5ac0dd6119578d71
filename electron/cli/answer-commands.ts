/**
 * `navi answer <session> allow|deny [--message M] [--request ID]`, `navi reply <session> "…"` and
 * `navi away on|off|status [SESSION]`: answering an agent's permission request from the terminal
 * (through Navi's waiting hook, or its tmux pane), replying to an agent that waits, and choosing when
 * Navi's hook waits for Navi at all.
 */
import type { CommandResult } from '../../shared/ipc-contract.ts'
import { answerToPending, type AnsweringState } from '../../shared/schemas/answer.ts'
import type { Session } from '../../shared/schemas/session.ts'
import { inertLine } from '../../shared/text.ts'
import { answeringState, answerPermissionRequest, setAnswering } from '../runtime/answer-request.ts'
import type { EnginePaths } from '../runtime/paths.ts'
import { replyToSession } from '../runtime/reply-request.ts'
import { printErr } from './output.ts'

type Print = (json: unknown, text: string) => void

/** A session named by its id, a prefix of its id (4+ characters) or its name; null with the reason. */
export function findSession(
  sessions: readonly Session[],
  ref: string,
): { session: Session } | { error: string } {
  const exact = sessions.find((s) => s.id === ref)
  if (exact) return { session: exact }
  const matches = sessions.filter(
    (s) => (ref.length >= 4 && s.id.startsWith(ref)) || s.name === ref,
  )
  if (matches.length === 1 && matches[0]) return { session: matches[0] }
  if (matches.length === 0) return { error: `no session "${inertLine(ref)}" (see navi sessions)` }
  const names = matches.map((s) => `${inertLine(s.name)} (${s.id.slice(0, 8)})`).join(', ')
  return { error: `"${inertLine(ref)}" names ${String(matches.length)} sessions: ${names}` }
}

export async function answerCommand(opts: {
  paths: EnginePaths
  sessions: () => Promise<Session[]>
  args: string[]
  message: string | undefined
  request: string | undefined
  print: Print
}): Promise<number> {
  const [ref, decision] = opts.args
  if (!ref || (decision !== 'allow' && decision !== 'deny')) {
    printErr(
      'usage: navi answer <session> allow|deny [--message "what to do instead"] [--request ID]',
    )
    return 2
  }
  if (opts.message !== undefined && decision === 'allow') {
    printErr('navi: --message goes with deny (it tells the agent what to do instead)')
    return 2
  }
  const sessions = await opts.sessions()
  const found = findSession(sessions, ref)
  if ('error' in found) return fail(opts.print, found.error)
  const { session } = found
  const pending = session.pending_request
  if (!pending) {
    return fail(opts.print, `${inertLine(session.name)} is not waiting on a permission request`)
  }
  if (!pending.request_id || !pending.input_digest) {
    return fail(
      opts.print,
      `${inertLine(session.name)} asks for ${inertLine(pending.tool)}, but Navi's hook does not hold the request ` +
        '(hooks not installed, or a call too large to show whole): answer it in its terminal',
    )
  }
  if (opts.request !== undefined && opts.request !== pending.request_id) {
    return fail(
      opts.print,
      `stale answer: request ${inertLine(opts.request)} is no longer pending (now: ${pending.request_id})`,
    )
  }
  const answer = answerToPending(session, decision, opts.message)
  if (!answer) return fail(opts.print, `${inertLine(session.name)}: the request is not named`)
  const result = await answerPermissionRequest(
    { paths: opts.paths, sessions: () => sessions, by: 'cli' },
    answer,
  )
  opts.print(result, result.message)
  return result.done ? 0 : 1
}

function fail(print: Print, message: string): number {
  const result: CommandResult = { done: false, message }
  print(result, message)
  return 1
}

export async function replyCommand(opts: {
  paths: EnginePaths
  sessions: () => Promise<Session[]>
  args: string[]
  print: Print
}): Promise<number> {
  const [ref, ...words] = opts.args
  const text = words.join(' ').trim()
  if (!ref || text === '') {
    printErr('usage: navi reply <session> "what to tell it"')
    return 2
  }
  const sessions = await opts.sessions()
  const found = findSession(sessions, ref)
  if ('error' in found) return fail(opts.print, found.error)
  const result = await replyToSession(
    { paths: opts.paths, sessions: () => sessions, by: 'cli' },
    { session_id: found.session.id, text },
  )
  opts.print(result, result.message)
  return result.done ? 0 : 1
}

export async function awayCommand(opts: {
  paths: EnginePaths
  sessions: () => Promise<Session[]>
  args: string[]
  waitSeconds: () => Promise<number>
  print: Print
}): Promise<number> {
  const [mode, ref] = opts.args
  const waitSeconds = await opts.waitSeconds()
  if (mode === 'status' || mode === undefined) {
    const state = answeringState(opts.paths, waitSeconds)
    opts.print(state, formatAnswering(state))
    return 0
  }
  if (mode !== 'on' && mode !== 'off') {
    printErr('usage: navi away on|off|status [SESSION]')
    return 2
  }
  let sessionId: string | undefined
  if (ref !== undefined) {
    const found = findSession(await opts.sessions(), ref)
    if ('error' in found) return fail(opts.print, found.error)
    sessionId = found.session.id
  }
  const state = await setAnswering(
    opts.paths,
    { session_id: sessionId, on: mode === 'on' },
    waitSeconds,
  )
  opts.print(state, formatAnswering(state))
  return 0
}

export function formatAnswering(state: AnsweringState): string {
  const lines = [
    state.away !== null
      ? `Away: permission requests of every session wait up to ${String(state.away)}s for an answer from Navi.`
      : "Not away: permission requests go straight to the agent's own dialog.",
  ]
  const ids = Object.entries(state.sessions)
  if (ids.length > 0) {
    lines.push(
      `Answered from Navi: ${ids.map(([id, s]) => `${id.slice(0, 8)} (${String(s)}s)`).join(', ')}`,
    )
  }
  if (!state.listening) {
    lines.push(
      'No Navi is running (tray, navi watch or navi serve): the hook does not wait until one is.',
    )
  }
  return lines.join('\n')
}
