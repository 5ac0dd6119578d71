import { childProcess } from './lazy-builtins.ts'
import { readFileSync } from 'node:fs'
import { loadExeca } from './execa-lazy.ts'
import {
  TMUX_PANE_FORMAT,
  parseProcStatParentPid,
  parseTmuxPanes,
  type TmuxPane,
} from '../core/tmux-parse.ts'

export { findPaneForPid, type TmuxPane } from '../core/tmux-parse.ts'

/** The tmux arguments that select the server of `socket`: a path (`-S`) or a name (`-L`). */
export function tmuxServerArgs(socket: string): string[] {
  return [socket.includes('/') ? '-S' : '-L', socket]
}

/**
 * Every pane of the tmux server on `socket` (a name for `-L`, or a path for `-S`; the default
 * server without it). No tmux installed, no server running or any failure gives [].
 */
export async function listTmuxPanes(socket?: string): Promise<TmuxPane[]> {
  const server = socket === undefined ? [] : tmuxServerArgs(socket)
  try {
    const { execa } = await loadExeca()
    const result = await execa('tmux', [...server, 'list-panes', '-a', '-F', TMUX_PANE_FORMAT], {
      reject: false,
      timeout: 3_000,
      stdin: 'ignore',
    })
    if (result.exitCode !== 0) return []
    return parseTmuxPanes(String(result.stdout))
  } catch {
    // tmux is optional: without it no session has a pane, which is not a failure.
    return []
  }
}

/**
 * The parent pid of `pid`: from `/proc/<pid>/stat` on Linux, `ps -o ppid= -p <pid>` elsewhere.
 * null when the process is gone or cannot be read.
 */
export function readParentPid(pid: number): number | null {
  if (!Number.isInteger(pid) || pid <= 0) return null
  if (process.platform === 'linux') {
    try {
      return parseProcStatParentPid(readFileSync(`/proc/${pid}/stat`, 'utf8'))
    } catch {
      return null
    }
  }
  try {
    // Synchronous, so plain Node's: a non-zero exit throws, which is "gone" here.
    const stdout = childProcess().execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], {
      encoding: 'utf8',
      timeout: 2_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    const parent = Number(stdout.trim())
    return Number.isInteger(parent) && parent >= 0 ? parent : null
  } catch {
    // The process is gone (ps exits 1) or ps cannot run: no parent to tell.
    return null
  }
}
