/** The pure parts of the tmux adapters: the most recent client, the server arguments. */
import { describe, expect, it } from 'vitest'
import { mostRecentClient } from '../../electron/engine/adapters/tmux-focus.ts'
import { tmuxServerArgs } from '../../electron/engine/adapters/tmux.ts'

describe('tmux helpers', () => {
  it.each([
    ['1700000000 /dev/pts/1\n1700000050 /dev/pts/2\n1700000010 /dev/pts/3\n', '/dev/pts/2'],
    ['1700000000 client with spaces\n', 'client with spaces'],
    ['', null],
    ['garbage\n', null],
  ])('mostRecentClient(%j) → %j', (listing, expected) => {
    expect(mostRecentClient(listing)).toBe(expected)
  })

  it.each([
    ['/tmp/tmux-1000/default', ['-S', '/tmp/tmux-1000/default']],
    ['work', ['-L', 'work']],
  ])('server args for %s', (socket, args) => {
    expect(tmuxServerArgs(socket)).toEqual(args)
  })
})
