/**
 * Content rows for live-session files, task files and the hook inbox: values no CLI writes (1e308,
 * year 9999, prototype keys, escape sequences). A bad field degrades its own record only.
 */
import { join } from 'node:path'
import { SESSION_ID, type CaseContext } from './context.ts'
import {
  activityBelievable,
  HOSTILE,
  iso,
  listed,
  MB,
  MINUTE,
  sessionOf,
  userLine,
} from './row-helpers.ts'
import type { BadInput } from './types.ts'

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

const LIVE_ROWS: BadInput[] = [
  {
    ...liveRow('startedAt 1e308', (ctx) => live(ctx, { startedAt: 1e308 }), listed),
    reported: () => /4242\.json: ignored startedAt/,
  },
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
  {
    ...liveRow('a JSON array', () => [1, 2, 3]),
    reported: () => /4242\.json: not a live-session file/,
  },
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
  {
    ...hookRow(
      '100,000 lines of garbage',
      () => Array.from({ length: 100_000 }, (_, i) => `[${i}`),
      (out) =>
        (out.doctor?.corrupt_lines.hooks ?? 0) >= 100_000
          ? null
          : 'the garbage lines were not counted',
    ),
    reported: () => /events\.jsonl: 100000 line\(s\) skipped/,
  },
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

export const SESSION_ROWS: BadInput[] = [...LIVE_ROWS, ...TASK_ROWS, ...HOOK_ROWS]
