/**
 * Reading Navi's hook in Codex's hooks.json and the trust Codex recorded for it in config.toml
 * (core/codex-hook-status.ts), and which thread owns a codex process (core/codex-process.ts). The trust
 * keys' shape is what codex 0.169 wrote when its user trusted the hooks (tests/integration/
 * answer-codex-tui.test.ts reads it from the real CLI).
 */
import { describe, expect, it } from 'vitest'
import {
  codexEventKey,
  codexTrustedEvents,
  naviCodexHooksStatus,
} from '../../electron/engine/core/codex-hook-status.ts'
import { codexProcessOfThreads } from '../../electron/engine/core/codex-process.ts'
import {
  addNaviCodexHooks,
  buildNaviHookCommand,
} from '../../electron/engine/core/hooks-settings.ts'
import { hookState } from '../support/claude-records.ts'

const command = buildNaviHookCommand({ handlerPath: '/h/bin/navi-hook.sh', naviHome: '/h' })
const HOOKS = '/c/hooks.json'
const userGroup = { hooks: [{ type: 'command', command: 'notify-send done' }] }

describe('naviCodexHooksStatus', () => {
  it('finds each event with its trust key, after a user group in the same event', () => {
    const file = addNaviCodexHooks({ hooks: { Stop: [userGroup] } }, command)
    const status = naviCodexHooksStatus(file, HOOKS)
    expect(status.installedEvents).toEqual(['PermissionRequest', 'PostToolUse', 'Stop'])
    expect(status.missingEvents).toEqual([])
    expect(status.staleEvents).toEqual([])
    expect(status.commands).toEqual([command])
    expect(status.trustKeys).toEqual({
      PermissionRequest: `${HOOKS}:permission_request:0:0`,
      PostToolUse: `${HOOKS}:post_tool_use:0:0`,
      Stop: `${HOOKS}:stop:1:0`,
    })
  })

  it('tells a missing event, and an older handler or shape, apart', () => {
    const other = buildNaviHookCommand({ handlerPath: '/old/navi-hook.sh', naviHome: '/old' })
    const file = addNaviCodexHooks(undefined, other) as { hooks: Record<string, unknown> }
    delete file.hooks.Stop
    const status = naviCodexHooksStatus(file, HOOKS)
    expect(status.missingEvents).toEqual(['Stop'])
    expect(status.commands).toEqual([other])
    expect(naviCodexHooksStatus('not json', HOOKS).missingEvents).toHaveLength(3)
    // A Navi group with another shape (e.g. a Claude Code style async entry) is stale.
    const odd = {
      hooks: {
        PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command, async: true }] }],
      },
    }
    expect(naviCodexHooksStatus(odd, HOOKS).staleEvents).toEqual(['PostToolUse'])
  })

  it('names events as Codex does in its keys', () => {
    expect(codexEventKey('PermissionRequest')).toBe('permission_request')
    expect(codexEventKey('Stop')).toBe('stop')
  })
})

describe('codexTrustedEvents', () => {
  it('counts an event trusted only when config.toml holds a hash under its key', () => {
    const keys = naviCodexHooksStatus(addNaviCodexHooks(undefined, command), HOOKS).trustKeys
    const config = {
      hooks: {
        state: {
          [`${HOOKS}:permission_request:0:0`]: { trusted_hash: 'sha256:ab' },
          [`${HOOKS}:post_tool_use:0:0`]: { trusted_hash: '' },
          [`${HOOKS}:stop:3:0`]: { trusted_hash: 'sha256:cd' },
        },
      },
    }
    expect(codexTrustedEvents(config, keys)).toEqual({
      trusted: ['PermissionRequest'],
      untrusted: ['PostToolUse', 'Stop'],
    })
    expect(codexTrustedEvents({}, keys).trusted).toEqual([])
  })
})

describe('codexProcessOfThreads', () => {
  const now = Date.parse('2026-11-26T10:00:00Z')
  const at = (minutes: number) => new Date(now + minutes * 60_000).toISOString()

  it('gives a live process to the thread that last ran a hook in it, and a dead one to none', () => {
    const states = new Map(
      [
        hookState(now, { sessionId: 'old', agent: 'codex', agentPid: 7, lastEventAt: at(-5) }),
        hookState(now, { sessionId: 'new', agent: 'codex', agentPid: 7, lastEventAt: at(-1) }),
        hookState(now, { sessionId: 'gone', agent: 'codex', agentPid: 9, lastEventAt: at(0) }),
        hookState(now, { sessionId: 'claude', agent: 'claude', agentPid: 11, lastEventAt: at(0) }),
      ].map((s) => [s.sessionId, s]),
    )
    const alive = new Map([
      [7, true],
      [9, false],
      [11, true],
    ])
    expect(codexProcessOfThreads(states, alive)).toEqual(new Map([['new', 7]]))
  })
})
