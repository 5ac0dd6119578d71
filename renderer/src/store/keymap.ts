/** The popover's keyboard, as a pure decision: a key in a context becomes a command (or nothing). */

export type View = 'overview' | 'project' | 'settings' | 'tasks'
export type Zone = 'projects' | 'events'

export type KeyCommand =
  | { kind: 'toggle-zone' }
  | { kind: 'move'; delta: 1 | -1 }
  | { kind: 'open' }
  | { kind: 'expand' }
  | { kind: 'back' }
  | { kind: 'hide' }
  | { kind: 'refresh' }

export interface KeyContext {
  /** `KeyboardEvent.key`. */
  key: string
  /** Ctrl, Meta or Alt held: the key belongs to the OS or the browser. */
  modified: boolean
  view: View
  zone: Zone
  /**
   * Where the key lands: a text field (typing, so only Esc counts), a button or link (which handles Enter and
   * Space itself), or anything else.
   */
  target: 'text' | 'control' | 'other'
}

/**
 * Tab switches zone 2 ⇄ 3; j/k and the arrows move; Enter opens the project; Space expands it inline; `r`
 * refreshes the briefing; Esc or Backspace goes back from a detail or Settings; Esc on the overview hides.
 */
export function decideKey(ctx: KeyContext): KeyCommand | null {
  if (ctx.modified) return null
  const { key, view, target } = ctx
  if (key === 'Escape') return view === 'overview' ? { kind: 'hide' } : { kind: 'back' }
  if (target === 'text') return null
  if (key === 'Backspace') return view === 'overview' ? null : { kind: 'back' }
  if (key === 'r') return { kind: 'refresh' }
  if (view !== 'overview') return null
  if (key === 'Tab') return { kind: 'toggle-zone' }
  if (key === 'j' || key === 'ArrowDown') return { kind: 'move', delta: 1 }
  if (key === 'k' || key === 'ArrowUp') return { kind: 'move', delta: -1 }
  if (target === 'control') return null
  if (key === 'Enter') return { kind: 'open' }
  if (key === ' ' && ctx.zone === 'projects') return { kind: 'expand' }
  return null
}
