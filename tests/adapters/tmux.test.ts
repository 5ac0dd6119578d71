import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  findPaneForPid,
  listTmuxPanes,
  readParentPid,
} from '../../electron/engine/adapters/tmux.ts'

function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

const tmuxAvailable = hasTmux()
// A private server on a socket path in a temp dir (`-S`), removed afterwards with the dir.
let socketDir = ''
let socket = ''
const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' }).trim()

const suiteName = tmuxAvailable ? 'tmux panes' : 'tmux panes (skipped: tmux is not installed)'

describe.skipIf(!tmuxAvailable)(suiteName, () => {
  beforeAll(() => {
    socketDir = mkdtempSync(join(tmpdir(), 'navi-tmux-'))
    socket = join(socketDir, 'server')
    // A shell that runs sleep as a child, so the walk has to climb at least one level.
    tmux('new-session', '-d', '-s', 'navi test', '-x', '80', '-y', '20', 'sh -c "sleep 30; true"')
  })
  afterAll(() => {
    try {
      tmux('kill-server')
    } catch {
      // already gone
    }
    rmSync(socketDir, { recursive: true, force: true })
  })

  it('lists the panes of a server and finds the pane of a process by walking up', async () => {
    const panes = await listTmuxPanes(socket)
    expect(panes).toHaveLength(1)
    const pane = panes[0]
    expect(pane).toMatchObject({ session: 'navi test', window: 0 })
    expect(pane?.paneId).toMatch(/^%\d+$/)

    const sleepPid = await waitForChild(pane?.panePid ?? -1)
    expect(sleepPid).not.toBeNull()
    expect(sleepPid).not.toBe(pane?.panePid)
    expect(readParentPid(sleepPid ?? -1)).toBe(pane?.panePid)
    expect(findPaneForPid(sleepPid ?? -1, panes, readParentPid)?.paneId).toBe(pane?.paneId)
    expect(findPaneForPid(process.pid, panes, readParentPid)).toBeNull()
  })

  it('gives [] when no server runs on the socket', async () => {
    expect(await listTmuxPanes(join(socketDir, 'none'))).toEqual([])
    expect(await listTmuxPanes(`navi-test-no-server-${process.pid}`)).toEqual([])
  })
})

describe('readParentPid', () => {
  it('reads the parent of this process and is null for a pid that does not exist', () => {
    expect(readParentPid(process.pid)).toBe(process.ppid)
    expect(readParentPid(2 ** 22 + 12345)).toBeNull()
  })
})

/** The `sleep` child of the pane's shell (pgrep -P), polled briefly while it starts. */
async function waitForChild(parent: number): Promise<number | null> {
  for (let i = 0; i < 50; i++) {
    try {
      const out = execFileSync('pgrep', ['-P', String(parent), 'sleep'], {
        encoding: 'utf8',
      }).trim()
      const pid = Number(out.split('\n')[0])
      if (Number.isInteger(pid) && pid > 0) return pid
    } catch {
      // not started yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return null
}
