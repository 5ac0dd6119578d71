import { describe, expect, it } from 'vitest'
import { tmuxSocketDir } from '../../electron/engine/adapters/pane-locator.ts'

const uid = typeof process.getuid === 'function' ? process.getuid() : 0

describe('where tmux keeps its sockets', () => {
  it('is $TMUX_TMPDIR/tmux-<uid>, else /tmp/tmux-<uid>, whatever TMPDIR says (as tmux does)', () => {
    // macOS sets TMPDIR for every user; tmux's servers are in /tmp all the same.
    expect(tmuxSocketDir({ TMPDIR: '/var/folders/xy/T' })).toBe(`/tmp/tmux-${String(uid)}`)
    expect(tmuxSocketDir({})).toBe(`/tmp/tmux-${String(uid)}`)
    expect(tmuxSocketDir({ TMPDIR: '/x', TMUX_TMPDIR: '/run/user/7' })).toBe(
      `/run/user/7/tmux-${String(uid)}`,
    )
  })
})
