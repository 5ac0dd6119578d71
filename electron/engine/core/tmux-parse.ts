/** Pure parsing for tmux panes and the process tree, so "go to session" can find a session's pane. */

export interface TmuxPane {
  /** `#{pane_id}`, e.g. `%3`: a target that stays valid when windows are renumbered. */
  paneId: string
  /** `#{pane_pid}`: the process tmux started in the pane (usually a shell). */
  panePid: number
  /** `#{session_name}`. */
  session: string
  /** `#{window_index}`. */
  window: number
}

/** `tmux list-panes -a -F TMUX_PANE_FORMAT`: the session name last, as it is free text. */
export const TMUX_PANE_FORMAT = '#{pane_id}\t#{pane_pid}\t#{window_index}\t#{session_name}'

/** Parses `tmux list-panes -a -F TMUX_PANE_FORMAT`; malformed lines are skipped. */
export function parseTmuxPanes(text: string): TmuxPane[] {
  const panes: TmuxPane[] = []
  for (const line of text.split('\n')) {
    const [paneId, pid, window, ...session] = line.split('\t')
    if (!paneId?.startsWith('%') || session.length === 0) continue
    if (!/^\d+$/.test(pid ?? '') || !/^\d+$/.test(window ?? '')) continue
    const panePid = Number(pid)
    if (panePid <= 0) continue
    panes.push({ paneId, panePid, session: session.join('\t'), window: Number(window) })
  }
  return panes
}

/**
 * The parent pid from the text of `/proc/<pid>/stat`: `pid (comm) state ppid …`. The command name
 * may hold spaces and parentheses, so fields are read after the LAST `)`.
 */
export function parseProcStatParentPid(text: string): number | null {
  const close = text.lastIndexOf(')')
  if (close < 0) return null
  const [, ppid] = text
    .slice(close + 1)
    .trim()
    .split(/\s+/)
  const parent = Number(ppid)
  return Number.isInteger(parent) && parent >= 0 ? parent : null
}

/** How far up the process tree to look before giving up. */
const MAX_DEPTH = 64

/**
 * The pane whose `pane_pid` is `pid` or one of its ancestors, walking up with `parentOf`; null when
 * the walk reaches init (pid 1), an unknown parent or a cycle without meeting a pane.
 */
export function findPaneForPid(
  pid: number,
  panes: readonly TmuxPane[],
  parentOf: (pid: number) => number | null,
): TmuxPane | null {
  if (panes.length === 0) return null
  const byPid = new Map(panes.map((pane) => [pane.panePid, pane]))
  const seen = new Set<number>()
  let current: number | null = pid
  for (let depth = 0; current !== null && current > 1 && depth < MAX_DEPTH; depth++) {
    const pane = byPid.get(current)
    if (pane) return pane
    if (seen.has(current)) return null
    seen.add(current)
    current = parentOf(current)
  }
  return null
}
