/** Content rows for Navi's own config.yaml, settings.json and event log. */
import { mkdir, utimes } from 'node:fs/promises'
import type { CaseContext } from './context.ts'
import { HOSTILE } from './row-helpers.ts'
import type { BadInput } from './types.ts'

const MB = 1024 * 1024

export const row = (
  group: string,
  name: string,
  plant: (ctx: CaseContext) => Promise<unknown>,
  more: Partial<BadInput> = {},
): BadInput => ({
  group,
  name: `${group}: ${name}`,
  plant: async (ctx) => void (await plant(ctx)),
  ...more,
})

export const mentions = (text: string | RegExp) => () => text

const config = (name: string, text: (ctx: CaseContext) => string, more: Partial<BadInput> = {}) =>
  row('config.yaml', name, (ctx) => ctx.write(ctx.paths.config, text(ctx)), more)

const CONFIG_ROWS: BadInput[] = [
  config(
    'a billion laughs of YAML aliases',
    () => {
      const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
      for (let i = 1; i < 10; i++)
        lines.push(
          `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
            .fill(`*${String.fromCharCode(96 + i)}`)
            .join(',')}]`,
        )
      return `${lines.join('\n')}\n`
    },
    { reported: mentions('config.yaml') },
  ),
  config(
    'poll_interval 1ms',
    (ctx) => `projects:\n  - path: ${ctx.healthy.repoDir}\npoll_interval: 1ms\n`,
    { reported: mentions(/poll_interval: below the 1s floor/) },
  ),
  config('poll_interval 0', () => 'poll_interval: 0\n', { reported: mentions('poll_interval') }),
  config('poll_interval 1e308s', () => 'poll_interval: 1e308s\n', {
    reported: mentions('poll_interval'),
  }),
  config('projects a string', () => 'projects: everything\n', { reported: mentions('projects') }),
  config('a relative project path', () => 'projects:\n  - path: some/where\n', {
    reported: mentions('relative'),
  }),
  config('a 100 KB project path', () => `projects:\n  - path: /${'p'.repeat(100_000)}\n`),
  config('a NUL in a project path', () => 'projects:\n  - path: "/tmp/a\\0b"\n'),
  config('an ignore glob that does not parse', () => 'ignore: ["[[[", "**/{", "\\\\"]\n'),
  config('unknown keys everywhere', () => 'what: 1\npm:\n  color: red\n', {
    reported: mentions('unknown key'),
  }),
  config(
    '__proto__ and constructor keys',
    () => '__proto__:\n  poll_interval: 1ms\nconstructor: 1\n',
    { reported: mentions('unknown key') },
  ),
  config('tabs for indentation', () => 'projects:\n\t- path: /tmp\n', {
    reported: mentions('config.yaml'),
  }),
  config(
    '1,000 registered projects that do not exist',
    () =>
      `projects:\n${Array.from({ length: 1000 }, (_, i) => `  - path: /nonexistent/p${i}\n`).join('')}`,
  ),
  config(
    'a model and claude path full of escapes',
    () => `pm:\n  model: "${HOSTILE.replaceAll('\u001b', '\\e')}"\n  claude_path: "/tmp/\\e[2J"\n`,
  ),
  config(
    'project names full of escapes',
    (ctx) => `projects:\n  - path: ${ctx.scratch}\n    name: "\\e[2J\\u202eevil\\n"\n`,
  ),
]

const settings = (name: string, text: string, more: Partial<BadInput> = {}) =>
  row('settings.json', name, (ctx) => ctx.write(ctx.paths.settings, text), more)

const SETTINGS_ROWS: BadInput[] = [
  settings('{"toString":1}', '{"toString":1}'),
  settings('{"constructor":1}', '{"constructor":1}'),
  settings('__proto__ holding overrides', '{"__proto__":{"poll_interval":"1ms"}}'),
  settings('{"hasOwnProperty":1,"valueOf":{}}', '{"hasOwnProperty":1,"valueOf":{}}'),
  settings('a JSON array', '[]', { reported: mentions('settings are not an object') }),
  settings('JSON null', 'null', { reported: mentions('settings are not an object') }),
  settings('a JSON string', '"s"', { reported: mentions('settings are not an object') }),
  settings('a JSON number', '42', { reported: mentions('settings are not an object') }),
  settings('poll_interval 1ms', '{"poll_interval":"1ms"}', { reported: mentions('poll_interval') }),
  settings(
    'notifications with prototype keys',
    '{"notifications":{"toString":true,"__proto__":false}}',
  ),
  settings('a 500 KB model name', JSON.stringify({ model: 'm'.repeat(500_000) })),
  settings('nested 100,000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, {
    reported: mentions('settings.json'),
  }),
]

const eventLine = (over: Record<string, unknown>) =>
  JSON.stringify({
    id: 'e1',
    timestamp: new Date().toISOString(),
    type: 'commit',
    project: 'x',
    details: {},
    ...over,
  })

const log = (
  name: string,
  plant: (ctx: CaseContext) => Promise<unknown>,
  more: Partial<BadInput> = {},
) => row('event log', name, plant, more)

const LOG_ROWS: BadInput[] = [
  log('garbage lines', (ctx) => ctx.write(ctx.paths.eventLog, '{\nnope\n[]\n\u0000\n')),
  log('an unknown event type', (ctx) =>
    ctx.write(ctx.paths.eventLog, `${eventLine({ type: 'meteor' })}\n`),
  ),
  log('an event in year 9999', (ctx) =>
    ctx.write(ctx.paths.eventLog, `${eventLine({ timestamp: '9999-01-01T00:00:00.000Z' })}\n`),
  ),
  log('1 MB of details', (ctx) =>
    ctx.write(ctx.paths.eventLog, `${eventLine({ details: { x: 'd'.repeat(MB) } })}\n`),
  ),
  log('a lock dated in the future', async (ctx) => {
    const lock = `${ctx.paths.eventLog}.lock`
    await mkdir(lock, { recursive: true })
    const future = new Date(Date.now() + 365 * 24 * 3600_000)
    await utimes(lock, future, future)
  }),
  log('a lock that is a file', (ctx) => ctx.write(`${ctx.paths.eventLog}.lock`, 'x')),
  log('the corrupt-lines file is a FIFO, with corrupt lines to move', async (ctx) => {
    await ctx.write(ctx.paths.eventLog, '{broken\n')
    await ctx.fifo(ctx.paths.eventLog.replace(/\.jsonl$/, '.corrupt.jsonl'))
  }),
  log('the same id twice', (ctx) =>
    ctx.write(ctx.paths.eventLog, `${eventLine({})}\n${eventLine({})}\n`),
  ),
  log('an event with escape sequences everywhere', (ctx) =>
    ctx.write(
      ctx.paths.eventLog,
      `${eventLine({ project: HOSTILE, details: { sha: HOSTILE, message: HOSTILE, branch: HOSTILE } })}\n`,
    ),
  ),
]

export const NAVI_ROWS: BadInput[] = [...CONFIG_ROWS, ...SETTINGS_ROWS, ...LOG_ROWS]
