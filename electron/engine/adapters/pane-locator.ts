/**
 * Finds the tmux pane each session runs in, for "go to session". Every tmux server of this user is asked
 * (the default one and those started with `-L name`, whose sockets share a folder), but only when a pid
 * shows up that is not located yet: an idle engine spawns no tmux process.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { findPaneForPid, listTmuxPanes, readParentPid } from './tmux.ts'

export interface PaneLocation {
  pane: string
  socket: string
}

export interface PaneLocator {
  locate(pids: number[]): Promise<Map<number, PaneLocation>>
}

/**
 * Where tmux keeps the sockets of this user's servers: `$TMUX_TMPDIR/tmux-<uid>`, else `/tmp/tmux-<uid>`.
 * tmux does not follow TMPDIR (macOS sets it for every user, to a folder of its own): a locator that did
 * looked where no tmux server ever was.
 */
export function tmuxSocketDir(env: NodeJS.ProcessEnv = process.env): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0
  return join(env.TMUX_TMPDIR || '/tmp', `tmux-${uid}`)
}

export function createPaneLocator(socketDir = tmuxSocketDir()): PaneLocator {
  const known = new Map<number, PaneLocation | null>()
  return {
    async locate(pids) {
      const unknown = pids.filter((pid) => !known.has(pid))
      if (unknown.length > 0) {
        // No socket folder: no tmux server runs, so no session has a pane (tmux is optional).
        const sockets = await readdir(socketDir).catch(() => [] as string[])
        const servers = await Promise.all(
          sockets.map(async (name) => {
            const socket = join(socketDir, name)
            return { socket, panes: await listTmuxPanes(socket) }
          }),
        )
        for (const pid of unknown) {
          let found: PaneLocation | null = null
          for (const { socket, panes } of servers) {
            const pane = findPaneForPid(pid, panes, readParentPid)
            if (pane) {
              found = { pane: pane.paneId, socket }
              break
            }
          }
          known.set(pid, found)
        }
      }
      const wanted = new Set(pids)
      for (const pid of known.keys()) if (!wanted.has(pid)) known.delete(pid)
      const result = new Map<number, PaneLocation>()
      for (const pid of pids) {
        const location = known.get(pid)
        if (location) result.set(pid, location)
      }
      return result
    },
  }
}
