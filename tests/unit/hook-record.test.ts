import { describe, expect, it } from 'vitest'
import { hookRecord, parseSpoolFile } from '../../electron/engine/core/hook-record.ts'

const AT = '2026-11-25T10:00:00.000Z'
const payload = (over: Record<string, unknown> = {}) => ({
  session_id: 's-1',
  transcript_path: '/h/.claude/projects/-p/s-1.jsonl',
  cwd: '/p',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'npm test\nmore', description: 'run tests' },
  tool_response: { stdout: 'x'.repeat(1000) },
  ...over,
})
const spooled = (body: string, header = 'navi-hook 1 4242') => `${header}\n${body}`

describe('parseSpoolFile', () => {
  it.each([
    ['the claude pid', 'navi-hook 1 4242', 4242],
    ['none found (no /proc, as on macOS)', 'navi-hook 1 0', null],
    ['a trailing space', 'navi-hook 1 7 ', 7],
  ])('reads the header: %s', (_name, header, pid) => {
    expect(parseSpoolFile(spooled('{}', header))?.agentPid).toEqual(pid)
  })

  it.each([
    ['another format', 'navi-hook 2 1'],
    ['no header at all', '{"session_id":"s"}'],
    ['a pid that is not a number', 'navi-hook 1 x'],
    ['no pid', 'navi-hook 1'],
  ])('refuses a file the handler did not write: %s', (_name, header) => {
    expect(parseSpoolFile(spooled('{}', header))).toBeNull()
  })

  it('reads a payload cut short by its leading fields, and the command when it came first', () => {
    const whole = JSON.stringify(
      payload({ tool_input: { command: 'make all', content: 'z'.repeat(500) } }),
    )
    const cut = parseSpoolFile(spooled(whole.slice(0, whole.indexOf('zzzz'))))
    expect(cut).toMatchObject({ truncated: true })
    expect(cut?.payload).toMatchObject({
      session_id: 's-1',
      cwd: '/p',
      hook_event_name: 'PreToolUse',
      tool_input: { command: 'make all' },
    })
  })
})

describe('hookRecord', () => {
  it('keeps the status fields, describes the tool call, and drops the big ones', () => {
    const record = hookRecord(parseSpoolFile(spooled(JSON.stringify(payload())))!, AT)
    expect(record).toEqual({
      session_id: 's-1',
      transcript_path: '/h/.claude/projects/-p/s-1.jsonl',
      cwd: '/p',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_detail: 'npm test …',
      tool_description: 'run tests',
      received_at: AT,
      claude_pid: 4242,
    })
  })

  it('caps what the agent wrote and keeps a numeric task id as text', () => {
    const record = hookRecord(
      parseSpoolFile(
        spooled(
          JSON.stringify(
            payload({ hook_event_name: 'TaskCompleted', prompt: 'p'.repeat(5000), task_id: 7 }),
          ),
        ),
      )!,
      AT,
    )
    expect(String(record?.prompt)).toHaveLength(200)
    expect(record?.task_id).toBe('7')
    expect(record).not.toHaveProperty('tool_detail')
  })

  it.each([
    ['an array', '[1,2]'],
    ['no session', '{"hook_event_name":"Stop"}'],
    ['no event', '{"session_id":"s"}'],
    ['not JSON, nothing to salvage', 'garbage'],
  ])('is null for a payload that is no hook event: %s', (_name, body) => {
    const spool = parseSpoolFile(spooled(body))
    expect(spool && hookRecord(spool, AT)).toBeNull()
  })
})
