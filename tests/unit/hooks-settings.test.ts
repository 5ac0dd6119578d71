import { describe, expect, it } from 'vitest'
import {
  addNaviCodexHooks,
  addNaviHooks,
  buildNaviHookCommand,
  HooksSettingsShapeError,
  isNaviHookCommand,
  NAVI_HOOK_EVENTS,
  naviHooksStatus,
  removeNaviHooks,
  shellQuote,
} from '../../electron/engine/core/hooks-settings.ts'

const command = buildNaviHookCommand({
  handlerPath: '/home/u/.navi/bin/navi-hook.sh',
  naviHome: '/home/u/.navi',
})

/** A user's settings with their own hooks on events Navi also uses, and other keys. */
function userSettings() {
  return {
    model: 'opus',
    permissions: { allow: ['Bash(npm test)'], deny: [] },
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: '~/bin/guard.sh', timeout: 5 }] },
      ],
      Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
      PreCompact: [{ hooks: [{ type: 'command', command: 'echo compact' }] }],
    },
    statusLine: { type: 'command', command: 'my-status' },
  }
}

describe('buildNaviHookCommand', () => {
  it('quotes every path for a shell and ends with the marker', () => {
    const cmd = buildNaviHookCommand({
      handlerPath: "/home/o'neil/my navi/bin/navi-hook.sh",
      naviHome: "/home/o'neil/my navi",
    })
    expect(cmd).toBe(
      `/bin/sh '/home/o'\\''neil/my navi/bin/navi-hook.sh' --navi-home '/home/o'\\''neil/my navi' # navi-hook`,
    )
    expect(isNaviHookCommand(cmd)).toBe(true)
  })

  it('recognizes only commands that end with the marker', () => {
    expect(isNaviHookCommand('~/bin/navi-hook.mjs')).toBe(false)
    expect(isNaviHookCommand('echo "# navi-hook" && rm x')).toBe(false)
    expect(isNaviHookCommand('node x # navi-hook  ')).toBe(true)
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`)
  })
})

describe('addNaviHooks', () => {
  it('adds one Navi group per event to empty settings, matcher only on tool events', () => {
    const next = addNaviHooks({}, command)
    const hooks = next.hooks as Record<string, unknown[]>
    expect(Object.keys(hooks)).toEqual([...NAVI_HOOK_EVENTS])
    // Tool events run in the background; events that decide a status are waited for.
    expect(hooks.PreToolUse).toEqual([
      { matcher: '*', hooks: [{ type: 'command', command, async: true }] },
    ])
    // The one hook that may wait for an answer from Navi: flagged, with a limit past the handler's.
    const answerable = command.replace(' # navi-hook', ' --answerable # navi-hook')
    expect(hooks.PermissionRequest).toEqual([
      { matcher: '*', hooks: [{ type: 'command', command: answerable, timeout: 630 }] },
    ])
    expect(hooks.Stop).toEqual([{ hooks: [{ type: 'command', command }] }])
    expect(hooks.TaskCompleted).toEqual([{ hooks: [{ type: 'command', command, async: true }] }])
    expect(addNaviHooks(undefined, command)).toEqual(next)
  })

  it('keeps existing user hooks for the same events, other events and other keys', () => {
    const before = userSettings()
    const next = addNaviHooks(before, command)
    const hooks = next.hooks as Record<string, unknown[]>
    expect(hooks.PreToolUse).toEqual([
      before.hooks.PreToolUse[0],
      { matcher: '*', hooks: [{ type: 'command', command, async: true }] },
    ])
    expect(hooks.Stop?.[0]).toEqual(before.hooks.Stop[0])
    expect(hooks.PreCompact).toEqual(before.hooks.PreCompact)
    expect(Object.keys(next)).toEqual(['model', 'permissions', 'hooks', 'statusLine'])
    expect(Object.keys(hooks).slice(0, 3)).toEqual(['PreToolUse', 'Stop', 'PreCompact'])
    expect(next.permissions).toEqual(before.permissions)
    expect(before).toEqual(userSettings()) // input not modified
  })

  it('is idempotent: installing twice equals installing once', () => {
    const once = addNaviHooks(userSettings(), command)
    const twice = addNaviHooks(once, command)
    expect(JSON.stringify(twice)).toBe(JSON.stringify(once))
  })

  it('replaces an older Navi entry (changed handler path) instead of adding a second', () => {
    // The handler of Navi before 0.2: node running navi-hook.mjs; replaced, not kept beside.
    const old = `'/old/node' '/old/navi-hook.mjs' --navi-home '/old' # navi-hook`
    const next = addNaviHooks(addNaviHooks(userSettings(), old), command)
    const status = naviHooksStatus(next)
    expect(status.commands).toEqual([command])
    expect((next.hooks as Record<string, unknown[]>).PreToolUse).toHaveLength(2)
  })

  it('refuses shapes it will not edit', () => {
    expect(() => addNaviHooks([], command)).toThrow(HooksSettingsShapeError)
    expect(() => addNaviHooks({ hooks: 'x' }, command)).toThrow(HooksSettingsShapeError)
    expect(() => addNaviHooks({ hooks: { Stop: {} } }, command)).toThrow(/hooks.Stop/)
  })
})

describe('removeNaviHooks', () => {
  it('restores the exact original after add (same keys, same order)', () => {
    const original = userSettings()
    const roundTrip = removeNaviHooks(addNaviHooks(original, command))
    expect(JSON.stringify(roundTrip)).toBe(JSON.stringify(original))
  })

  it('drops the hooks key only when Navi emptied it', () => {
    expect(removeNaviHooks(addNaviHooks({ a: 1 }, command))).toEqual({ a: 1 })
    expect(removeNaviHooks({ a: 1, hooks: {} })).toEqual({ a: 1, hooks: {} })
    expect(removeNaviHooks({ hooks: { Stop: [] } })).toEqual({ hooks: { Stop: [] } })
  })

  it('removes a Navi entry from a mixed group but keeps the user entry', () => {
    const mixed = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'say hi' },
              { type: 'command', command },
            ],
          },
        ],
      },
    }
    expect(removeNaviHooks(mixed)).toEqual({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say hi' }] }] },
    })
  })

  it('leaves settings without Navi hooks as they are', () => {
    expect(JSON.stringify(removeNaviHooks(userSettings()))).toBe(JSON.stringify(userSettings()))
  })
})

describe('naviHooksStatus', () => {
  it('lists installed and missing events', () => {
    expect(naviHooksStatus(userSettings())).toEqual({
      installedEvents: [],
      missingEvents: [...NAVI_HOOK_EVENTS],
      commands: [],
      staleEvents: [],
    })
    const installed = addNaviHooks(userSettings(), command)
    const hooks = installed.hooks as Record<string, unknown>
    delete hooks.Stop
    const status = naviHooksStatus(installed)
    expect(status.missingEvents).toEqual(['Stop'])
    expect(status.installedEvents).toHaveLength(NAVI_HOOK_EVENTS.length - 1)
    expect(status.commands).toEqual([command])
    expect(status.staleEvents).toEqual([])
  })

  it('names events whose Navi group an older Navi installed (PermissionRequest without --answerable)', () => {
    const installed = addNaviHooks({}, command)
    const hooks = installed.hooks as Record<string, unknown>
    hooks.PermissionRequest = [{ matcher: '*', hooks: [{ type: 'command', command }] }]
    const status = naviHooksStatus(installed)
    expect(status.staleEvents).toEqual(['PermissionRequest'])
    expect(status.commands).toEqual([command])
    // Installing again brings it up to date, and keeps one Navi entry.
    const again = addNaviHooks(installed, command)
    expect(naviHooksStatus(again).staleEvents).toEqual([])
    expect((again.hooks as Record<string, unknown[]>).PermissionRequest).toHaveLength(1)
  })

  it('never throws on odd shapes', () => {
    expect(naviHooksStatus('nope').installedEvents).toEqual([])
    expect(naviHooksStatus({ hooks: { Stop: 'x' } }).missingEvents).toContain('Stop')
  })
})

describe('addNaviCodexHooks', () => {
  it('adds the permission request (held, with its limit) and what ends it, keeps other hooks, is idempotent', () => {
    const user = {
      model: 'gpt-5',
      hooks: { Stop: [{ hooks: [{ type: 'command', command: '/bin/notify-me' }] }] },
    }
    const next = addNaviCodexHooks(user, command)
    const hooks = next.hooks as Record<string, unknown[]>
    expect(Object.keys(hooks).sort()).toEqual(['PermissionRequest', 'PostToolUse', 'Stop'])
    expect(hooks.PermissionRequest).toEqual([
      {
        matcher: '*',
        hooks: [
          {
            type: 'command',
            command: command.replace(' # navi-hook', ' --answerable # navi-hook'),
            timeout: 630,
          },
        ],
      },
    ])
    // Codex runs its hooks synchronously: no async flag even where Claude Code's would have one.
    expect(hooks.PostToolUse).toEqual([{ matcher: '*', hooks: [{ type: 'command', command }] }])
    expect(hooks.Stop?.[0]).toEqual(user.hooks.Stop[0])
    expect(next.model).toBe('gpt-5')
    expect(addNaviCodexHooks(next, command)).toEqual(next)
  })
})
