/**
 * "Go to session": makes a tmux pane the active one of its window and session and, when a terminal is
 * attached to that server, switches it there. tmux is always run with an argument array, never a shell.
 */
import { loadExeca } from './execa-lazy.ts'
import type { CommandResult } from '../../../shared/ipc-contract.ts'
import { tmuxServerArgs } from './tmux.ts'

export interface TmuxTarget {
  /** The server: a socket path (`-S`) or, without a slash, a socket name (`-L`). */
  socket: string
  /** Pane id such as `%3`. */
  pane: string
}

const PANE_ID = /^%\d+$/

/** What one tmux command gave: its output, or why it failed. */
export type TmuxResult = { ok: true; stdout: string } | { ok: false; error: string }

/** Runs tmux commands on one server (argument arrays, 3 s each); never throws. */
export function tmuxCommand(socket: string): (...args: string[]) => Promise<TmuxResult> {
  const server = tmuxServerArgs(socket)
  return async (...args) => {
    try {
      const { execa } = await loadExeca()
      const result = await execa('tmux', [...server, ...args], {
        reject: false,
        timeout: 3_000,
        stdin: 'ignore',
      })
      return result.exitCode === 0
        ? { ok: true, stdout: String(result.stdout) }
        : {
            ok: false,
            error: String(result.stderr).trim() || `tmux exited with ${result.exitCode}`,
          }
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) }
    }
  }
}

/** Never throws: every failure is a `done: false` with the reason. */
export async function focusTmuxPane(target: TmuxTarget): Promise<CommandResult> {
  if (!PANE_ID.test(target.pane)) {
    return { done: false, message: `not a tmux pane id: ${JSON.stringify(target.pane)}` }
  }
  if (target.socket === '') return { done: false, message: 'no tmux socket for this pane' }
  const tmux = tmuxCommand(target.socket)

  for (const command of ['select-window', 'select-pane']) {
    const step = await tmux(command, '-t', target.pane)
    if (!step.ok) return { done: false, message: `tmux ${command} failed: ${step.error}` }
  }
  const clients = await tmux('list-clients', '-F', '#{client_activity} #{client_name}')
  const client = clients.ok ? mostRecentClient(clients.stdout) : null
  if (!client) {
    return {
      done: true,
      message: `selected pane ${target.pane}; no terminal is attached to that tmux server`,
    }
  }
  const moved = await tmux('switch-client', '-c', client, '-t', target.pane)
  if (!moved.ok) return { done: false, message: `tmux switch-client failed: ${moved.error}` }
  return { done: true, message: `switched ${client} to pane ${target.pane}` }
}

/** The name of the client with the latest activity, from `#{client_activity} #{client_name}` lines. */
export function mostRecentClient(listing: string): string | null {
  let best: { at: number; name: string } | null = null
  for (const line of listing.split('\n')) {
    const match = /^(\d+) (.+)$/.exec(line.trim())
    if (!match) continue
    const at = Number(match[1])
    if (!best || at > best.at) best = { at, name: match[2] ?? '' }
  }
  return best?.name ?? null
}
