import { describe, expect, it } from 'vitest'
import { extractJsonCandidates } from '../../electron/pm/core/json-in-text.ts'
import { isRetryableStatus, parsePmReply, streamPhase } from '../../electron/pm/core/parse-reply.ts'

const briefing = {
  briefing: 'Two projects moved. navi needs your input.',
  projects: [{ name: 'navi', status: 'needs_input', summary: 'Waiting on a question.' }],
  attention_items: [{ project: 'navi', priority: 'high', title: 'Answer the agent' }],
  breadcrumbs: [],
}

/** A result envelope shaped like the CLI 2.1.197 captures (reference, sections 3.2, 4, 6). */
function envelope(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'result',
    subtype: 'success',
    is_error: false,
    api_error_status: null,
    duration_ms: 812,
    num_turns: 3,
    result: JSON.stringify(briefing),
    stop_reason: 'tool_use',
    session_id: '90522d60-7d55-4f51-94d8-f06072da00d7',
    total_cost_usd: 0.0054,
    usage: {
      input_tokens: 300,
      cache_creation_input_tokens: 20,
      cache_read_input_tokens: 1000,
      output_tokens: 75,
      server_tool_use: { web_search_requests: 0 },
    },
    modelUsage: {},
    permission_denials: [],
    structured_output: briefing,
    terminal_reason: 'completed',
    uuid: 'e02eba0a-6842-4b6b-8f1f-617a7f7a9823',
    ...over,
  }
}

const json = (v: unknown): string => JSON.stringify(v)

describe('parsePmReply: success', () => {
  it('takes structured_output from the json envelope, with usage, session and denials', () => {
    const denial = {
      tool_name: 'Write',
      tool_use_id: 'toolu_1',
      tool_input: { file_path: '/x/outside.md', content: 'x' },
    }
    const reply = parsePmReply(json(envelope({ permission_denials: [denial] })), 0)
    expect(reply.ok).toBe(true)
    if (!reply.ok) return
    expect(reply.source).toBe('structured_output')
    expect(reply.output.projects[0]?.status).toBe('needs_input')
    expect(reply.sessionId).toBe('90522d60-7d55-4f51-94d8-f06072da00d7')
    expect(reply.denials).toEqual([denial])
    expect(reply.usage).toEqual({
      input_tokens: 1320,
      output_tokens: 75,
      cost_usd: 0.0054,
      duration_ms: 812,
      num_turns: 3,
    })
  })

  it('reads the last result line of stream-json and skips lines that are not JSON', () => {
    const lines = [
      json({
        type: 'system',
        subtype: 'init',
        tools: ['Edit', 'Read', 'StructuredOutput', 'Write'],
      }),
      '{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]}',
      'not json at all',
      json({ type: 'assistant', message: { content: [{ type: 'text', text: 'hi' }] } }),
      json(envelope()),
      '',
    ].join('\n')
    const reply = parsePmReply(lines, 0)
    expect(reply.ok && reply.output.briefing).toBe(briefing.briefing)
  })

  it('reads the array of `--output-format json --verbose`', () => {
    const reply = parsePmReply(json([{ type: 'system', subtype: 'init' }, envelope()]), 0)
    expect(reply.ok).toBe(true)
  })

  it('falls back to `result` as JSON, then to JSON in a markdown fence, then to braces in prose', () => {
    const asJson = parsePmReply(json(envelope({ structured_output: undefined })), 0)
    expect(asJson.ok && asJson.source).toBe('result_json')

    const fenced = `Here you go:\n\`\`\`json\n${JSON.stringify(briefing, null, 2)}\n\`\`\`\nDone.`
    const md = parsePmReply(json(envelope({ structured_output: undefined, result: fenced })), 0)
    expect(md.ok && md.source).toBe('result_markdown')

    const prose = `My briefing is ${JSON.stringify({ ...briefing, briefing: 'Use {braces} "wisely".' })} ok?`
    const braces = parsePmReply(json(envelope({ structured_output: undefined, result: prose })), 0)
    expect(braces.ok && braces.output.briefing).toBe('Use {braces} "wisely".')
  })

  it('fills the defaults of optional lists', () => {
    const minimal = { briefing: 'Quiet day.', projects: [] }
    const reply = parsePmReply(json(envelope({ structured_output: minimal })), 0)
    expect(reply.ok && reply.output).toEqual({
      ...minimal,
      attention_items: [],
      breadcrumbs: [],
      suggestions: [],
      patterns: [],
    })
  })
})

describe('parsePmReply: failures', () => {
  it('an API error after the CLI retries is a retryable failure although subtype is success', () => {
    const reply = parsePmReply(
      json(
        envelope({
          is_error: true,
          api_error_status: 429,
          result: 'API Error: Request rejected (429) · fake 429 error',
          structured_output: undefined,
          stop_reason: 'stop_sequence',
        }),
      ),
      1,
    )
    expect(reply).toMatchObject({
      ok: false,
      retryable: true,
      apiErrorStatus: 429,
      hasEnvelope: true,
    })
    expect(!reply.ok && reply.reason).toContain('429')
  })

  it('529 and 5xx are retryable, 400 and 401 are not', () => {
    const fail = (status: number) =>
      parsePmReply(
        json(
          envelope({ is_error: true, api_error_status: status, result: `API Error: ${status}` }),
        ),
        1,
      )
    expect(fail(529)).toMatchObject({ ok: false, retryable: true })
    expect(fail(503)).toMatchObject({ ok: false, retryable: true })
    expect(fail(400)).toMatchObject({ ok: false, retryable: false })
    expect(fail(401)).toMatchObject({ ok: false, retryable: false })
    expect([429, 529, 500, 599].map(isRetryableStatus)).toEqual([true, true, true, true])
    expect([null, 400, 401, 404, 600].map(isRetryableStatus)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ])
  })

  it('an overloaded message without a status is retryable', () => {
    const reply = parsePmReply(
      json(
        envelope({ is_error: true, result: 'API Error: Overloaded', structured_output: undefined }),
      ),
      1,
    )
    expect(reply).toMatchObject({ ok: false, retryable: true })
  })

  it('a non-zero exit fails even when the envelope says no error', () => {
    const reply = parsePmReply(json(envelope()), 1)
    expect(reply).toMatchObject({ ok: false, retryable: false })
    expect(!reply.ok && reply.reason).toContain('exit 1')
  })

  it('five invalid StructuredOutput calls: the CLI errors list becomes the reason', () => {
    const reply = parsePmReply(
      json(
        envelope({
          subtype: 'error_max_structured_output_retries',
          is_error: true,
          result: undefined,
          structured_output: undefined,
          errors: ['Failed to provide valid structured output after 5 attempts'],
        }),
      ),
      1,
    )
    expect(reply).toMatchObject({ ok: false, retryable: false })
    expect(!reply.ok && reply.reason).toContain('after 5 attempts')
  })

  it('exit 0 with prose only (no structured_output) is a failure quoting the text', () => {
    const reply = parsePmReply(
      json(envelope({ structured_output: undefined, result: 'Everything looks fine today.' })),
      0,
    )
    expect(reply).toMatchObject({ ok: false, retryable: false, hasEnvelope: true })
    expect(!reply.ok && reply.reason).toMatch(/no briefing.*Everything looks fine/)
  })

  it('invalid JSON in a fence is a failure', () => {
    const text = '```json\n{"briefing": "x", "projects": [}\n```'
    const reply = parsePmReply(json(envelope({ structured_output: undefined, result: text })), 0)
    expect(reply).toMatchObject({ ok: false })
    expect(!reply.ok && reply.reason).toContain('no briefing')
  })

  it('a structured output that violates the schema names the field', () => {
    const bad = { ...briefing, projects: [{ name: 'navi', status: 'on_fire', summary: 's' }] }
    const reply = parsePmReply(json(envelope({ structured_output: bad, result: json(bad) })), 0)
    expect(reply).toMatchObject({ ok: false, retryable: false })
    expect(!reply.ok && reply.reason).toMatch(/invalid briefing: structured_output: .*status/)
  })

  it('says when the CLI offered no StructuredOutput tool', () => {
    const lines = [
      json({ type: 'system', subtype: 'init', tools: ['Edit', 'Read', 'Write'] }),
      json(envelope({ structured_output: undefined, result: 'plain one' })),
    ].join('\n')
    const reply = parsePmReply(lines, 0)
    expect(!reply.ok && reply.reason).toContain('no StructuredOutput tool')
  })

  it('no envelope at all (unknown session, crash, kill) is a failure without envelope', () => {
    expect(parsePmReply('', 1)).toMatchObject({ ok: false, hasEnvelope: false, retryable: false })
    expect(parsePmReply('garbage\n{"type":"assistant"}', undefined)).toMatchObject({
      ok: false,
      hasEnvelope: false,
    })
  })

  it('a corrupt usage block does not hide the briefing', () => {
    const reply = parsePmReply(json(envelope({ usage: 'weird', total_cost_usd: 'x' })), 0)
    expect(reply.ok).toBe(true)
    expect(reply.usage).toMatchObject({ input_tokens: 0, cost_usd: 0, num_turns: 3 })
  })
})

describe('streamPhase', () => {
  const assistant = (...content: unknown[]) => json({ type: 'assistant', message: { content } })
  it.each([
    [
      json({ type: 'system', subtype: 'init', model: 'claude-sonnet-5' }),
      { phase: 'starting', detail: 'claude-sonnet-5' },
    ],
    [
      assistant({ type: 'tool_use', name: 'Read', input: { file_path: '/m/short-term.md' } }),
      { phase: 'reading_memory', detail: '/m/short-term.md' },
    ],
    [
      assistant({ type: 'tool_use', name: 'Write', input: { file_path: '/m/short-term.md' } }),
      { phase: 'writing_memory', detail: '/m/short-term.md' },
    ],
    [assistant({ type: 'tool_use', name: 'Edit', input: {} }), { phase: 'writing_memory' }],
    [assistant({ type: 'text', text: 'hmm' }), { phase: 'thinking' }],
    [assistant({ type: 'thinking', thinking: '…' }), { phase: 'thinking' }],
    [assistant({ type: 'tool_use', name: 'StructuredOutput', input: {} }), { phase: 'thinking' }],
    [
      assistant({ type: 'text', text: 'reading' }, { type: 'tool_use', name: 'Read', input: {} }),
      { phase: 'reading_memory' },
    ],
    [json({ type: 'result', is_error: false }), { phase: 'done' }],
    [json({ type: 'result', is_error: true }), { phase: 'failed' }],
    [json({ type: 'user', message: { content: [] } }), null],
    [json({ type: 'system', subtype: 'api_retry' }), null],
    ['not json', null],
    [json([1, 2]), null],
  ])('%s', (line, expected) => {
    expect(streamPhase(line)).toEqual(expected)
  })
})

describe('extractJsonCandidates', () => {
  it('prefers fenced blocks, then balanced objects, skipping braces inside strings', () => {
    const text = 'a {not json} b ```json\n{"x":1}\n``` c {"y":"}{"} d {"z":[1,{"w":2}]} e {unclosed'
    expect(extractJsonCandidates(text)).toEqual([
      { x: 1 },
      { x: 1 },
      { y: '}{' },
      { z: [1, { w: 2 }] },
    ])
  })

  it('finds nothing in plain prose', () => {
    expect(extractJsonCandidates('no json here, only {curly words}')).toEqual([])
  })
})
