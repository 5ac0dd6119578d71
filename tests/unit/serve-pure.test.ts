import { describe, expect, it } from 'vitest'
import { openCommand } from '../../electron/cli/serve/open-url.ts'
import { parsePort } from '../../electron/cli/serve/serve-command.ts'
import { encodeSseEvent } from '../../electron/cli/serve/sse.ts'
import { mostRecentClient } from '../../electron/engine/adapters/tmux-focus.ts'
import { tmuxServerArgs } from '../../electron/engine/adapters/tmux.ts'
import { toolFix } from '../../electron/runtime/tools.ts'

describe('parsePort', () => {
  it.each<[string | undefined, number | null]>([
    [undefined, 0],
    ['0', 0],
    ['8080', 8080],
    ['65535', 65535],
    ['65536', null],
    ['-1', null],
    ['80a', null],
    ['', null],
    ['1e3', null],
  ])('%j → %j', (value, expected) => {
    expect(parsePort(value)).toBe(expected)
  })
})

describe('openCommand', () => {
  const url = 'http://127.0.0.1:1/?token=abc&x=1'
  it.each<[NodeJS.Platform, string, string[]]>([
    ['darwin', 'open', [url]],
    ['linux', 'xdg-open', [url]],
    ['win32', 'rundll32', ['url.dll,FileProtocolHandler', url]],
  ])('%s → %s', (platform, file, args) => {
    expect(openCommand(url, platform)).toEqual({ file, args })
  })
})

describe('encodeSseEvent', () => {
  it('writes one event with single-line JSON data, newlines escaped', () => {
    expect(encodeSseEvent('events:appended', [{ message: 'a\nb\r\n\nevent: x' }])).toBe(
      'event: events:appended\ndata: [{"message":"a\\nb\\r\\n\\nevent: x"}]\n\n',
    )
  })
  it('writes null for no payload', () => {
    expect(encodeSseEvent('pm:status', undefined)).toBe('event: pm:status\ndata: null\n\n')
  })
})

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

describe('toolFix', () => {
  it.each<[Parameters<typeof toolFix>[0], NodeJS.Platform, RegExp]>([
    ['claude', 'linux', /^npm install -g @anthropic-ai\/claude-code$/],
    ['git', 'darwin', /brew install git/],
    ['git', 'linux', /apt-get install git/],
    ['tmux', 'darwin', /brew install tmux/],
    ['gh', 'linux', /apt-get install gh.*gh auth login/],
  ])('%s on %s', (name, platform, expected) => {
    expect(toolFix(name, platform)).toMatch(expected)
  })
})
