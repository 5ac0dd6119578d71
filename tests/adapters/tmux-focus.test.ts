import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa, type ResultPromise } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { focusTmuxPane } from '../../electron/engine/adapters/tmux-focus.ts'
import { waitUntil } from '../support/wait.ts'

function has(bin: string, args: string[]): boolean {
  try {
    execFileSync(bin, args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

const tmuxAvailable = has('tmux', ['-V'])
// `script` gives the attached client the terminal tmux insists on.
const scriptAvailable = process.platform === 'linux' && has('script', ['--version'])

// A private server on a socket path in a temp dir (`-S`), removed afterwards with the dir.
let socketDir = ''
let socket = ''
const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' }).trim()
const active = (pane: string) =>
  tmux('display-message', '-p', '-t', pane, '#{window_active} #{pane_active}')

describe.skipIf(!tmuxAvailable)('focusTmuxPane against a real tmux server', () => {
  let first = ''
  let second = ''
  let third = ''

  beforeAll(() => {
    socketDir = mkdtempSync(join(tmpdir(), 'navi-focus-'))
    socket = join(socketDir, 'server')
    // Window 0 with one pane, window 1 split in two; window 1's last pane is the active one.
    first = tmux(
      'new-session',
      '-d',
      '-P',
      '-F',
      '#{pane_id}',
      '-s',
      'work',
      '-x',
      '80',
      '-y',
      '20',
      'sleep 60',
    )
    second = tmux('new-window', '-P', '-F', '#{pane_id}', '-t', 'work', 'sleep 60')
    third = tmux('split-window', '-P', '-F', '#{pane_id}', '-t', second, 'sleep 60')
  })
  afterAll(() => {
    try {
      tmux('kill-server')
    } catch {
      // already gone
    }
    rmSync(socketDir, { recursive: true, force: true })
  })

  it('selects the window and the pane; says so when no terminal is attached', async () => {
    expect(active(second)).toBe('1 0')
    const result = await focusTmuxPane({ socket, pane: second })
    expect(result).toEqual({
      done: true,
      message: `selected pane ${second}; no terminal is attached to that tmux server`,
    })
    expect(active(second)).toBe('1 1')
    expect(active(third)).toBe('1 0')

    expect((await focusTmuxPane({ socket, pane: first })).done).toBe(true)
    expect(active(first)).toBe('1 1')
    expect(active(second)).toBe('0 1')
  })

  it.skipIf(!scriptAvailable)('switches an attached client to the pane', async () => {
    tmux('new-session', '-d', '-s', 'other', '-x', '80', '-y', '20', 'sleep 60')
    const client: ResultPromise = execa(
      'script',
      ['-qfec', `tmux -S ${socket} attach -t other`, '/dev/null'],
      { reject: false, stdin: 'pipe', stdout: 'ignore', stderr: 'ignore', env: { TERM: 'xterm' } },
    )
    try {
      await waitUntil(
        () => tmux('list-clients', '-F', '#{client_session}') === 'other',
        10_000,
        'an attached client',
      )
      const result = await focusTmuxPane({ socket, pane: third })
      expect(result.done).toBe(true)
      expect(result.message).toMatch(new RegExp(`^switched .+ to pane ${third}$`))
      expect(tmux('list-clients', '-F', '#{client_session}')).toBe('work')
      expect(active(third)).toBe('1 1')
    } finally {
      client.kill('SIGKILL')
      await client
    }
  })

  it.each([
    ['a pane id that is not one', { pane: '3; kill-server' }, /not a tmux pane id/],
    ['a pane that does not exist', { pane: '%999' }, /tmux select-window failed/],
  ])('refuses %s', async (_, over, message) => {
    const result = await focusTmuxPane({ socket, ...over })
    expect(result.done).toBe(false)
    expect(result.message).toMatch(message)
    expect(tmux('list-sessions', '-F', '#{session_name}')).toContain('work')
  })

  it('fails cleanly when no server runs on the socket', async () => {
    const result = await focusTmuxPane({ socket: join(socketDir, 'none'), pane: '%0' })
    expect(result.done).toBe(false)
    expect(result.message).toMatch(/^tmux select-window failed: /)
  })
})
