/**
 * Content rows for transcripts and Codex rollouts: values no CLI writes (1e308 tokens, year 9999,
 * 100 MB prompts, escape sequences, 100,000 garbage lines). A bad field degrades its own record only.
 */
import { SESSION_ID, type CaseContext } from './context.ts'
import {
  activityBelievable,
  assistantLine,
  HOSTILE,
  iso,
  listed,
  MB,
  MINUTE,
  sessionOf,
  tokensFinite,
  userLine,
} from './row-helpers.ts'
import type { BadInput } from './types.ts'

/** A transcript row: a normal first line, then `lines(ctx)`. */
const transcriptRow = (
  name: string,
  lines: (ctx: CaseContext) => (object | string)[],
  check?: BadInput['check'],
): BadInput => ({
  group: 'transcript',
  name: `transcript: ${name}`,
  plant: async (ctx) => void (await ctx.transcript([userLine(ctx), ...lines(ctx)])),
  ...(check ? { check } : {}),
})

const TRANSCRIPT_ROWS: BadInput[] = [
  {
    ...transcriptRow(
      'usage 1.7e308 twice (sums to Infinity)',
      (ctx) => [
        assistantLine(ctx, { input_tokens: 1.7e308, output_tokens: 1.7e308 }),
        assistantLine(ctx, { input_tokens: 1.7e308, output_tokens: 1.7e308 }),
      ],
      tokensFinite,
    ),
    reported: () => `${SESSION_ID}.jsonl: 2 line(s) skipped or with values ignored`,
  },
  transcriptRow(
    'negative usage',
    (ctx) => [assistantLine(ctx, { input_tokens: -5e9, output_tokens: -1 })],
    tokensFinite,
  ),
  transcriptRow(
    'usage as strings',
    (ctx) => [assistantLine(ctx, { input_tokens: '12', output_tokens: '1e9' })],
    tokensFinite,
  ),
  transcriptRow(
    'fractional usage',
    (ctx) => [assistantLine(ctx, { input_tokens: 0.5, output_tokens: 1.25 })],
    tokensFinite,
  ),
  transcriptRow(
    '1e15 tokens in one response',
    (ctx) => [assistantLine(ctx, { input_tokens: 1e15, output_tokens: 1 })],
    tokensFinite,
  ),
  transcriptRow('usage an array', (ctx) => [assistantLine(ctx, [1, 2])], tokensFinite),
  transcriptRow(
    'timestamp that is not a date',
    (ctx) => [userLine(ctx, { timestamp: 'zzz not a date' })],
    activityBelievable,
  ),
  {
    ...transcriptRow(
      'timestamp in year 9999',
      (ctx) => [userLine(ctx, { timestamp: '9999-12-31T23:59:59.000Z' })],
      activityBelievable,
    ),
    reported: () => `${SESSION_ID}.jsonl: 1 line(s) skipped or with values ignored`,
  },
  transcriptRow(
    'timestamp in year 0001',
    (ctx) => [userLine(ctx, { timestamp: '0001-01-01T00:00:00.000Z' })],
    activityBelievable,
  ),
  transcriptRow(
    'timestamp a number',
    (ctx) => [userLine(ctx, { timestamp: 1e308 })],
    activityBelievable,
  ),
  transcriptRow(
    'timestamp 1 MB long',
    (ctx) => [userLine(ctx, { timestamp: `2026-${'1'.repeat(MB)}` })],
    activityBelievable,
  ),
  transcriptRow(
    'a 5 MB prompt',
    (ctx) => [userLine(ctx, { message: { role: 'user', content: 'p'.repeat(5 * MB) } })],
    (out) => {
      const prompt = sessionOf(out)?.last_prompt ?? ''
      return prompt.length <= 2001 ? null : `last_prompt is ${prompt.length} long`
    },
  ),
  transcriptRow(
    'a 5 MB last-prompt line',
    () => [{ type: 'last-prompt', lastPrompt: 'q'.repeat(5 * MB), sessionId: SESSION_ID }],
    (out) => {
      const prompt = sessionOf(out)?.last_prompt ?? ''
      return prompt.length <= 2001 ? null : `last_prompt is ${prompt.length} long`
    },
  ),
  transcriptRow(
    'a 17 MB line (over the line cap)',
    (ctx) => [userLine(ctx, { message: { role: 'user', content: 'x'.repeat(17 * MB) } })],
    (out) =>
      (out.doctor?.corrupt_lines['claude transcripts'] ?? 0) > 0
        ? null
        : 'the oversized line was not counted',
  ),
  transcriptRow(
    'ai-title full of escapes',
    () => [{ type: 'ai-title', aiTitle: HOSTILE, sessionId: SESSION_ID }],
    listed,
  ),
  transcriptRow(
    'custom-title 1 MB long',
    () => [{ type: 'custom-title', customTitle: 't'.repeat(MB), sessionId: SESSION_ID }],
    (out) => ((sessionOf(out)?.name.length ?? 0) <= 201 ? null : 'the name was not capped'),
  ),
  transcriptRow('cwd with escapes, bidi and newlines', (ctx) => [
    userLine(ctx, { cwd: `${ctx.scratch}\n${HOSTILE}` }),
  ]),
  transcriptRow('gitBranch with escapes', (ctx) => [userLine(ctx, { gitBranch: HOSTILE })]),
  transcriptRow(
    '100,000 lines of garbage',
    () => Array.from({ length: 100_000 }, (_, i) => `{garbage ${i}`),
    (out) =>
      (out.doctor?.corrupt_lines['claude transcripts'] ?? 0) >= 100_000
        ? null
        : 'the garbage lines were not counted',
  ),
  transcriptRow('NUL characters inside strings', (ctx) => [
    userLine(ctx, { message: { role: 'user', content: 'a\u0000b\u0000c' } }),
  ]),
  transcriptRow('invalid UTF-8 inside a line', () => [
    Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]).toString('latin1'),
  ]),
  transcriptRow('lone surrogates', (ctx) => [
    `{"type":"user","message":{"role":"user","content":"\\ud800\\udfff\\udc00"},"cwd":"${ctx.scratch}","sessionId":"${SESSION_ID}"}`,
  ]),
  transcriptRow('one line nested 100,000 deep', () => [
    `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  ]),
  transcriptRow('TodoWrite with 100,000 items and bad statuses', (ctx) => [
    assistantLine(
      ctx,
      { input_tokens: 1, output_tokens: 1 },
      {
        message: {
          id: 'msg_todo',
          role: 'assistant',
          stop_reason: 'tool_use',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_1',
              name: 'TodoWrite',
              input: {
                todos: Array.from({ length: 100_000 }, (_, i) => ({
                  content: `t${i}`,
                  status: i % 2 ? 'pending' : 'on fire',
                })),
              },
            },
          ],
        },
      },
    ),
  ]),
  transcriptRow('10,000 tool calls never answered', (ctx) => [
    assistantLine(
      ctx,
      {},
      {
        message: {
          id: 'msg_many',
          role: 'assistant',
          stop_reason: 'tool_use',
          content: Array.from({ length: 10_000 }, (_, i) => ({
            type: 'tool_use',
            id: `t${i}`,
            name: 'Bash',
            input: {},
          })),
        },
      },
    ),
  ]),
  transcriptRow('message content an object, a number, null', (ctx) => [
    userLine(ctx, { message: { role: 'user', content: { a: 1 } } }),
    userLine(ctx, { message: { role: 'user', content: 7 } }),
    userLine(ctx, { message: null }),
  ]),
  transcriptRow('sessionId of another session in every line', (ctx) => [
    userLine(ctx, { sessionId: 'someone-else' }),
  ]),
  {
    group: 'transcript',
    name: 'transcript: garbage appended to the healthy session itself',
    plant: async (ctx) => {
      const { appendFile } = await import('node:fs/promises')
      await appendFile(
        ctx.healthyTranscript,
        `{broken\n${JSON.stringify({ type: 'assistant', timestamp: '9999-01-01T00:00:00Z', message: { id: 'm', usage: { input_tokens: 1e308 } } })}\n\u0000\u0000\n`,
      )
    },
    check: (out, ctx) => {
      const session = sessionOf(out, ctx.healthy.sessionId)
      if (!session) return 'the healthy session is gone'
      return session.last_activity?.startsWith('9999') ? 'year 9999 became last_activity' : null
    },
  },
  {
    group: 'transcript',
    name: 'transcript: a 100 MB prompt',
    plant: async (ctx) =>
      void (await ctx.transcript([
        userLine(ctx, { message: { role: 'user', content: 'P'.repeat(100 * MB) } }),
      ])),
  },
]

const rolloutRow = (
  name: string,
  lines: (ctx: CaseContext) => (object | string)[],
  check?: BadInput['check'],
): BadInput => ({
  group: 'Codex rollout',
  name: `Codex rollout: ${name}`,
  plant: async (ctx) =>
    void (await ctx.rollout([
      {
        timestamp: iso(5 * MINUTE),
        type: 'session_meta',
        payload: { id: SESSION_ID, cwd: ctx.scratch, cli_version: '0.1' },
      },
      ...lines(ctx),
    ])),
  ...(check ? { check } : {}),
})

const ROLLOUT_ROWS: BadInput[] = [
  rolloutRow(
    'token_count 1.7e308',
    () => [
      {
        timestamp: iso(MINUTE),
        type: 'event_msg',
        payload: {
          type: 'token_count',
          info: { total_token_usage: { input_tokens: 1.7e308, output_tokens: 1.7e308 } },
        },
      },
    ],
    tokensFinite,
  ),
  rolloutRow(
    'timestamp in year 9999',
    () => [
      { timestamp: '9999-01-01T00:00:00Z', type: 'event_msg', payload: { type: 'task_started' } },
    ],
    activityBelievable,
  ),
  rolloutRow('session_meta cwd full of escapes', (ctx) => [
    {
      timestamp: iso(MINUTE),
      type: 'session_meta',
      payload: { id: SESSION_ID, cwd: `${ctx.scratch}/${HOSTILE}` },
    },
  ]),
  rolloutRow('garbage lines', () => ['{', 'nope', '[]', 'null']),
  rolloutRow(
    'a 5 MB user message',
    () => [
      {
        timestamp: iso(MINUTE),
        type: 'event_msg',
        payload: { type: 'user_message', message: 'u'.repeat(5 * MB) },
      },
    ],
    (out) =>
      (sessionOf(out)?.last_prompt?.length ?? 0) <= 2001 ? null : 'the message was not capped',
  ),
  rolloutRow('payload not an object', () => [
    { timestamp: iso(MINUTE), type: 'event_msg', payload: 'x' },
  ]),
  rolloutRow('a 1 MB session id', () => [
    { timestamp: iso(MINUTE), type: 'session_meta', payload: { id: 'i'.repeat(MB) } },
  ]),
  rolloutRow('source an odd object', () => [
    { timestamp: iso(MINUTE), type: 'session_meta', payload: { source: { ['\u001b[2J']: 1 } } },
  ]),
  rolloutRow('git.branch with escapes', () => [
    { timestamp: iso(MINUTE), type: 'session_meta', payload: { git: { branch: HOSTILE } } },
  ]),
]

export const TRANSCRIPT_ROWS_ALL: BadInput[] = [...TRANSCRIPT_ROWS, ...ROLLOUT_ROWS]
