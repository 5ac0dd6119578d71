import { describe, expect, it } from 'vitest'
import {
  DEFAULT_PATH_EXTRAS,
  LOGIN_SHELL_PATH_SCRIPT,
  expandTilde,
  mergePath,
  parseLoginShellPath,
} from '../../electron/main/fix-path-core.ts'

const wrap = (path: string) => `__NAVI_PATH_BEGIN__${path}__NAVI_PATH_END__`

describe('parseLoginShellPath', () => {
  it.each<[string, string, string | null]>([
    ['bare', wrap('/usr/bin:/bin'), '/usr/bin:/bin'],
    [
      'banner and motd around it',
      `Welcome to zsh!\nLast login: Mon\n${wrap('/opt/homebrew/bin:/usr/bin')}\nbye\n`,
      '/opt/homebrew/bin:/usr/bin',
    ],
    ['rc file prints a marker-looking echo first', `${wrap('/fake')}\n${wrap('/real')}`, '/real'],
    ['no markers', '/usr/bin:/bin\n', null],
    ['only the begin marker', '__NAVI_PATH_BEGIN__/usr/bin', null],
    ['end before begin', '__NAVI_PATH_END__/usr/bin__NAVI_PATH_BEGIN__', null],
    ['empty PATH', wrap(''), null],
    ['a newline inside', wrap('/usr/bin\n/bin'), null],
    ['empty output', '', null],
  ])('%s', (_name, output, expected) => {
    expect(parseLoginShellPath(output)).toBe(expected)
  })

  it('the script never contains a whole marker, so an echoed command is not mistaken for output', () => {
    expect(LOGIN_SHELL_PATH_SCRIPT).not.toContain('__NAVI_PATH_BEGIN__')
    expect(LOGIN_SHELL_PATH_SCRIPT).not.toContain('__NAVI_PATH_END__')
    expect(parseLoginShellPath(LOGIN_SHELL_PATH_SCRIPT)).toBeNull()
  })
})

describe('mergePath', () => {
  it.each<[string, string | undefined, string | null, string[], string]>([
    [
      'shell first, then current, then extras',
      '/usr/bin:/bin',
      '/opt/x:/usr/bin',
      ['/e'],
      '/opt/x:/usr/bin:/bin:/e',
    ],
    ['shell failed: current then extras', '/usr/bin', null, ['/e', '/usr/bin'], '/usr/bin:/e'],
    ['no PATH at all', undefined, null, ['/e'], '/e'],
    ['drops empty entries', ':/a::/b:', null, [], '/a:/b'],
    ['trailing slash counts as the same dir', '/a/:/b', '/a', [], '/a:/b'],
    ['root stays', '/', null, [], '/'],
    [
      'expands ~ in extras',
      '/usr/bin',
      null,
      ['~/.bun/bin', '~'],
      '/usr/bin:/home/u/.bun/bin:/home/u',
    ],
  ])('%s', (_name, current, fromShell, extras, expected) => {
    expect(mergePath(current, fromShell, extras, ':', '/home/u')).toBe(expected)
  })

  it('uses the given delimiter', () => {
    expect(mergePath('C:\\a;C:\\b', 'C:\\b', [], ';', 'C:\\Users\\u')).toBe('C:\\b;C:\\a')
  })

  it('leaves out ~ entries when the home is unknown', () => {
    expect(mergePath('/usr/bin', null, ['~/.local/bin', '/opt/homebrew/bin'], ':', '')).toBe(
      '/usr/bin:/opt/homebrew/bin',
    )
  })

  it('the default extras cover Homebrew, npm, bun and volta', () => {
    const merged = mergePath('/usr/bin', null, DEFAULT_PATH_EXTRAS, ':', '/Users/me').split(':')
    expect(merged).toEqual([
      '/usr/bin',
      '/opt/homebrew/bin',
      '/usr/local/bin',
      '/Users/me/.local/bin',
      '/Users/me/.npm-global/bin',
      '/Users/me/.bun/bin',
      '/Users/me/.volta/bin',
    ])
  })
})

describe('expandTilde', () => {
  it.each([
    ['~', '/h'],
    ['~/x', '/h/x'],
    ['~x/y', '~x/y'],
    ['/abs/~/x', '/abs/~/x'],
  ])('%s → %s', (dir, expected) => {
    expect(expandTilde(dir, '/h/')).toBe(expected)
  })
})
