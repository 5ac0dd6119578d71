/**
 * Replies to an agent that waits on its user (`navi reply`, the popover's reply box): typed at its
 * prompt in its tmux pane, once the pane shows that prompt (adapters/tmux-keys.ts). Where the session
 * runs outside tmux there is no official way in: Claude Code's cross-session messaging is between its own
 * sessions, not a documented surface for other programs. Every reply is logged beside the answers.
 */
import type { CommandResult } from '../../shared/ipc-contract.ts'
import type { ReplyRecord, SessionReplyInput } from '../../shared/schemas/answer.ts'
import { inertLine } from '../../shared/text.ts'
import { errorText } from '../../shared/log.ts'
import { appendDurably } from '../engine/adapters/safe-write.ts'
import { replyInPane } from '../engine/adapters/tmux-keys.ts'
import { answerLogPath, type AnswerDeps } from './answer-request.ts'

const WAITS_ON_USER: ReadonlySet<string> = new Set(['waiting_input', 'idle'])

export async function replyToSession(
  deps: Omit<AnswerDeps, 'answerInPane'> & { replyInPane?: typeof replyInPane },
  input: SessionReplyInput,
): Promise<CommandResult> {
  const now = deps.now?.() ?? Date.now()
  const session = (await deps.sessions()).find((s) => s.id === input.session_id) ?? null
  const finish = async (done: boolean, message: string): Promise<CommandResult> => {
    const entry: ReplyRecord = {
      at: new Date(now).toISOString(),
      kind: 'reply',
      session_id: input.session_id,
      session_name: session?.name ?? null,
      text: input.text,
      by: deps.by,
      path: 'tmux',
      outcome: done ? 'delivered' : 'refused',
      reason: done ? null : message,
    }
    try {
      await appendDurably(answerLogPath(deps.paths), Buffer.from(`${JSON.stringify(entry)}\n`))
    } catch (error) {
      deps.log?.error(`answer log not written: ${errorText(error)}`)
    }
    return { done, message }
  }
  if (!session) return finish(false, `no session ${inertLine(input.session_id)}`)
  const name = inertLine(session.name)
  if (!WAITS_ON_USER.has(session.status)) {
    return finish(
      false,
      `${name} does not wait for a reply (it is ${session.status.replace('_', ' ')})`,
    )
  }
  if (!session.tmux_pane || !session.tmux_socket) {
    return finish(
      false,
      `${name} does not run in tmux: Navi cannot type into it; reply in its terminal (Go to session)`,
    )
  }
  const sent = await (deps.replyInPane ?? replyInPane)(
    { socket: session.tmux_socket, pane: session.tmux_pane },
    input.text,
  )
  return finish(sent.done, sent.done ? `replied to ${name}` : sent.message)
}
