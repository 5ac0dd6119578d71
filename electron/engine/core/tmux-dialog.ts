/**
 * What a Claude Code or Codex pane in tmux shows, read from `tmux capture-pane` text, only to check before Navi
 * types into it: that the permission dialog on screen is the very request being answered, which number
 * answers it, and that a pane waits at its prompt before a reply is typed. Navi never reads an agent's
 * state from the screen (the hooks and files say that); this only guards keys it sends. Pure.
 *
 * The dialog (observed on 2.1.197 and 2.1.331): a title (`Bash command`, `Create file`, …), the command
 * or file (a long command wrapped by the CLI itself behind a `│ ` gutter), a question (`Do you want to
 * proceed?`, `Do you want to create notes.md?`), numbered options (`1. Yes` … `N. No`, the selected one
 * behind `❯`) and a footer `Esc to cancel`. A number key answers at once.
 *
 * Codex's (observed on 0.169): the call (`• Running echo …`), a question (`Would you like to run the
 * following command?`), then `Environment: …`, `Reason: <the agent's words>`, `$ <command>`, options with
 * their shortcut (`› 1. Yes, proceed (y)`, `2. Yes, and don't ask again … (p)`, `3. No, and tell Codex
 * what to do differently (esc)`) and a footer `Press enter to confirm or esc to cancel`. Its shortcut
 * answers at once; a number only moves the selection. Its prompt is a `›` line.
 */
import type { PendingRequest } from '../../../shared/schemas/session.ts'

export interface PaneDialog {
  question: string
  /** `key`: the option's own shortcut (Codex's `(y)`, `(esc)`), which answers at once. */
  options: { n: number; label: string; key?: string }[]
  /** The dialog's text above its question, without any whitespace (wrapping cannot split a match). */
  compact: string
}

const QUESTION = /^(?:Do you want to|Would you like to) .+\?$/
// Non-ASCII characters are written as escapes: the CLI bundle stays ASCII (scripts/cli-bundle.ts).
/** An option line, after the selected one's pointer: `❯` (claude) or `›` (codex). */
const OPTION = /^(?:[\u276F\u203A]\s*)?(\d)\.\s+(.+)$/
/** A line starting with that pointer. */
const POINTED = /^[\u276F\u203A]/
/** A Codex option's shortcut at its end: `(y)`, `(esc)`. */
const SHORTCUT = /\((y|n|a|p|esc)\)$/
const FOOTER = /esc to cancel/i
/** How far above its question a dialog's command or file may start. */
const DIALOG_LINES = 40

function screenLines(screen: string): string[] {
  // Without a box's left edge (│).
  return screen.split('\n').map((line) => line.replace(/^\s*\u2502\s?/, '').trim())
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
  const between: string[] = []
  let footer = false
  for (const line of lines.slice(at + 1, at + 1 + DIALOG_LINES)) {
    const option = OPTION.exec(line)
    if (option) {
      const label = (option[2] ?? '').trim()
      const key = SHORTCUT.exec(label)?.[1]
      options.push({ n: Number(option[1]), label, ...(key ? { key } : {}) })
    } else if (FOOTER.test(line)) {
      footer = true
      break
    } else if (options.length > 0 && line !== '') break
    // Codex draws the command, its reason and environment between the question and the options.
    else if (options.length === 0) between.push(line)
  }
  if (!footer || options.length < 2) return null
  const above = lines.slice(Math.max(0, at - DIALOG_LINES), at).join('')
  const compact = `${above}${between.join('')}`.replace(/\s+/g, '')
  return { question: lines[at] ?? '', options, compact }
}

/**
 * Whether the dialog is for this request: its command, or its file (the dialog names a new file by its
 * base name), is on it. A detail Navi cut short counts up to the cut.
 */
export function dialogShowsRequest(dialog: PaneDialog, pending: PendingRequest): boolean {
  const detail = (pending.detail ?? '').replace(/\u2026$/, '') // Navi's cut (…)
  if (detail.trim() === '') return false
  const candidates = [detail]
  if (detail.startsWith('/')) candidates.push(detail.slice(detail.lastIndexOf('/') + 1))
  const question = dialog.question.replace(/\s+/g, '')
  return candidates
    .map((text) => text.replace(/\s+/g, ''))
    .some((text) => text.length >= 3 && (dialog.compact.includes(text) || question.includes(text)))
}

/**
 * The key that answers: Claude Code's option that is exactly "Yes" to allow or exactly "No" to deny (its
 * number); Codex's "Yes, proceed" or "No, and tell Codex …" (its shortcut: `y`, or Escape).
 */
export function keyFor(dialog: PaneDialog, decision: 'allow' | 'deny'): string | null {
  const exact = decision === 'allow' ? 'Yes' : 'No'
  const codex = decision === 'allow' ? /^Yes, proceed \(y\)$/ : /^No, and tell .+ \(esc\)$/
  const option = dialog.options.find((o) => o.label === exact || codex.test(o.label))
  if (!option) return null
  if (option.key === 'esc') return 'Escape'
  return option.key ?? String(option.n)
}

/**
 * The pane waits at its prompt: no dialog, no turn running (`esc to interrupt`), and the prompt line
 * (Claude Code's `❯`, Codex's `›`, not an option of a dialog) among its last lines.
 */
export function readyForInput(screen: string): boolean {
  const lines = screenLines(screen).filter((line) => line !== '')
  if (lines.some((line) => QUESTION.test(line))) return false
  if (/esc to interrupt/i.test(screen)) return false
  return lines.slice(-8).some((line) => POINTED.test(line) && !OPTION.test(line))
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
