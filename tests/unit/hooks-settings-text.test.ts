import { describe, expect, it } from 'vitest'
import {
  addNaviHooksToText,
  layoutOf,
  removeNaviHooksFromText,
} from '../../electron/engine/core/hooks-settings-text.ts'
import {
  addNaviHooks,
  HooksSettingsShapeError,
  NAVI_HOOK_EVENTS,
  NAVI_HOOK_MARKER,
} from '../../electron/engine/core/hooks-settings.ts'

const COMMAND = `'/usr/bin/node' '/h/.navi/bin/navi-hook.mjs' --navi-home '/h/.navi' ${NAVI_HOOK_MARKER}`
const OLD_COMMAND = `'/old/node' '/old/navi-hook.mjs' ${NAVI_HOOK_MARKER}`

/** A user's file as people write them: odd numbers, their own hooks, comments-free JSON. */
const USER_FILE = [
  '{',
  '  "cleanupPeriodDays": 12345678901234567890,',
  '  "temperature": 1.0,',
  '  "ratio": 1e3,',
  '  "hooks": {',
  '    "PreToolUse": [',
  '      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/bin/guard.sh", "timeout": 30.0 } ] }',
  '    ],',
  '    "Stop": [',
  '      { "hooks": [ { "type": "command", "command": "say done" } ] }',
  '    ]',
  '  },',
  '  "permissions": { "allow": [ "Bash(npm test)" ] }',
  '}',
  '',
].join('\n')

/** Every line of `before` that is not Navi's must still be in `after`, in order. */
function userLinesKept(before: string, after: string): void {
  let from = 0
  for (const line of before.split(/\r?\n/)) {
    const at = after.indexOf(line.replace(/,$/, ''), from)
    expect(at, `line kept: ${line}`).toBeGreaterThanOrEqual(0)
    from = at
  }
}

describe('addNaviHooksToText / removeNaviHooksFromText', () => {
  it('keeps every byte of the user’s numbers and hooks, and a round trip gives the file back', () => {
    const installed = addNaviHooksToText(USER_FILE, COMMAND)
    expect(installed).toContain('12345678901234567890')
    expect(installed).toContain('"temperature": 1.0,')
    expect(installed).toContain('"ratio": 1e3,')
    expect(installed).toContain('"timeout": 30.0')
    userLinesKept(USER_FILE, installed)
    const value = JSON.parse(installed) as { hooks: Record<string, unknown[]> }
    expect(Object.keys(value.hooks)).toEqual(
      expect.arrayContaining([...NAVI_HOOK_EVENTS, 'PreToolUse', 'Stop']),
    )
    expect(removeNaviHooksFromText(installed)).toBe(USER_FILE)
  })

  it('is idempotent: a second install changes nothing', () => {
    const once = addNaviHooksToText(USER_FILE, COMMAND)
    expect(addNaviHooksToText(once, COMMAND)).toBe(once)
  })

  it('keeps CRLF line endings, tab indentation and a BOM', () => {
    const crlf = '\uFEFF{\r\n\t"model": "opus",\r\n\t"n": 2.50\r\n}\r\n'
    const installed = addNaviHooksToText(crlf, COMMAND)
    expect(installed.startsWith('\uFEFF{\r\n\t"model": "opus",')).toBe(true)
    expect(installed).toContain('"n": 2.50')
    expect(installed.replace(/\r\n/g, '')).not.toContain('\n')
    expect(installed).toMatch(/\r\n\t"hooks": \{\r\n\t\t"SessionStart"/)
    expect(removeNaviHooksFromText(installed)).toBe(crlf)
  })

  it('replaces an older Navi entry in place of adding a second one, leaving the user’s entries', () => {
    const withOld = JSON.stringify(
      {
        hooks: {
          Stop: [
            {
              hooks: [
                { type: 'command', command: 'say done' },
                { type: 'command', command: OLD_COMMAND },
              ],
            },
          ],
        },
      },
      null,
      2,
    )
    const next = addNaviHooksToText(withOld, COMMAND)
    expect(next).not.toContain('/old/navi-hook.mjs')
    expect(JSON.parse(next)).toEqual(addNaviHooks(JSON.parse(withOld), COMMAND))
    expect(next).toContain('"command": "say done"')
  })

  it('creates a file from nothing, and removing everything leaves {}', () => {
    const created = addNaviHooksToText('', COMMAND)
    expect(JSON.parse(created)).toEqual(addNaviHooks({}, COMMAND))
    expect(removeNaviHooksFromText(created)).toBe('{}\n')
  })

  it.each([
    ['an array', '[1, 2]'],
    ['a string hooks', '{"hooks": "no"}'],
    ['an event that is not a list', '{"hooks": {"Stop": {"x": 1}}}'],
  ])('refuses %s', (_name, text) => {
    expect(() => addNaviHooksToText(text, COMMAND)).toThrow(HooksSettingsShapeError)
  })

  it('refuses duplicate keys rather than guess which one Claude Code reads', () => {
    const duplicated = '{\n  "hooks": {"Stop": []},\n  "hooks": {"Stop": []}\n}\n'
    expect(() => addNaviHooksToText(duplicated, COMMAND)).toThrow(HooksSettingsShapeError)
  })

  it.each([
    ['{\n  "a": 1\n}', { indent: '  ', eol: '\n' }],
    ['{\n    "a": 1\n}', { indent: '    ', eol: '\n' }],
    ['{\r\n\t"a": 1\r\n}', { indent: '\t', eol: '\r\n' }],
    ['{"a": 1}', { indent: '  ', eol: '\n' }],
  ])('reads the layout of %j', (text, expected) => {
    expect(layoutOf(text)).toEqual(expected)
  })

  it('adds to a one-line array on the same line, and to an empty one on new lines', () => {
    const oneLine =
      '{\n  "hooks": { "Stop": [ {"hooks": [{"type": "command", "command": "x"}]} ] }\n}\n'
    const next = addNaviHooksToText(oneLine, COMMAND)
    expect(next).toContain('"Stop": [ {"hooks": [{"type": "command", "command": "x"}]}, {')
    expect(removeNaviHooksFromText(next)).toBe(oneLine)
    const empty = '{\n  "hooks": {\n    "Stop": []\n  }\n}\n'
    expect(JSON.parse(addNaviHooksToText(empty, COMMAND))).toEqual(
      addNaviHooks(JSON.parse(empty), COMMAND),
    )
  })
})
