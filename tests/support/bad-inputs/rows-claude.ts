/**
 * Content rows for what Claude Code and Codex write: live-session files, transcripts, task files, the
 * hook inbox and Codex rollouts, each with values no CLI writes (1e308, year 9999, 100 MB prompts,
 * escape sequences, prototype keys). A bad field degrades its own record only.
 */
import { join } from 'node:path'
import { SESSION_ID, type CaseContext } from './context.ts'
import type { BadInput, CaseOutput } from './types.ts'

/** Clears the screen, writes the clipboard (OSC 52), reverses text and hides characters. */
export const HOSTILE = '\u001b[2J\u001b]52;c;SGFja2Vk\u0007\u202eevil\u2066x\u2069\u200bend\u009b1m'

const MINUTE = 60_000
const iso = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString()
const MB = 1024 * 1024

const sessionOf = (out: CaseOutput, id = SESSION_ID) =>
  out.sessions?.sessions.find((session) => session.id === id)

const userLine = (ctx: CaseContext, over: Record<string, unknown> = {}) => ({
  type: 'user',
  message: { role: 'user', content: 'hello' },
  timestamp: iso(10 * MINUTE),
  cwd: ctx.scratch,
  sessionId: SESSION_ID,
  ...over,
})

const assistantLine = (ctx: CaseContext, usage: unknown, over: Record<string, unknown> = {}) => ({
  type: 'assistant',
  message: {
    id: `msg_${Math.random().toString(36).slice(2)}`,
    role: 'assistant',
    content: [{ type: 'text', text: 'ok' }],
    stop_reason: 'end_turn',
    usage,
  },
  timestamp: iso(9 * MINUTE),
  cwd: ctx.scratch,
  sessionId: SESSION_ID,
  ...over,
})

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

const tokensFinite: BadInput['check'] = (out) => {
  const session = sessionOf(out)
  if (!session) return 'the session with bad usage is gone'
  const values = Object.values(session.tokens)
  return values.every((v) => Number.isSafeInteger(v) && v >= 0)
    ? null
    : `tokens ${JSON.stringify(session.tokens)}`
}

const activityBelievable: BadInput['check'] = (out) => {
  const at = sessionOf(out)?.last_activity
  if (at === undefined) return 'the session is gone'
  if (at === null) return null
  const ms = Date.parse(at)
  return Number.isFinite(ms) && ms <= Date.now() + 24 * 3600_000 && /^\d{4}-/.test(at)
    ? null
    : `last_activity ${at}`
}

const liveRow = (
  name: string,
  value: (ctx: CaseContext) => unknown,
  check?: BadInput['check'],
): BadInput => ({
  group: 'live-session file',
  name: `live-session file: ${name}`,
  plant: async (ctx) => void (await ctx.live(value(ctx))),
  ...(check ? { check } : {}),
})

const live = (ctx: CaseContext, over: Record<string, unknown>) => ({
  pid: 999_999,
  sessionId: SESSION_ID,
  cwd: ctx.scratch,
  startedAt: Date.now() - 5 * MINUTE,
  ...over,
})

const listed: BadInput['check'] = (out) => (sessionOf(out) ? null : 'the session is not listed')

const LIVE_ROWS: BadInput[] = [
  liveRow('startedAt 1e308', (ctx) => live(ctx, { startedAt: 1e308 }), listed),
  liveRow('startedAt -1', (ctx) => live(ctx, { startedAt: -1 }), listed),
  liveRow('startedAt a word', (ctx) => live(ctx, { startedAt: 'yesterday' }), listed),
  liveRow('startedAt in year 9999', (ctx) => live(ctx, { startedAt: 253_402_300_799_000 }), listed),
  liveRow('statusUpdatedAt 1e308', (ctx) => live(ctx, { statusUpdatedAt: 1e308 }), listed),
  liveRow(
    'statusUpdatedAt in year 9999',
    (ctx) => live(ctx, { statusUpdatedAt: 253_402_300_799_000 }),
    activityBelievable,
  ),
  liveRow('pid 0', (ctx) => live(ctx, { pid: 0 })),
  liveRow('pid -5', (ctx) => live(ctx, { pid: -5 })),
  liveRow('pid 1.5', (ctx) => live(ctx, { pid: 1.5 })),
  liveRow('pid 2^53', (ctx) => live(ctx, { pid: 2 ** 53 })),
  liveRow('pid as a string', (ctx) => live(ctx, { pid: '42' })),
  liveRow('pid of this very process, alive', (ctx) => live(ctx, { pid: process.pid }), listed),
  liveRow('empty sessionId', (ctx) => live(ctx, { sessionId: '' })),
  liveRow('a 500 KB sessionId', (ctx) => live(ctx, { sessionId: 'x'.repeat(500_000) })),
  liveRow('cwd full of escape sequences', (ctx) => live(ctx, { cwd: `${ctx.scratch}/${HOSTILE}` })),
  liveRow('cwd relative', (ctx) => live(ctx, { cwd: '.' })),
  liveRow('cwd 100 KB long', (ctx) => live(ctx, { cwd: `/${'d'.repeat(100_000)}` })),
  liveRow('name with newlines and escapes', (ctx) => live(ctx, { name: `a\nb\r${HOSTILE}` })),
  liveRow('unknown status, 10 KB waitingFor', (ctx) =>
    live(ctx, { status: 'exploding', waitingFor: 'w'.repeat(10_000) }),
  ),
  liveRow('procStart an object', (ctx) => live(ctx, { procStart: { a: 1 } })),
  liveRow('a JSON array', () => [1, 2, 3]),
  liveRow('JSON null', () => null),
  liveRow('a JSON number', () => 42),
  liveRow('a JSON string', () => 'session'),
  liveRow(
    '__proto__ key',
    (ctx) =>
      `{"__proto__":{"pid":1},"pid":999999,"sessionId":"${SESSION_ID}","cwd":"${ctx.scratch}"}`,
  ),
  liveRow('constructor and toString keys', (ctx) =>
    live(ctx, { constructor: 1, toString: 'x', valueOf: null }),
  ),
  liveRow('nested 100,000 deep', () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`),
  liveRow(
    'duplicate keys',
    (ctx) =>
      `{"pid":1,"pid":999999,"sessionId":"a","sessionId":"${SESSION_ID}","cwd":"${ctx.scratch}"}`,
  ),
  liveRow('a BOM before the JSON', (ctx) => `\uFEFF${JSON.stringify(live(ctx, {}))}`),
  {
    group: 'live-session file',
    name: 'live-session file: UTF-16 encoded',
    plant: async (ctx) =>
      void (await ctx.write(
        join(ctx.paths.liveDir, '4242.json'),
        Buffer.from(JSON.stringify(live(ctx, {})), 'utf16le'),
      )),
  },
  {
    group: 'live-session file',
    name: 'live-session file: escape sequences in the file name',
    plant: async (ctx) => void (await ctx.live(live(ctx, {}), `\u001b[2J${'\u202e'}4242.json`)),
  },
]

const TRANSCRIPT_ROWS: BadInput[] = [
  transcriptRow(
    'usage 1.7e308 twice (sums to Infinity)',
    (ctx) => [
      assistantLine(ctx, { input_tokens: 1.7e308, output_tokens: 1.7e308 }),
      assistantLine(ctx, { input_tokens: 1.7e308, output_tokens: 1.7e308 }),
    ],
    tokensFinite,
  ),
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
  transcriptRow(
    'timestamp in year 9999',
    (ctx) => [userLine(ctx, { timestamp: '9999-12-31T23:59:59.000Z' })],
    activityBelievable,
  ),
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

const taskRow = (
  name: string,
  plant: (ctx: CaseContext, dir: string) => Promise<unknown>,
): BadInput => ({
  group: 'task file',
  name: `task file: ${name}`,
  plant: async (ctx) => {
    await ctx.transcript([userLine(ctx)])
    await plant(ctx, join(ctx.paths.tasksDir, SESSION_ID))
  },
})

const TASK_ROWS: BadInput[] = [
  taskRow('an unknown status', (ctx, dir) =>
    ctx.json(join(dir, '1.json'), { id: '1', subject: 's', status: 'exploded' }),
  ),
  taskRow('a 500 KB subject with escapes', (ctx, dir) =>
    ctx.json(join(dir, '1.json'), {
      id: '1',
      subject: HOSTILE + 's'.repeat(500_000),
      status: 'pending',
    }),
  ),
  taskRow('id an object', (ctx, dir) =>
    ctx.json(join(dir, '1.json'), { id: { x: 1 }, subject: 's', status: 'pending' }),
  ),
  taskRow('__proto__ and constructor keys', (ctx, dir) =>
    ctx.write(
      join(dir, '1.json'),
      '{"__proto__":{"status":"completed"},"constructor":1,"id":"1","subject":"s","status":"pending"}',
    ),
  ),
  taskRow('2,000 task files', async (ctx, dir) => {
    for (let i = 0; i < 2_000; i++)
      await ctx.json(join(dir, `${i}.json`), {
        id: String(i),
        subject: `t${i}`,
        status: i % 3 ? 'pending' : 'completed',
      })
  }),
  taskRow('the list folder is a file', (ctx, dir) => ctx.write(dir, 'not a folder')),
  taskRow('a JSON array', (ctx, dir) => ctx.json(join(dir, '1.json'), [{ id: '1' }])),
  taskRow('blocks and blockedBy of the wrong types', (ctx, dir) =>
    ctx.json(join(dir, '1.json'), {
      id: '1',
      subject: 's',
      status: 'pending',
      blocks: 'all',
      blockedBy: { a: 1 },
    }),
  ),
]

const hookLine = (over: Record<string, unknown>) =>
  JSON.stringify({
    hook_event_name: 'UserPromptSubmit',
    session_id: SESSION_ID,
    received_at: iso(MINUTE),
    cwd: '/tmp',
    ...over,
  })

const hookRow = (
  name: string,
  lines: (ctx: CaseContext) => string[],
  check?: BadInput['check'],
): BadInput => ({
  group: 'hook inbox',
  name: `hook inbox: ${name}`,
  plant: async (ctx) =>
    void (await ctx.write(
      ctx.paths.hookInbox,
      lines(ctx)
        .map((l) => `${l}\n`)
        .join(''),
    )),
  ...(check ? { check } : {}),
})

const HOOK_ROWS: BadInput[] = [
  hookRow(
    'received_at in year 9999',
    (ctx) => [hookLine({ received_at: '9999-12-31T00:00:00Z', cwd: ctx.scratch })],
    // A line whose time cannot be believed is skipped and counted, so no session comes of it.
    (out) =>
      !sessionOf(out) && (out.doctor?.corrupt_lines.hooks ?? 0) >= 1
        ? null
        : 'the year-9999 line was folded',
  ),
  hookRow('received_at a word', (ctx) => [hookLine({ received_at: 'soon', cwd: ctx.scratch })]),
  hookRow('a 1 MB message', (ctx) => [
    hookLine({
      hook_event_name: 'Notification',
      notification_type: 'permission_prompt',
      message: 'm'.repeat(MB),
      cwd: ctx.scratch,
    }),
  ]),
  hookRow('a reason that clears the screen and writes the clipboard', (ctx) => [
    hookLine({ cwd: ctx.scratch }),
    hookLine({ hook_event_name: 'SessionEnd', reason: HOSTILE, cwd: ctx.scratch }),
  ]),
  hookRow('claude_pid 1e308, -1 and a word', (ctx) => [
    hookLine({ claude_pid: 1e308, cwd: ctx.scratch }),
    hookLine({ claude_pid: -1 }),
    hookLine({ claude_pid: 'x' }),
  ]),
  hookRow('a 10 KB session_id', () => [hookLine({ session_id: 's'.repeat(10_000) })]),
  hookRow('an unknown event', (ctx) => [
    hookLine({ hook_event_name: 'Apocalypse', cwd: ctx.scratch }),
  ]),
  hookRow(
    '100,000 lines of garbage',
    () => Array.from({ length: 100_000 }, (_, i) => `[${i}`),
    (out) =>
      (out.doctor?.corrupt_lines.hooks ?? 0) >= 100_000
        ? null
        : 'the garbage lines were not counted',
  ),
  hookRow('cwd with bidi overrides', () => [hookLine({ cwd: `/tmp/\u202e${HOSTILE}` })]),
  hookRow('tool_detail with escapes on a permission request', (ctx) => [
    hookLine({
      hook_event_name: 'PermissionRequest',
      tool_name: HOSTILE,
      tool_detail: HOSTILE,
      cwd: ctx.scratch,
    }),
  ]),
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

export const CLAUDE_ROWS: BadInput[] = [
  ...LIVE_ROWS,
  ...TRANSCRIPT_ROWS,
  ...TASK_ROWS,
  ...HOOK_ROWS,
  ...ROLLOUT_ROWS,
]
