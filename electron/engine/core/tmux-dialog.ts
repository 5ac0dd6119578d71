/**
 * What a Claude Code pane in tmux shows, read from `tmux capture-pane` text, only to check before Navi
 * types into it: that the permission dialog on screen is the very request being answered, which number
 * answers it, and that a pane waits at its prompt before a reply is typed. Navi never reads an agent's
 * state from the screen (the hooks and files say that); this only guards keys it sends. Pure.
 *
 * The dialog (observed on 2.1.197 and 2.1.331): a title (`Bash command`, `Create file`, …), the command
 * or file (a long command wrapped by the CLI itself behind a `│ ` gutter), a question (`Do you want to
 * proceed?`, `Do you want to create notes.md?`), numbered options (`1. Yes` … `N. No`, the selected one
 * behind `❯`) and a footer `Esc to cancel`. A number key answers at once.
 */
import type { PendingRequest } from '../../../shared/schemas/session.ts'

export interface PaneDialog {
  question: string
  options: { n: number; label: string }[]
  /** The dialog's text above its question, without any whitespace (wrapping cannot split a match). */
  compact: string
}

const QUESTION = /^Do you want to .+\?$/
const OPTION = /^(?:❯\s*)?(\d)\.\s+(.+)$/
/** How far above its question a dialog's command or file may start. */
const DIALOG_LINES = 40

function screenLines(screen: string): string[] {
  return screen.split('\n').map((line) => line.replace(/^\s*│\s?/, '').trim())
}

/** The permission dialog the screen shows, once fully drawn (its footer is there); else null. */
export function readPermissionDialog(screen: string): PaneDialog | null {
  const lines = screenLines(screen)
  let at = -1
  for (let i = lines.length - 1; i >= 0; i--) {
    if (QUESTION.test(lines[i] ?? '')) {
      at = i
      break
    }
  }
  if (at < 0) return null
  const options: PaneDialog['options'] = []
  let footer = false
  for (const line of lines.slice(at + 1)) {
    const option = OPTION.exec(line)
    if (option) options.push({ n: Number(option[1]), label: (option[2] ?? '').trim() })
    else if (/Esc to cancel/.test(line)) {
      footer = true
      break
    } else if (line !== '') break
  }
  if (!footer || options.length < 2) return null
  const above = lines.slice(Math.max(0, at - DIALOG_LINES), at).join('')
  return { question: lines[at] ?? '', options, compact: above.replace(/\s+/g, '') }
}

/**
 * Whether the dialog is for this request: its command, or its file (the dialog names a new file by its
 * base name), is on it. A detail Navi cut short counts up to the cut.
 */
export function dialogShowsRequest(dialog: PaneDialog, pending: PendingRequest): boolean {
  const detail = (pending.detail ?? '').replace(/…$/, '')
  if (detail.trim() === '') return false
  const candidates = [detail]
  if (detail.startsWith('/')) candidates.push(detail.slice(detail.lastIndexOf('/') + 1))
  const question = dialog.question.replace(/\s+/g, '')
  return candidates
    .map((text) => text.replace(/\s+/g, ''))
    .some((text) => text.length >= 3 && (dialog.compact.includes(text) || question.includes(text)))
}

/** The number that answers: the option that is exactly "Yes" to allow, exactly "No" to deny. */
export function optionFor(dialog: PaneDialog, decision: 'allow' | 'deny'): number | null {
  const label = decision === 'allow' ? 'Yes' : 'No'
  return dialog.options.find((option) => option.label === label)?.n ?? null
}

/**
 * The pane waits at its prompt: no dialog, no turn running (`esc to interrupt`), and the prompt line
 * (`❯`) among its last lines.
 */
export function readyForInput(screen: string): boolean {
  const lines = screenLines(screen).filter((line) => line !== '')
  if (lines.some((line) => QUESTION.test(line))) return false
  if (/esc to interrupt/i.test(screen)) return false
  return lines.slice(-8).some((line) => line.startsWith('❯'))
}

/** Text typed into a prompt as one line: a newline would send it early, control characters do things. */
export function typedLine(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- the control characters are what is removed
      .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
      .replace(/ {2,}/g, ' ')
      .trim()
  )
}
