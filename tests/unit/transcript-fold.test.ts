import { describe, expect, it } from 'vitest'
import {
  emptyTranscriptSummary,
  foldTranscriptLine,
} from '../../electron/engine/core/transcript-fold.ts'
import { summarizeTokens } from '../../electron/engine/core/usage-tally.ts'

// Shapes copied from agent-cli-formats.md sections 8.2–8.5 (2.1.197), shortened.
const base = {
  parentUuid: null,
  isSidechain: false,
  userType: 'external',
  entrypoint: 'sdk-cli',
  cwd: '/home/user/proj',
  sessionId: '2aeb09d6-0000',
  version: '2.1.197',
  gitBranch: 'feature/demo',
}

let clock = 0
const ts = () => new Date(Date.UTC(2026, 10, 21, 22, 38, 0) + 1000 * clock++).toISOString()

const prompt = (content: unknown, extra: object = {}) => ({
  ...base,
  type: 'user',
  promptId: '718eadbe',
  message: { role: 'user', content },
  uuid: `u${clock}`,
  timestamp: ts(),
  ...extra,
})

const usage = (input: number, output: number, cacheRead = 0, cacheCreation = 0) => ({
  input_tokens: input,
  cache_creation_input_tokens: cacheCreation,
  cache_read_input_tokens: cacheRead,
  output_tokens: output,
  server_tool_use: { web_search_requests: 0 },
  service_tier: 'standard',
})

const assistant = (
  id: string,
  content: unknown[],
  stopReason: string | null,
  u = usage(100, 25),
) => ({
  ...base,
  type: 'assistant',
  message: {
    id,
    type: 'message',
    role: 'assistant',
    model: 'claude-opus-4-8',
    content,
    stop_reason: stopReason,
    usage: u,
  },
  requestId: 'req_fake_2',
  uuid: `a${clock}`,
  timestamp: ts(),
})

const toolUse = (id: string, name: string, input: object = {}) => ({
  type: 'tool_use',
  id,
  name,
  input,
})

const toolResult = (toolUseId: string, toolUseResult: unknown = {}, isError = false) => ({
  ...base,
  type: 'user',
  message: {
    role: 'user',
    content: [{ tool_use_id: toolUseId, type: 'tool_result', content: 'ok', is_error: isError }],
  },
  toolUseResult,
  sourceToolAssistantUUID: 'x',
  uuid: `r${clock}`,
  timestamp: ts(),
})

const system = (subtype: string) => ({
  ...base,
  type: 'system',
  subtype,
  uuid: `s${clock}`,
  timestamp: ts(),
})

function fold(lines: unknown[]) {
  const summary = emptyTranscriptSummary('2aeb09d6-0000', '/tmp/t.jsonl')
  for (const line of lines) foldTranscriptLine(summary, line)
  return summary
}

describe('foldTranscriptLine', () => {
  it('reads session metadata and activity times', () => {
    const first = prompt('say hi')
    const last = assistant('msg_1', [{ type: 'text', text: 'hi' }], 'end_turn')
    const s = fold([
      {
        type: 'queue-operation',
        operation: 'enqueue',
        timestamp: first.timestamp,
        content: 'say hi',
      },
      first,
      last,
    ])
    expect(s).toMatchObject({
      cwd: '/home/user/proj',
      branch: 'feature/demo',
      version: '2.1.197',
      entrypoint: 'sdk-cli',
      firstActivity: first.timestamp,
      lastActivity: last.timestamp,
      turns: 1,
      lastPrompt: 'say hi',
    })
  })

  it('counts a response split over several lines once per message.id, last usage winning', () => {
    const s = fold([
      prompt('do it'),
      assistant('msg_3', [{ type: 'text', text: 'writing' }], 'tool_use', usage(100, 25, 10, 5)),
      assistant('msg_3', [toolUse('toolu_1', 'Write')], 'tool_use', usage(100, 30, 10, 5)),
      toolResult('toolu_1'),
      assistant('msg_4', [{ type: 'text', text: 'done' }], 'end_turn', usage(200, 7, 50, 0)),
    ])
    expect(s.usage.messages).toBe(2)
    expect(summarizeTokens(s)).toEqual({
      input: 300,
      output: 37,
      cache_read: 60,
      cache_creation: 5,
      total: 402,
    })
  })

  it('follows the tail through a tool call and the end of the turn', () => {
    const s = emptyTranscriptSummary('s', 'p')
    expect(s.tail).toEqual({ kind: 'none' })
    const p = prompt('go')
    foldTranscriptLine(s, p)
    expect(s.tail).toEqual({ kind: 'prompt', at: p.timestamp })
    const textPart = assistant('msg_1', [{ type: 'text', text: 'let me' }], 'tool_use')
    foldTranscriptLine(s, textPart)
    expect(s.tail.kind).toBe('prompt')
    const use = assistant(
      'msg_1',
      [toolUse('toolu_9', 'Bash', { command: 'ls', description: 'List the files' })],
      'tool_use',
    )
    foldTranscriptLine(s, use)
    expect(s.tail).toEqual({
      kind: 'tool_pending',
      at: use.timestamp,
      toolName: 'Bash',
      toolUseId: 'toolu_9',
      detail: 'ls',
      description: 'List the files',
    })
    const result = toolResult('toolu_9')
    foldTranscriptLine(s, result)
    expect(s.tail).toEqual({ kind: 'tool_result', at: result.timestamp })
    const end = assistant('msg_2', [{ type: 'text', text: 'done' }], 'end_turn')
    foldTranscriptLine(s, end)
    expect(s.tail).toEqual({ kind: 'turn_end', at: end.timestamp })
    const hook = system('stop_hook_summary')
    foldTranscriptLine(s, hook)
    const duration = system('turn_duration')
    foldTranscriptLine(s, duration)
    expect(s.tail).toEqual({ kind: 'turn_end', at: duration.timestamp })
  })

  it('stays tool_pending while one of two parallel tool calls has no result', () => {
    const s = fold([
      prompt('two things'),
      assistant('msg_1', [toolUse('toolu_a', 'Read'), toolUse('toolu_b', 'Grep')], 'tool_use'),
      toolResult('toolu_b'),
    ])
    expect(s.tail).toMatchObject({ kind: 'tool_pending', toolUseId: 'toolu_a', toolName: 'Read' })
    expect([...(s.pendingToolUses ?? new Map()).keys()]).toEqual(['toolu_a'])
    foldTranscriptLine(s, toolResult('toolu_a'))
    expect(s.tail.kind).toBe('tool_result')
  })

  it('does not treat stop_hook_summary as a turn end on its own', () => {
    const s = fold([prompt('x'), system('stop_hook_summary')])
    expect(s.tail.kind).toBe('prompt')
  })

  it('recognizes an interrupted tool use and an API error', () => {
    const interrupted = fold([
      prompt('x'),
      assistant('msg_1', [toolUse('toolu_1', 'Write')], 'tool_use'),
      toolResult('toolu_1', 'User rejected tool use', true),
      prompt([{ type: 'text', text: '[Request interrupted by user for tool use]' }], {
        interruptedMessageId: 'msg_1',
      }),
    ])
    expect(interrupted.tail.kind).toBe('interrupted')
    expect(interrupted.turns).toBe(1)
    expect(interrupted.lastPrompt).toBe('x')
    expect(interrupted.pendingToolUses?.size).toBe(0)

    const failed = fold([
      prompt('x'),
      {
        ...assistant(
          '25eec452',
          [{ type: 'text', text: 'API Error: Request rejected (429) · fake 429 error' }],
          'stop_sequence',
          usage(0, 0),
        ),
        error: 'rate_limit',
        isApiErrorMessage: true,
        apiErrorStatus: 429,
      },
    ])
    expect(failed.tail).toMatchObject({
      kind: 'api_error',
      message: 'API Error: Request rejected (429) · fake 429 error',
      errorClass: 'rate_limit',
      status: 429,
    })
    // The 2.1.197 TUI writes the turn's duration after the error: the turn still ended on it.
    foldTranscriptLine(failed, system('turn_duration'))
    expect(failed.tail.kind).toBe('api_error')
  })

  it('keeps the shell command run back to back, its runs and its failures in a row', () => {
    const bash = (id: string, command: string) =>
      assistant(`m_${id}`, [toolUse(id, 'Bash', { command, description: 'run it' })], 'tool_use')
    const s = fold([
      prompt('fix the tests'),
      bash('t1', 'npm test'),
      toolResult('t1', {}, true),
      bash('t2', 'npm test'),
      toolResult('t2', {}, true),
      bash('t3', 'npm test'),
    ])
    expect(s.commandStreak).toMatchObject({ command: 'npm test', runs: 3, failures: 2 })
    foldTranscriptLine(s, toolResult('t3', {}, true))
    expect(s.commandStreak).toMatchObject({ runs: 3, failures: 3, pendingId: null })
    // A success ends the failures, not the runs.
    foldTranscriptLine(s, bash('t4', 'npm test'))
    foldTranscriptLine(s, toolResult('t4'))
    expect(s.commandStreak).toMatchObject({ runs: 4, failures: 0 })
    // Another command starts a new streak; another tool, or the user's prompt, ends it.
    foldTranscriptLine(s, bash('t5', 'npm test -- --watch=false'))
    expect(s.commandStreak).toMatchObject({ command: 'npm test -- --watch=false', runs: 1 })
    foldTranscriptLine(
      s,
      assistant('m_r', [toolUse('r1', 'Read', { file_path: '/a' })], 'tool_use'),
    )
    expect(s.commandStreak).toBeNull()
    foldTranscriptLine(s, bash('t6', 'npm test'))
    foldTranscriptLine(s, prompt('stop looping'))
    expect(s.commandStreak).toBeNull()
  })

  it('compares whole commands, showing only their start', () => {
    const long = (end: string) => `echo ${'x'.repeat(400)} ${end}`
    const s = fold([
      prompt('go'),
      assistant('m1', [toolUse('a', 'Bash', { command: long('one') })], 'tool_use'),
      assistant('m2', [toolUse('b', 'Bash', { command: long('two') })], 'tool_use'),
    ])
    expect(s.commandStreak?.runs).toBe(1)
    expect(s.commandStreak?.command.length).toBeLessThanOrEqual(300)
  })

  it('ignores sidechain lines for the tail, prompt and turns', () => {
    const s = fold([
      prompt('main prompt'),
      assistant('msg_1', [{ type: 'text', text: 'ok' }], 'end_turn'),
    ])
    const tailBefore = s.tail
    foldTranscriptLine(s, {
      ...prompt('sub prompt'),
      isSidechain: true,
      agentId: 'a91',
      cwd: '/elsewhere',
    })
    foldTranscriptLine(s, {
      ...assistant('msg_sub', [toolUse('toolu_s', 'Read')], 'tool_use'),
      isSidechain: true,
    })
    expect(s.tail).toBe(tailBefore)
    expect(s.turns).toBe(1)
    expect(s.lastPrompt).toBe('main prompt')
    expect(s.cwd).toBe('/home/user/proj')
  })

  it('ignores unknown line types, unknown fields and non-objects', () => {
    const s = fold([prompt('x')])
    const before = structuredClone(s)
    for (const line of [
      null,
      42,
      'text',
      [],
      { type: 'api-request-shape', shape: {} },
      { type: 'cost-state', totalCostUSD: 1 },
      { type: 'file-history-snapshot', messageId: 'm', snapshot: {} },
      { type: 'assistant', message: 'not an object' },
      { type: 'user', message: { content: 7 } },
      { type: 'mode', mode: 'normal' },
    ]) {
      foldTranscriptLine(s, line)
    }
    expect(s).toEqual(before)
  })

  it('prefers the newest of last-prompt and real prompts, skipping non-prompts', () => {
    const s = fold([
      prompt('first question'),
      { type: 'last-prompt', lastPrompt: 'first question (typed)', leafUuid: 'x', sessionId: 's' },
      prompt('<command-name>/compact</command-name>'),
      prompt('<local-command-caveat>Caveat</local-command-caveat>', { isMeta: true }),
      prompt('This session is being continued from a previous conversation…', {
        isCompactSummary: true,
        isVisibleInTranscriptOnly: true,
      }),
      prompt('<local-command-stdout>Compacted</local-command-stdout>'),
    ])
    expect(s.lastPrompt).toBe('first question (typed)')
    expect(s.turns).toBe(1)
    expect(s.tail.kind).toBe('turn_end')
    foldTranscriptLine(s, prompt([{ type: 'text', text: 'second question' }, { type: 'image' }]))
    expect(s.lastPrompt).toBe('second question')
    expect(s.turns).toBe(2)
    expect(s.tail.kind).toBe('prompt')
  })

  it('keeps ai-title and custom-title apart', () => {
    const s = fold([
      { type: 'ai-title', aiTitle: 'Old title', sessionId: 's' },
      { type: 'custom-title', customTitle: 'pm-test', sessionId: 's' },
      { type: 'ai-title', aiTitle: 'Fake session title', sessionId: 's' },
    ])
    expect(s.title).toBe('Fake session title')
    expect(s.customTitle).toBe('pm-test')
  })

  it('counts a sub-agent once, by tool_use id and then by agent id', () => {
    const s = fold([
      prompt('x'),
      assistant(
        'msg_1',
        [toolUse('toolu_fake_033', 'Agent', { prompt: 'Read a.txt and report' })],
        'tool_use',
      ),
    ])
    expect([...s.subagentIds]).toEqual(['toolu_fake_033'])
    foldTranscriptLine(
      s,
      toolResult('toolu_fake_033', {
        status: 'completed',
        agentId: 'a91fb7c29a2f772a4',
        agentType: 'general-purpose',
      }),
    )
    expect([...s.subagentIds]).toEqual(['a91fb7c29a2f772a4'])
  })

  it('keeps the latest TodoWrite list from tool_use input and toolUseResult', () => {
    const todos = [
      { content: 'Write docs', status: 'completed', activeForm: 'Writing docs' },
      { content: 'Review docs', status: 'in_progress', activeForm: 'Reviewing' },
      { content: 'bad status', status: 'deleted' },
    ]
    const s = fold([
      prompt('x'),
      assistant('msg_1', [toolUse('toolu_t', 'TodoWrite', { todos })], 'tool_use'),
    ])
    expect(s.todos).toEqual([
      { id: '1', title: 'Write docs', status: 'completed' },
      { id: '2', title: 'Review docs', status: 'in_progress' },
    ])
    foldTranscriptLine(
      s,
      toolResult('toolu_t', {
        oldTodos: todos,
        newTodos: [{ content: 'Ship', status: 'pending', activeForm: 'Shipping' }],
      }),
    )
    expect(s.todos).toEqual([{ id: '1', title: 'Ship', status: 'pending' }])
  })
})
