/** `navi serve`'s pure parts: the --port value, the command that opens a browser, SSE framing. */
import { describe, expect, it } from 'vitest'
import { openCommand } from '../../electron/cli/serve/open-url.ts'
import { parsePort } from '../../electron/cli/serve/serve-command.ts'
import { encodeSseEvent } from '../../electron/cli/serve/sse.ts'

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
