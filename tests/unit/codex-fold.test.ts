import { describe, expect, it } from 'vitest'
import {
  codexTokenUsage,
  emptyCodexRolloutSummary,
  foldCodexLine,
  threadIdFromRolloutPath,
} from '../../electron/engine/core/codex-fold.ts'

// Shapes copied from agent-cli-formats.md section 14.4 (codex-cli 0.169.0), shortened.
const THREAD = '01a20065-b755-71d2-9126-b9dad2c5de5f'
const PATH = `/home/user/.codex/sessions/2026/11/21/rollout-2026-11-21T23-16-35-${THREAD}.jsonl`

const sessionMeta = {
  timestamp: '2026-11-21T23:16:11.118Z',
  type: 'session_meta',
  payload: {
    session_id: THREAD,
    id: THREAD,
    timestamp: '2026-11-21T23:16:11.086Z',
    cwd: '/home/user/repo',
    originator: 'codex_exec',
    cli_version: '0.169.0',
    source: 'exec',
    model_provider: 'fake',
    base_instructions: { text: 'You are a coding agent…' },
    git: {},
  },
}
const event = (payload: object, at = '2026-11-21T23:16:12.000Z') => ({
  timestamp: at,
  type: 'event_msg',
  payload,
})
const message = (role: string, type: string, text: string, at = '2026-11-21T23:16:12.100Z') => ({
  timestamp: at,
  type: 'response_item',
  payload: { type: 'message', role, content: [{ type, text }] },
})
const tokenCount = (input: number, cached: number, output: number) =>
  event({
    type: 'token_count',
    info: {
      total_token_usage: {
        input_tokens: input,
        cached_input_tokens: cached,
        cache_write_input_tokens: 0,
        output_tokens: output,
        reasoning_output_tokens: 5,
        total_tokens: input + output,
      },
      last_token_usage: {},
      model_context_window: 258400,
    },
  })

function fold(lines: unknown[]) {
  const summary = emptyCodexRolloutSummary(threadIdFromRolloutPath(PATH), PATH)
  for (const line of lines) foldCodexLine(summary, line)
  return summary
}

describe('threadIdFromRolloutPath', () => {
  it('takes the uuid at the end of the file name', () => {
    expect(threadIdFromRolloutPath(PATH)).toBe(THREAD)
  })
  it('falls back to the file name', () => {
    expect(threadIdFromRolloutPath('/x/rollout-odd.jsonl')).toBe('rollout-odd')
  })
})

describe('foldCodexLine', () => {
  it('folds a complete exec turn', () => {
    const s = fold([
      sessionMeta,
      event({ type: 'task_started', turn_id: 't1', started_at: 1795302995 }),
      {
        timestamp: '2026-11-21T23:16:12.050Z',
        type: 'turn_context',
        payload: { cwd: '/elsewhere', model: 'gpt-fake-1' },
      },
      message('developer', 'input_text', '<permissions instructions>…'),
      message(
        'user',
        'input_text',
        '<environment_context>\n  <cwd>/home/user/repo</cwd>\n</environment_context>',
      ),
      message('user', 'input_text', 'do work'),
      message('assistant', 'output_text', 'Working on it.'),
      tokenCount(120, 20, 30),
      tokenCount(360, 60, 90),
      event(
        { type: 'task_complete', turn_id: 't1', last_agent_message: 'All done in codex.' },
        '2026-11-21T23:16:13.000Z',
      ),
      { timestamp: '2026-11-21T23:16:13.100Z', type: 'world_state', payload: { anything: 1 } },
    ])
    expect(s).toMatchObject({
      threadId: THREAD,
      cwd: '/home/user/repo',
      source: 'exec',
      cliVersion: '0.169.0',
      startedAt: '2026-11-21T23:16:11.086Z',
      lastActivity: '2026-11-21T23:16:13.100Z',
      turns: 1,
      inTurn: false,
      firstUserMessage: 'do work',
      lastAgentMessage: 'All done in codex.',
      branch: null,
    })
    // Latest cumulative total; cached tokens are part of OpenAI's input_tokens.
    expect(s.tokens).toEqual({
      input: 300,
      output: 90,
      cache_read: 60,
      cache_creation: 0,
      total: 450,
    })
  })

  it('is in a turn between task_started and task_complete, and counts turns', () => {
    const s = fold([sessionMeta, event({ type: 'task_started' })])
    expect(s.inTurn).toBe(true)
    foldCodexLine(s, event({ type: 'task_complete', last_agent_message: 'one' }))
    foldCodexLine(s, event({ type: 'task_started' }))
    expect(s).toMatchObject({ turns: 2, inTurn: true, lastAgentMessage: 'one' })
    foldCodexLine(s, event({ type: 'turn_aborted', reason: 'interrupted' }))
    expect(s.inTurn).toBe(false)
  })

  it('reads the git branch and takes cwd from turn_context when session_meta has none', () => {
    const s = fold([
      {
        ...sessionMeta,
        payload: {
          ...sessionMeta.payload,
          cwd: undefined,
          git: { branch: 'feature/x', commit_hash: 'abc' },
        },
      },
      {
        timestamp: '2026-11-21T23:16:12Z',
        type: 'turn_context',
        payload: { cwd: '/home/user/repo2' },
      },
    ])
    expect(s.branch).toBe('feature/x')
    expect(s.cwd).toBe('/home/user/repo2')
  })

  it('keeps the file-name thread id without session_meta and ignores junk', () => {
    const s = fold([
      null,
      5,
      { type: 'event_msg' },
      { type: 'event_msg', payload: { type: 'mystery' } },
    ])
    expect(s.threadId).toBe(THREAD)
    expect(s.turns).toBe(0)
    expect(s.tokens.total).toBe(0)
  })
})

describe('codexTokenUsage', () => {
  it('never goes negative when cached exceeds input', () => {
    expect(
      codexTokenUsage({ input_tokens: 10, cached_input_tokens: 50, output_tokens: 1 }),
    ).toEqual({
      input: 0,
      output: 1,
      cache_read: 10,
      cache_creation: 0,
      total: 11,
    })
  })

  it('keeps the shell command run back to back, and how many of its runs failed in a row', () => {
    let n = 0
    const call = (cmd: string, name = 'exec_command') => {
      n++
      return {
        timestamp: `2026-11-21T23:16:${String(20 + n).padStart(2, '0')}.000Z`,
        type: 'response_item',
        payload: {
          type: 'function_call',
          status: 'completed',
          id: `fc_${n}`,
          name,
          arguments: JSON.stringify({ cmd }),
          call_id: `call_${n}`,
        },
      }
    }
    const output = (code: number | null) => ({
      timestamp: `2026-11-21T23:16:${String(20 + n).padStart(2, '0')}.500Z`,
      type: 'response_item',
      payload: {
        type: 'function_call_output',
        call_id: `call_${n}`,
        output:
          code === null
            ? 'aborted by the sandbox'
            : `Chunk ID: f3e273\nWall time: 0.0000 seconds\nProcess exited with code ${code}\nOutput:\n`,
      },
    })
    const s = fold([
      sessionMeta,
      message('user', 'input_text', 'fix the build'),
      call('make'),
      output(2),
      call('make'),
      output(2),
      call('make'),
    ])
    expect(s.commandStreak).toMatchObject({ command: 'make', runs: 3, failures: 2 })
    foldCodexLine(s, output(2))
    expect(s.commandStreak).toMatchObject({ runs: 3, failures: 3, pendingId: null })
    // A result that does not say how it ended leaves the count alone; a success ends it.
    foldCodexLine(s, call('make'))
    foldCodexLine(s, output(null))
    expect(s.commandStreak).toMatchObject({ runs: 4, failures: 3 })
    foldCodexLine(s, call('make'))
    foldCodexLine(s, output(0))
    expect(s.commandStreak).toMatchObject({ runs: 5, failures: 0 })
    // Another tool ends the streak, and so does the user's next message.
    foldCodexLine(s, call('*** Begin Patch', 'apply_patch'))
    expect(s.commandStreak).toBeNull()
    foldCodexLine(s, call('make'))
    foldCodexLine(s, message('user', 'input_text', 'stop and explain'))
    expect(s.commandStreak).toBeNull()
  })
})
