import { describe, expect, it } from 'vitest'
import { foldHookLine, permissionMessage } from '../../electron/engine/core/hook-fold.ts'
import { hookRecord } from '../../electron/engine/core/hook-record.ts'
import type { HookSessionState } from '../../electron/engine/core/source-records.ts'

const SESSION = '4ebfe5b2-0000-4000-8000-000000000001'
let clock = 0

/** An inbox line as the spool drain writes it (core/hook-record.ts); each one a second after the previous. */
function line(event: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  clock += 1000
  return {
    hook_event_name: event,
    session_id: SESSION,
    cwd: '/home/user/proj',
    transcript_path: `/home/user/.claude/projects/-home-user-proj/${SESSION}.jsonl`,
    received_at: new Date(Date.UTC(2026, 0, 1) + clock).toISOString(),
    claude_pid: 4242,
    ...extra,
  }
}

function fold(lines: unknown[]): { state: HookSessionState | undefined; results: string[] } {
  const states = new Map<string, HookSessionState>()
  const results = lines.map((l) => foldHookLine(states, l))
  return { state: states.get(SESSION), results }
}

const permission = () =>
  line('PermissionRequest', { tool_name: 'Bash', tool_detail: 'touch /home/user/outside.txt' })

describe('foldHookLine', () => {
  it('SessionStart creates the state with startedAt, cwd, transcript and pid', () => {
    const start = line('SessionStart', { source: 'startup' })
    const { state, results } = fold([start])
    expect(results).toEqual(['applied'])
    expect(state).toEqual({
      sessionId: SESSION,
      agent: 'claude',
      cwd: '/home/user/proj',
      transcriptPath: start.transcript_path,
      lastEvent: 'SessionStart',
      lastEventAt: start.received_at,
      message: null,
      notificationType: null,
      toolName: null,
      toolDetail: null,
      toolDescription: null,
      lastDenial: null,
      agentPid: 4242,
      ended: false,
      endReason: null,
      startedAt: start.received_at,
      taskMoves: [],
      requestId: null,
      inputDigest: null,
      stopFailure: null,
    })
  })

  it('TaskCompleted adds a move and leaves the status alone; TaskCreated and unknown sessions add none', () => {
    const start = line('SessionStart')
    const prompt = line('UserPromptSubmit')
    const created = line('TaskCreated', { task_id: '1', task_subject: 'Write the parser' })
    const completed = line('TaskCompleted', { task_id: '1', task_subject: 'Write the parser' })
    const { state, results } = fold([start, prompt, created, completed])
    expect(results).toEqual(['applied', 'applied', 'ignored', 'applied'])
    expect(state?.lastEvent).toBe('UserPromptSubmit')
    expect(state?.lastEventAt).toBe(prompt.received_at)
    expect(state?.taskMoves).toEqual([
      { task_id: '1', title: 'Write the parser', status: 'completed', at: completed.received_at },
    ])
    const stranger = { ...line('TaskCompleted', { task_id: '2' }), session_id: 'someone-else' }
    expect(fold([stranger]).results).toEqual(['ignored'])
  })

  it('prompt and tool events mean working and refresh lastEventAt', () => {
    const lines = [
      line('SessionStart'),
      line('UserPromptSubmit'),
      line('PreToolUse', { tool_name: 'Write' }),
      line('PostToolUse', { tool_name: 'Write' }),
    ]
    const post = lines[3]!
    const { state } = fold(lines)
    expect(state?.lastEvent).toBe('PostToolUse')
    expect(state?.lastEventAt).toBe(post.received_at)
    expect(state?.toolName).toBe('Write')
    expect(state?.startedAt).not.toBe(post.received_at)
  })

  it('PermissionRequest needs permission with the tool and its command', () => {
    const { state } = fold([
      line('SessionStart'),
      line('PreToolUse', { tool_name: 'Bash' }),
      permission(),
    ])
    expect(state?.lastEvent).toBe('PermissionRequest')
    expect(state?.message).toBe('Permission needed: Bash (touch /home/user/outside.txt)')
    expect(state?.toolName).toBe('Bash')
  })

  it('a later permission_prompt notification keeps the richer PermissionRequest message', () => {
    const request = permission()
    const notice = line('Notification', {
      notification_type: 'permission_prompt',
      message: 'Claude needs your permission',
    })
    const { state, results } = fold([request, notice])
    expect(results).toEqual(['applied', 'ignored'])
    expect(state?.lastEvent).toBe('PermissionRequest')
    expect(state?.lastEventAt).toBe(request.received_at)
    expect(state?.message).toContain('Bash')
  })

  it('a permission_prompt notification alone needs permission with its message', () => {
    const { state } = fold([
      line('PreToolUse', { tool_name: 'Bash' }),
      line('Notification', {
        notification_type: 'permission_prompt',
        message: 'Claude needs your permission',
      }),
    ])
    expect(state?.lastEvent).toBe('Notification')
    expect(state?.notificationType).toBe('permission_prompt')
    expect(state?.message).toBe('Claude needs your permission')
  })

  it('the granted tool finishing, or a new PreToolUse, clears the permission wait', () => {
    const granted = fold([permission(), line('PostToolUse', { tool_name: 'Bash' })]).state
    expect(granted?.lastEvent).toBe('PostToolUse')
    expect(granted?.message).toBeNull()
    const next = fold([permission(), line('PreToolUse', { tool_name: 'Read' })]).state
    expect(next?.lastEvent).toBe('PreToolUse')
  })

  it("the waiting call's own PreToolUse arriving late (async hook) does not clear the wait", () => {
    const { state, results } = fold([permission(), line('PreToolUse', { tool_name: 'Bash' })])
    expect(results[1]).toBe('ignored')
    expect(state?.lastEvent).toBe('PermissionRequest')
  })

  it('a parallel tool finishing does not clear the permission wait', () => {
    const { state, results } = fold([permission(), line('PostToolUse', { tool_name: 'Read' })])
    expect(results[1]).toBe('ignored')
    expect(state?.lastEvent).toBe('PermissionRequest')
  })

  it('idle_prompt means waiting for input; Stop means the turn finished', () => {
    const stopped = fold([line('UserPromptSubmit'), line('Stop')]).state
    expect(stopped?.lastEvent).toBe('Stop')
    expect(stopped?.toolName).toBeNull()
    const idle = fold([
      line('Stop'),
      line('Notification', {
        notification_type: 'idle_prompt',
        message: 'Claude is waiting for your input',
      }),
    ]).state
    expect(idle?.lastEvent).toBe('Notification')
    expect(idle?.notificationType).toBe('idle_prompt')
    expect(idle?.message).toBe('Claude is waiting for your input')
  })

  it('other notification types, unknown and non-status events are ignored', () => {
    const { state, results } = fold([
      line('Stop'),
      line('Notification', { notification_type: 'auth_success', message: 'ok' }),
      line('TaskCreated', { task_id: '1', task_subject: 'x' }),
      line('SomeFutureEvent'),
    ])
    expect(results).toEqual(['applied', 'ignored', 'ignored', 'ignored'])
    expect(state?.lastEvent).toBe('Stop')
  })

  it('a background sub-agent tool call after the turn finished leaves it finished', () => {
    const { state } = fold([
      line('Stop'),
      line('PreToolUse', { tool_name: 'Bash', agent_id: 'a91f' }),
    ])
    expect(state?.lastEvent).toBe('Stop')
    const during = fold([
      line('UserPromptSubmit'),
      line('PreToolUse', { tool_name: 'Grep', agent_id: 'a91f' }),
    ])
    expect(during.state?.lastEvent).toBe('PreToolUse')
  })

  it('SessionEnd ends the session with its reason; only a new SessionStart reopens it', () => {
    const ended = fold([
      line('SessionStart'),
      line('SessionEnd', { reason: 'prompt_input_exit' }),
      line('Stop'),
    ])
    expect(ended.results[2]).toBe('ignored')
    expect(ended.state?.ended).toBe(true)
    expect(ended.state?.endReason).toBe('prompt_input_exit')
    expect(ended.state?.lastEvent).toBe('SessionEnd')
    const lines = [
      line('SessionStart'),
      line('SessionEnd', { reason: 'other' }),
      line('SessionStart', { source: 'resume' }),
    ]
    const resumed = lines[2]!
    const reopened = fold(lines).state
    expect(reopened?.ended).toBe(false)
    expect(reopened?.endReason).toBeNull()
    expect(reopened?.startedAt).toBe(resumed.received_at)
  })

  it('ignores a background hook line appended after a later event', () => {
    const pre = line('PreToolUse', { tool_name: 'Bash' })
    const request = permission()
    const { state, results } = fold([request, pre])
    expect(results).toEqual(['applied', 'ignored'])
    expect(state?.lastEvent).toBe('PermissionRequest')
  })

  it('applies a line far older than the state: the clock was set back, it is not late', () => {
    const stop = line('Stop')
    const prompt = line('UserPromptSubmit', {
      received_at: new Date(Date.parse(String(stop.received_at)) - 3_600_000).toISOString(),
    })
    const { state, results } = fold([stop, prompt])
    expect(results).toEqual(['applied', 'applied'])
    expect(state?.lastEvent).toBe('UserPromptSubmit')
  })

  it('a compaction restart mid-turn changes nothing', () => {
    const { state, results } = fold([
      line('SessionStart'),
      line('PreToolUse', { tool_name: 'Bash' }),
      line('SessionStart', { source: 'compact' }),
    ])
    expect(results[2]).toBe('ignored')
    expect(state?.lastEvent).toBe('PreToolUse')
  })

  it('keeps sessions apart and reports corrupt values', () => {
    const states = new Map<string, HookSessionState>()
    foldHookLine(states, line('Stop'))
    foldHookLine(states, { ...line('UserPromptSubmit'), session_id: 'other' })
    expect(states.get(SESSION)?.lastEvent).toBe('Stop')
    expect(states.get('other')?.lastEvent).toBe('UserPromptSubmit')
    for (const bad of [
      null,
      'x',
      42,
      [],
      { hook_event_name: 'Stop' },
      { ...line('Stop'), session_id: 7 },
    ]) {
      expect(foldHookLine(states, bad)).toBe('corrupt')
    }
    expect(states.size).toBe(2)
  })

  it('permissionMessage copes with missing parts and long details', () => {
    expect(permissionMessage(null, null)).toBe('Permission needed: a tool')
    expect(permissionMessage('Write', 'x'.repeat(500)).length).toBeLessThan(150)
  })
})

describe('foldHookLine on 2.1.330 auto mode', () => {
  it('agent_needs_input during a tool call is a permission for that call, worded like PermissionRequest', () => {
    const { state } = fold([
      line('UserPromptSubmit'),
      line('PreToolUse', { tool_name: 'Bash', tool_detail: 'touch /tmp/x' }),
      line('Notification', {
        notification_type: 'agent_needs_input',
        message: 'Claude needs your attention',
      }),
    ])
    expect(state?.message).toBe(permissionMessage('Bash', 'touch /tmp/x'))
    expect(state?.notificationType).toBe('agent_needs_input')
    expect(state?.toolName).toBe('Bash')
  })

  it('agent_needs_input with no tool call in flight keeps its own message', () => {
    const { state } = fold([
      line('Stop'),
      line('Notification', { notification_type: 'agent_needs_input', message: 'Pick a plan' }),
    ])
    expect(state?.message).toBe('Pick a plan')
    expect(state?.toolName).toBeNull()
  })

  it('PermissionDenied keeps the denial (tool, detail, reason) and the session goes on working', () => {
    const pre = line('PreToolUse', { tool_name: 'Bash' })
    const denied = line('PermissionDenied', {
      tool_name: 'Bash',
      tool_detail: 'rm -rf build',
      reason: 'Blocked by auto mode: destructive command',
    })
    const { state } = fold([pre, denied])
    expect(state?.lastEvent).toBe('PermissionDenied')
    expect(state?.lastDenial).toEqual({
      toolName: 'Bash',
      detail: 'rm -rf build',
      reason: 'Blocked by auto mode: destructive command',
      at: denied.received_at,
    })
  })

  it('StopFailure ends the turn with the error', () => {
    const { state } = fold([line('UserPromptSubmit'), line('StopFailure', { error: 'rate_limit' })])
    expect(state?.message).toBe('turn failed: rate_limit')
  })
})

describe('Codex through the same handler', () => {
  it('a payload naming a rollout as its transcript is a Codex hook line, folded as such', () => {
    const record = hookRecord(
      {
        agentPid: null,
        truncated: false,
        payload: {
          session_id: '01a21578-d84e-7060-b57b-b9f6658284f7',
          turn_id: '01a21578-d868-73e1-9082-bb9cc48cc744',
          transcript_path:
            '/home/u/.codex/sessions/2026/11/26/rollout-2026-11-26T01-29-30-01a21578-d84e-7060-b57b-b9f6658284f7.jsonl',
          cwd: '/home/u/proj',
          hook_event_name: 'PermissionRequest',
          model: 'gpt-5',
          permission_mode: 'default',
          tool_name: 'Bash',
          tool_input: { command: 'echo ran > /tmp/x', description: 'Write outside' },
        },
      },
      '2026-11-26T01:29:31.000Z',
      'AbCdEf1234',
    )
    expect(record).toMatchObject({
      agent: 'codex',
      request_id: 'AbCdEf1234',
      tool_detail: 'echo ran > /tmp/x',
    })
    const states = new Map()
    expect(foldHookLine(states, record)).toBe('applied')
    expect(states.get('01a21578-d84e-7060-b57b-b9f6658284f7')).toMatchObject({
      agent: 'codex',
      lastEvent: 'PermissionRequest',
      requestId: 'AbCdEf1234',
    })
  })
})
