/**
 * Answers a session's pending permission request from Navi (the popover, a browser, `navi answer`):
 * checks that the answer names the request the agent waits on now (core/answer-rules.ts), then either
 * puts it where Navi's waiting hook takes it (adapters/answers-dir.ts) and waits a moment to see it
 * taken, or, when no hook holds the request and the session runs in tmux, types the dialog's key into
 * its pane once the pane shows that very dialog (adapters/tmux-keys.ts). Every answer, refused ones too,
 * is logged to `$NAVI_HOME/answers.jsonl`.
 */
import { join } from 'node:path'
import type { CommandResult } from '../../shared/ipc-contract.ts'
import type {
  AnswerFace,
  AnswerRecord,
  AnsweringState,
  SessionAnswerInput,
} from '../../shared/schemas/answer.ts'
import type { Session } from '../../shared/schemas/session.ts'
import { errorText, type Log } from '../../shared/log.ts'
import { clipText, inertLine as inertText } from '../../shared/text.ts'
import {
  answerOnFile,
  answersDir,
  awaitTaken,
  readOptIn,
  readWaiting,
  setOptIn,
  writeAnswer,
} from '../engine/adapters/answers-dir.ts'
import { appendDurably } from '../engine/adapters/safe-write.ts'
import { answerInPane } from '../engine/adapters/tmux-keys.ts'
import { checkAnswer, hookAnswerOutput, isRequestId } from '../engine/core/answer-rules.ts'
import type { EnginePaths } from '../engine/core/paths.ts'

/** How long an answer waits to be seen taken before it is reported as on its way (the hook looks 4×/s). */
const TAKEN_WITHIN_MS = 3000

export const answerLogPath = (paths: EnginePaths) => join(paths.naviHome, 'answers.jsonl')

export interface AnswerDeps {
  paths: EnginePaths
  /** The sessions as the engine sees them now (a running engine refreshes first: answers act on now). */
  sessions(): readonly Session[] | Promise<readonly Session[]>
  by: AnswerFace
  log?: Log
  /** How long to wait for the hook to take the answer before reporting it queued. @default 3 s */
  takenWithinMs?: number
  /** @default adapters/tmux-keys.ts answerInPane */
  answerInPane?: typeof answerInPane
  now?: () => number
}

export async function answerPermissionRequest(
  deps: AnswerDeps,
  input: SessionAnswerInput,
): Promise<CommandResult> {
  const now = deps.now?.() ?? Date.now()
  const session = (await deps.sessions()).find((s) => s.id === input.session_id) ?? null
  const dir = answersDir(deps.paths.naviHome)
  let path: AnswerRecord['path'] = 'hook'
  const record = (
    outcome: AnswerRecord['outcome'],
    taken: AnswerRecord['taken'],
    reason: string | null,
  ): AnswerRecord => ({
    at: new Date(now).toISOString(),
    session_id: input.session_id,
    session_name: session?.name ?? null,
    project_dir: session?.project_dir ?? null,
    request_id: input.request_id,
    tool: input.tool,
    detail: session?.pending_request?.detail ?? null,
    decision: input.decision,
    message: input.message ?? null,
    by: deps.by,
    path,
    outcome,
    taken,
    reason,
  })
  const finish = async (entry: AnswerRecord, result: CommandResult): Promise<CommandResult> => {
    await appendAnswerLog(deps, entry)
    return result
  }

  if (!session) {
    const reason = `no session ${inertText(input.session_id)}`
    return finish(record('refused', null, reason), { done: false, message: reason })
  }
  // Checked before the id names any file: only ids the hook handler makes get that far.
  if (!isRequestId(input.request_id)) {
    const reason = 'not a request id Navi gave'
    return finish(record('refused', null, reason), { done: false, message: reason })
  }
  const waiting = readWaiting(dir, input.request_id)
  const held = waiting !== null && waiting.alive && waiting.deadlineMs > now
  const pane = session.tmux_pane && session.tmux_socket
  // Navi's hook holds the request: the answer goes through it. Else, in tmux: the dialog's key.
  path = !held && pane ? 'tmux' : 'hook'
  const check = checkAnswer({
    pending: session.pending_request,
    answer: input,
    waiting,
    onFile: answerOnFile(dir, input.request_id),
    now,
    via: path,
  })
  if (!check.ok) {
    return finish(record('refused', null, check.reason), { done: false, message: check.reason })
  }
  const detail = session.pending_request?.detail
  const call = detail ? `${input.tool} (${clipText(detail, 80)})` : input.tool
  const what = `${input.decision === 'allow' ? 'allowed' : 'denied'} ${inertText(call)}`
  if (path === 'tmux' && session.tmux_pane && session.tmux_socket && session.pending_request) {
    const typed = await (deps.answerInPane ?? answerInPane)(
      { socket: session.tmux_socket, pane: session.tmux_pane },
      session.pending_request,
      input.decision,
      input.message,
    )
    return typed.done
      ? finish(record('delivered', input.decision, null), {
          done: true,
          message: `${what} in ${inertText(session.name)} (${typed.message})`,
        })
      : finish(record('refused', null, typed.message), { done: false, message: typed.message })
  }
  await writeAnswer(
    dir,
    input.request_id,
    input.decision,
    hookAnswerOutput(input.decision, input.message),
  )
  const taken = await awaitTaken(dir, input.request_id, deps.takenWithinMs ?? TAKEN_WITHIN_MS)
  if (taken === null) {
    return finish(record('queued', null, null), {
      done: true,
      message: `${what}: on its way to ${inertText(session.name)} (not taken yet)`,
    })
  }
  if (taken !== input.decision) {
    const reason = 'a deny given at the same moment won'
    return finish(record('delivered', taken, reason), { done: false, message: reason })
  }
  return finish(record('delivered', taken, null), {
    done: true,
    message: `${what} in ${inertText(session.name)}`,
  })
}

async function appendAnswerLog(deps: AnswerDeps, entry: AnswerRecord): Promise<void> {
  try {
    await appendDurably(answerLogPath(deps.paths), Buffer.from(`${JSON.stringify(entry)}\n`))
  } catch (error) {
    deps.log?.error(`answer log not written: ${errorText(error)}`)
  }
  const line = `${entry.by} ${entry.decision} ${entry.tool} in ${entry.session_id} (request ${entry.request_id}): ${entry.outcome}${entry.reason ? ` (${entry.reason})` : ''}`
  if (entry.outcome === 'refused') deps.log?.warn(line)
  else deps.log?.info(line)
}

/** Who the hook waits for, and the configured wait. */
export function answeringState(paths: EnginePaths, waitSeconds: number): AnsweringState {
  const optIn = readOptIn(answersDir(paths.naviHome))
  return { ...optIn, wait_seconds: waitSeconds }
}

/** Turns away mode (every session) or one session's opt-in on or off, with the configured wait. */
export async function setAnswering(
  paths: EnginePaths,
  target: { session_id?: string | undefined; on: boolean },
  waitSeconds: number,
): Promise<AnsweringState> {
  await setOptIn(
    answersDir(paths.naviHome),
    target.session_id ?? null,
    target.on ? waitSeconds : null,
  )
  return answeringState(paths, waitSeconds)
}
