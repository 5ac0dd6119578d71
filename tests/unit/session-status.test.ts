import { describe, expect, it } from 'vitest'
import {
  decideClaudeStatus,
  decideCodexStatus,
  NO_LIVE_FILE_GRACE_MS,
} from '../../electron/engine/core/session-status.ts'
import type {
  CodexRolloutSummary,
  HookSessionState,
  LiveSessionRecord,
  TranscriptSummary,
  TranscriptTail,
} from '../../electron/engine/core/source-records.ts'
import { emptyTranscriptSummary } from '../../electron/engine/core/transcript-fold.ts'
import { hookState, liveRecord } from '../support/claude-records.ts'

const NOW = Date.parse('2026-11-21T12:00:00Z')
const at = (secondsAgo: number) => new Date(NOW - secondsAgo * 1000).toISOString()

function transcript(tail: TranscriptTail, lastSecondsAgo = 5): TranscriptSummary {
  const t = emptyTranscriptSummary('s1', '/x/s1.jsonl')
  t.tail = tail
  t.lastActivity = at(lastSecondsAgo)
  return t
}

const live = (over: Partial<LiveSessionRecord> = {}) => liveRecord(NOW, over)
const hook = (over: Partial<HookSessionState>) => hookState(NOW, over)

describe('decideClaudeStatus', () => {
  it('a stale live file (dead pid) is ended, even when it says waiting', () => {
    const d = decideClaudeStatus({
      transcript: transcript({
        kind: 'tool_pending',
        description: null,
        at: at(5),
        toolName: 'Bash',
        toolUseId: 't',
        detail: null,
      }),
      live: live({ alive: false, status: 'waiting', waitingFor: 'permission prompt' }),
      hook: null,
      hookPidAlive: null,
      liveFilesSupported: true,
      now: NOW,
    })
    expect(d.status).toBe('ended')
    expect(d.reason).toContain('42')
  })

  it('live file waiting on a permission prompt → needs_permission with the reason', () => {
    const d = decideClaudeStatus({
      transcript: null,
      live: live({ status: 'waiting', waitingFor: 'permission prompt' }),
      hook: null,
      hookPidAlive: null,
      liveFilesSupported: true,
      now: NOW,
    })
    expect(d).toMatchObject({
      status: 'needs_permission',
      reason: 'waiting for permission prompt',
      source: 'live',
    })
  })

  it('a print-mode run (no status in its live file) is working until it exits', () => {
    const printRun = live({ status: null, statusUpdatedAt: null, entrypoint: 'sdk-cli' })
    const base = {
      transcript: null,
      hook: null,
      hookPidAlive: null,
      liveFilesSupported: true,
      now: NOW,
    }
    expect(decideClaudeStatus({ ...base, live: printRun })).toMatchObject({
      status: 'working',
      source: 'live',
    })
    const gone = decideClaudeStatus({
      ...base,
      live: null,
      transcript: transcript({ kind: 'turn_end', at: at(1) }),
    })
    expect(gone).toMatchObject({ status: 'ended', reason: 'process exited' })
  })

  it('live file busy → working; idle → idle', () => {
    const base = {
      transcript: null,
      hook: null,
      hookPidAlive: null,
      liveFilesSupported: true,
      now: NOW,
    }
    expect(decideClaudeStatus({ ...base, live: live({ status: 'busy' }) }).status).toBe('working')
    expect(decideClaudeStatus({ ...base, live: live({ status: 'idle' }) }).status).toBe('idle')
  })

  it('a newer hook event wins over the live file, an older one does not', () => {
    const permission = hook({
      lastEvent: 'PermissionRequest',
      message: 'Permission needed: Bash',
      lastEventAt: at(1),
    })
    const newer = decideClaudeStatus({
      transcript: null,
      live: live({ status: 'busy', statusUpdatedAt: NOW - 5000 }),
      hook: permission,
      hookPidAlive: true,
      liveFilesSupported: true,
      now: NOW,
    })
    expect(newer).toMatchObject({
      status: 'needs_permission',
      reason: 'Permission needed: Bash',
      source: 'hooks',
    })
    const older = decideClaudeStatus({
      transcript: null,
      live: live({ status: 'idle', statusUpdatedAt: NOW - 100 }),
      hook: permission,
      hookPidAlive: true,
      liveFilesSupported: true,
      now: NOW,
    })
    expect(older).toMatchObject({ status: 'idle', source: 'live' })
    const agreeing = decideClaudeStatus({
      transcript: null,
      live: live({
        status: 'waiting',
        waitingFor: 'permission prompt',
        statusUpdatedAt: NOW - 100,
      }),
      hook: permission,
      hookPidAlive: true,
      liveFilesSupported: true,
      now: NOW,
    })
    expect(agreeing).toMatchObject({
      status: 'needs_permission',
      reason: 'Permission needed: Bash',
      source: 'hooks',
    })
  })

  it('hooks: idle_prompt → waiting_input, Stop → idle, SessionEnd → ended', () => {
    const base = {
      transcript: null,
      live: live({ status: null, statusUpdatedAt: null }),
      hookPidAlive: true,
      liveFilesSupported: true,
      now: NOW,
    }
    expect(
      decideClaudeStatus({
        ...base,
        hook: hook({ lastEvent: 'Notification', notificationType: 'idle_prompt' }),
      }).status,
    ).toBe('waiting_input')
    expect(decideClaudeStatus({ ...base, hook: hook({ lastEvent: 'Stop' }) }).status).toBe('idle')
    expect(
      decideClaudeStatus({
        ...base,
        hook: hook({ lastEvent: 'SessionEnd', ended: true, endReason: 'prompt_input_exit' }),
      }),
    ).toMatchObject({ status: 'ended', reason: 'user exited' })
  })

  it('no live file where the CLI writes them: ended at once, even right after a transcript write', () => {
    const working = { kind: 'prompt', at: at(2) } as const
    const d = decideClaudeStatus({
      transcript: transcript(working, 2),
      live: null,
      hook: null,
      hookPidAlive: null,
      liveFilesSupported: true,
      now: NOW,
    })
    expect(d.status).toBe('ended')
  })

  it('a CLI that never writes live files: a recent transcript counts as running for a grace period', () => {
    const working = { kind: 'prompt', at: at(2) } as const
    const base = { live: null, hook: null, hookPidAlive: null, liveFilesSupported: false, now: NOW }
    expect(decideClaudeStatus({ ...base, transcript: transcript(working, 2) }).status).toBe(
      'working',
    )
    const old = NO_LIVE_FILE_GRACE_MS / 1000 + 5
    expect(decideClaudeStatus({ ...base, transcript: transcript(working, old) }).status).toBe(
      'ended',
    )
  })

  it('a hook whose claude pid is dead never keeps a session waiting', () => {
    const d = decideClaudeStatus({
      transcript: transcript(
        {
          kind: 'tool_pending',
          at: at(1),
          toolName: 'Bash',
          toolUseId: 't',
          detail: null,
          description: null,
        },
        1,
      ),
      live: null,
      hook: hook({ lastEvent: 'PermissionRequest' }),
      hookPidAlive: false,
      liveFilesSupported: true,
      now: NOW,
    })
    expect(d.status).toBe('ended')
  })

  it('transcript tail without live status: AskUserQuestion waits for input, end_turn is idle', () => {
    const l = live({ status: null, statusUpdatedAt: null })
    const ask = transcript({
      kind: 'tool_pending',
      description: null,
      at: at(1),
      toolName: 'AskUserQuestion',
      detail: null,
      toolUseId: 't',
    })
    expect(
      decideClaudeStatus({
        transcript: ask,
        live: l,
        hook: null,
        hookPidAlive: null,
        liveFilesSupported: true,
        now: NOW,
      }).status,
    ).toBe('waiting_input')
    const done = transcript({ kind: 'turn_end', at: at(1) })
    expect(
      decideClaudeStatus({
        transcript: done,
        live: l,
        hook: null,
        hookPidAlive: null,
        liveFilesSupported: true,
        now: NOW,
      }),
    ).toMatchObject({ status: 'idle', reason: 'turn finished', source: 'transcript' })
  })
})

describe('decideCodexStatus', () => {
  const rollout = (over: Partial<CodexRolloutSummary>): CodexRolloutSummary => ({
    threadId: 't',
    path: '/r.jsonl',
    cwd: '/p',
    source: 'cli',
    cliVersion: '0.169.0',
    startedAt: at(100),
    lastActivity: at(10),
    turns: 1,
    inTurn: false,
    lastAgentMessage: null,
    firstUserMessage: 'hi',
    lastUserMessage: 'hi',
    tokens: { input: 0, output: 0, cache_read: 0, cache_creation: 0, total: 0 },
    branch: null,
    commandStreak: null,
    turnError: null,
    corruptLines: 0,
    ...over,
  })
  it('mid-turn is working, a finished exec run has ended, an interactive one is idle', () => {
    expect(decideCodexStatus(rollout({ inTurn: true }), NOW).status).toBe('working')
    expect(decideCodexStatus(rollout({ source: 'exec' }), NOW).status).toBe('ended')
    expect(decideCodexStatus(rollout({}), NOW).status).toBe('idle')
    expect(decideCodexStatus(rollout({ inTurn: true, lastActivity: at(3600) }), NOW).status).toBe(
      'ended',
    )
  })
})

describe('one status, one reason for a dialog (2.1.330)', () => {
  const pending = transcript({
    kind: 'tool_pending',
    description: null,
    at: at(5),
    toolName: 'Bash',
    toolUseId: 't',
    detail: 'touch /tmp/x',
  })
  const decide = (waitingFor: string, t = pending, h: HookSessionState | null = null) =>
    decideClaudeStatus({
      transcript: t,
      live: live({ status: 'waiting', waitingFor, statusUpdatedAt: NOW - 1000 }),
      hook: h,
      hookPidAlive: null,
      liveFilesSupported: true,
      now: NOW,
    })

  it.each(['permission prompt', 'sandbox request', 'worker request', 'goal proposal'])(
    'waitingFor %s is a permission, named after the pending call',
    (waitingFor) => {
      const d = decide(waitingFor)
      expect(d.status).toBe('needs_permission')
      expect(d.reason).toBe('Permission needed: Bash (touch /tmp/x)')
    },
  )

  it('dialog open while a call waits is that call’s permission; otherwise waiting for input', () => {
    expect(decide('dialog open')).toMatchObject({
      status: 'needs_permission',
      reason: 'Permission needed: Bash (touch /tmp/x)',
    })
    const idleTail = transcript({ kind: 'turn_end', at: at(5) })
    expect(decide('dialog open', idleTail)).toMatchObject({
      status: 'waiting_input',
      reason: 'waiting for dialog open',
    })
    expect(decide('input needed').status).toBe('waiting_input')
  })

  it('hooks (agent_needs_input) and the live file (dialog open) agree, so hooks word it', () => {
    const h = hook({
      lastEvent: 'Notification',
      notificationType: 'agent_needs_input',
      toolName: 'Bash',
      message: 'Permission needed: Bash (touch /tmp/x)',
      lastEventAt: at(2),
    })
    expect(decide('dialog open', pending, h)).toMatchObject({
      status: 'needs_permission',
      source: 'hooks',
      reason: 'Permission needed: Bash (touch /tmp/x)',
    })
  })
})
