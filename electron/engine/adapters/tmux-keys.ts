/**
 * Typing into an agent's tmux pane, only after checking what it shows (core/tmux-dialog.ts): the number
 * that answers the very permission dialog being answered, or a reply at the agent's prompt. tmux runs
 * with an argument array, never a shell, and text goes with `send-keys -l` (literal: never read as key
 * names). Never throws: every failure is a `done: false` with the reason.
 */
import type { CommandResult } from '../../../shared/ipc-contract.ts'
import type { PendingRequest } from '../../../shared/schemas/session.ts'
import {
  dialogShowsRequest,
  keyFor,
  readPermissionDialog,
  readyForInput,
  typedLine,
} from '../core/tmux-dialog.ts'
import { tmuxCommand, type TmuxTarget } from './tmux-focus.ts'

const PANE_ID = /^%\d+$/
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Tmux = ReturnType<typeof tmuxCommand>

const tmuxAt = (target: TmuxTarget): Tmux => tmuxCommand(target.socket)

function checkTarget(target: TmuxTarget): string | null {
  if (!PANE_ID.test(target.pane)) return `not a tmux pane id: ${JSON.stringify(target.pane)}`
  if (target.socket === '') return 'no tmux socket for this pane'
  return null
}

/**
 * Answers the permission dialog on the pane's screen with its number, after checking it is the dialog of
 * `pending`; with a deny message, types the message at the prompt the interrupted turn leaves.
 */
export async function answerInPane(
  target: TmuxTarget,
  pending: PendingRequest,
  decision: 'allow' | 'deny',
  message?: string,
): Promise<CommandResult> {
  const bad = checkTarget(target)
  if (bad) return { done: false, message: bad }
  const tmux = tmuxAt(target)
  const capture = () => tmux('capture-pane', '-p', '-t', target.pane)
  // A dialog ignores keys for a moment after it opens: a key that did nothing is sent again, and only
  // while that very dialog is still on screen.
  for (let attempt = 0; attempt < 4; attempt++) {
    const screen = await capture()
    if (!screen.ok) return { done: false, message: `tmux capture-pane failed: ${screen.error}` }
    const dialog = readPermissionDialog(screen.stdout)
    if (!dialog || !dialogShowsRequest(dialog, pending)) {
      if (attempt > 0) return typeMessage(tmux, target, decision, message)
      return {
        done: false,
        message: dialog
          ? 'the pane shows another permission dialog: nothing was typed'
          : 'the pane shows no permission dialog: nothing was typed',
      }
    }
    const key = keyFor(dialog, decision)
    if (key === null) return { done: false, message: 'the dialog has no plain Yes / No option' }
    // A named key (Escape) is sent as such; a number or letter literally.
    const literal = key.length === 1 ? ['-l'] : []
    const sent = await tmux('send-keys', '-t', target.pane, ...literal, key)
    if (!sent.ok) return { done: false, message: `tmux send-keys failed: ${sent.error}` }
    await sleep(400 + attempt * 300)
  }
  return { done: false, message: 'the dialog stayed on screen after its key was sent' }
}

async function typeMessage(
  tmux: Tmux,
  target: TmuxTarget,
  decision: 'allow' | 'deny',
  message: string | undefined,
): Promise<CommandResult> {
  const text = message === undefined ? '' : typedLine(message)
  if (decision === 'allow' || text === '') {
    return { done: true, message: `${decision === 'allow' ? 'allowed' : 'denied'} in the terminal` }
  }
  // "No" interrupts the turn; the reason goes to the agent as the next prompt.
  const typed = await replyInPane(target, text, tmux)
  return typed.done
    ? { done: true, message: 'denied in the terminal, with the reason as the next prompt' }
    : { done: true, message: `denied in the terminal; the reason was not typed: ${typed.message}` }
}

/** Types a reply at the agent's prompt and presses Enter, once the pane waits there (bounded). */
export async function replyInPane(
  target: TmuxTarget,
  text: string,
  tmux: Tmux = tmuxAt(target),
): Promise<CommandResult> {
  const bad = checkTarget(target)
  if (bad) return { done: false, message: bad }
  const line = typedLine(text)
  if (line === '') return { done: false, message: 'nothing to send' }
  for (let attempt = 0; ; attempt++) {
    const screen = await tmux('capture-pane', '-p', '-t', target.pane)
    if (!screen.ok) return { done: false, message: `tmux capture-pane failed: ${screen.error}` }
    if (readyForInput(screen.stdout)) break
    if (attempt >= 10) return { done: false, message: 'the pane does not wait at its prompt' }
    await sleep(300)
  }
  const typed = await tmux('send-keys', '-t', target.pane, '-l', line)
  if (!typed.ok) return { done: false, message: `tmux send-keys failed: ${typed.error}` }
  await sleep(150)
  const entered = await tmux('send-keys', '-t', target.pane, 'Enter')
  if (!entered.ok) return { done: false, message: `tmux send-keys failed: ${entered.error}` }
  return { done: true, message: 'sent' }
}
