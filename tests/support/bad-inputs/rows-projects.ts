/**
 * Content rows for Navi's snapshots and transcript index, Claude Code's settings.json, registered
 * repositories and checklists.
 */
import { createHash } from 'node:crypto'
import { TRANSCRIPT_SUMMARY_VERSION } from '../../../electron/engine/core/summary-codec.ts'
import { execFileSync } from 'node:child_process'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { projectDirHash } from '../../../electron/engine/adapters/snapshot-store.ts'
import { FIXTURE_GIT_ENV } from '../repo-fixture.ts'
import { SESSION_ID, type CaseContext } from './context.ts'
import { HOSTILE } from './row-helpers.ts'
import { mentions, row } from './rows-navi.ts'
import type { BadInput } from './types.ts'

const snapshotFile = (ctx: CaseContext) =>
  join(ctx.paths.snapshots, `healthy-${projectDirHash(ctx.healthy.repoDir)}.json`)
const snap = (
  name: string,
  plant: (ctx: CaseContext) => Promise<unknown>,
  more: Partial<BadInput> = {},
) => row('snapshots', name, plant, more)

const SNAPSHOT_ROWS: BadInput[] = [
  snap('a snapshot of the wrong shape', (ctx) => ctx.json(snapshotFile(ctx), { name: 1 }), {
    reported: mentions('invalid snapshot'),
  }),
  snap(
    'a snapshot with 1e308 tokens and year-9999 times',
    (ctx) =>
      ctx.json(snapshotFile(ctx), {
        name: 'healthy',
        project_dir: ctx.healthy.repoDir,
        captured_at: '9999-01-01T00:00:00Z',
        sessions: [{ tokens: { total: 1e308 } }],
      }),
    { reported: mentions('invalid snapshot') },
  ),
  snap('500 snapshots of projects that are gone', async (ctx) => {
    for (let i = 0; i < 500; i++)
      await ctx.json(join(ctx.paths.snapshots, `gone-${projectDirHash(`/gone/${i}`)}.json`), {
        name: `gone${i}`,
      })
  }),
  snap('meta.json with a baseline that is not a time', (ctx) =>
    ctx.json(ctx.paths.meta, { baselineAt: 'whenever' }),
  ),
  snap('meta.json with a baseline in year 9999', (ctx) =>
    ctx.json(ctx.paths.meta, { baselineAt: '9999-01-01T00:00:00Z' }),
  ),
  snap('the snapshots folder is a file', (ctx) => ctx.write(ctx.paths.snapshots, 'x'), {
    reported: mentions('snapshots'),
  }),
]

/** A session of one prompt, for the rows about the transcript index beside it. */
const oneLineTranscript = (ctx: CaseContext) =>
  ctx.transcript([
    {
      type: 'user',
      message: { role: 'user', content: 'hi' },
      cwd: ctx.scratch,
      sessionId: SESSION_ID,
      timestamp: new Date().toISOString(),
    },
  ])

const index = (name: string, value: (ctx: CaseContext) => unknown) =>
  row('transcript index', name, async (ctx) => {
    await oneLineTranscript(ctx)
    await ctx.json(ctx.paths.transcriptIndex, value(ctx))
  })

const entry = (ctx: CaseContext, over: Record<string, unknown>) => ({
  path: join(
    ctx.claudeConfigDir,
    'projects',
    ctx.scratch.replace(/[^A-Za-z0-9]/g, '-'),
    `${SESSION_ID}.jsonl`,
  ),
  dev: 0,
  ino: 0,
  size: 1,
  mtimeMs: 0,
  offset: 0,
  summary: {},
  ...over,
})

const INDEX_ROWS: BadInput[] = [
  index('an offset far beyond the file', (ctx) => ({
    format: 'navi-jsonl-index/1',
    summaryVersion: TRANSCRIPT_SUMMARY_VERSION,
    files: [entry(ctx, { offset: 1e12 })],
  })),
  index('a negative offset', (ctx) => ({
    format: 'navi-jsonl-index/1',
    summaryVersion: TRANSCRIPT_SUMMARY_VERSION,
    files: [entry(ctx, { offset: -5 })],
  })),
  index('a summary with 1e308 tokens and year-9999 times', (ctx) => ({
    format: 'navi-jsonl-index/1',
    summaryVersion: TRANSCRIPT_SUMMARY_VERSION,
    files: [
      entry(ctx, {
        summary: { usage: { totals: { input: 1e308 } }, lastActivity: '9999-01-01T00:00:00Z' },
      }),
    ],
  })),
  index('an entry pointing at /dev/zero', () => ({
    format: 'navi-jsonl-index/1',
    summaryVersion: TRANSCRIPT_SUMMARY_VERSION,
    files: [{ path: '/dev/zero', dev: 0, ino: 0, size: 0, mtimeMs: 0, offset: 0, summary: {} }],
  })),
  row('transcript index', 'a forged hash over summaries that are not ones', async (ctx) => {
    await oneLineTranscript(ctx)
    const path = entry(ctx, {}).path
    const body = JSON.stringify([
      entry(ctx, { summary: { path, usage: 5 } }),
      entry(ctx, { path: `${path}.x`, summary: { path: `${path}.x`, subagentIds: 5 } }),
    ])
    const sha256 = createHash('sha256').update(body).digest('hex')
    const header = JSON.stringify({
      format: 'navi-jsonl-index/2',
      summaryVersion: TRANSCRIPT_SUMMARY_VERSION,
      sha256,
    })
    await ctx.write(ctx.paths.transcriptIndex, `${header}\n${body}`)
  }),
  index('100,000 entries', (ctx) => ({
    format: 'navi-jsonl-index/1',
    summaryVersion: TRANSCRIPT_SUMMARY_VERSION,
    files: Array.from({ length: 100_000 }, (_, i) => entry(ctx, { path: `/x/${i}.jsonl` })),
  })),
]

const claudeSettings = (name: string, text: string, more: Partial<BadInput> = {}) =>
  row("Claude's settings.json", name, (ctx) => ctx.write(ctx.paths.claudeSettings, text), more)

const CLAUDE_SETTINGS_ROWS: BadInput[] = [
  claudeSettings('hooks a string', '{"hooks":"all of them"}'),
  claudeSettings(
    '100,000 hook groups',
    JSON.stringify({
      hooks: {
        Stop: Array.from({ length: 100_000 }, () => ({
          hooks: [{ type: 'command', command: 'true' }],
        })),
      },
    }),
  ),
  claudeSettings('__proto__ hooks', '{"__proto__":{"hooks":{}},"hooks":{"constructor":[]}}'),
  claudeSettings('not JSON', '{"hooks": ', { reported: mentions('not valid JSON') }),
]

const repo = (
  name: string,
  plant: (ctx: CaseContext, dir: string) => Promise<unknown>,
  more: Partial<BadInput> = {},
) =>
  row(
    'registered repository',
    name,
    async (ctx) => {
      const dir = join(ctx.scratch, 'proj')
      await mkdir(dir, { recursive: true })
      await ctx.config(`  - path: ${dir}\n    name: proj\n`)
      await plant(ctx, dir)
    },
    more,
  )

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd: dir,
    env: { ...FIXTURE_GIT_ENV, PATH: process.env.PATH ?? '' },
    stdio: 'ignore',
  })

const REPO_ROWS: BadInput[] = [
  repo('the path is a file', async (ctx, dir) => {
    await writeFile(join(ctx.scratch, 'file-project'), 'x')
    await ctx.config(`  - path: ${join(ctx.scratch, 'file-project')}\n`)
    return dir
  }),
  repo('.git is a file pointing nowhere', (ctx, dir) =>
    ctx.write(join(dir, '.git'), 'gitdir: /nowhere/at/all\n'),
  ),
  repo('HEAD is garbage', async (ctx, dir) => {
    git(dir, 'init', '-q', '-b', 'main')
    await ctx.write(join(dir, '.git', 'HEAD'), '\u001b[2J garbage\n')
  }),
  repo('a branch with bidi characters and a commit subject with escapes', async (_ctx, dir) => {
    git(dir, 'init', '-q', '-b', 'main')
    git(dir, 'commit', '-q', '--allow-empty', '-m', HOSTILE)
    git(dir, 'checkout', '-q', '-b', 'feat\u202egnp.exe')
  }),
  repo(
    'the index is garbage',
    async (ctx, dir) => {
      git(dir, 'init', '-q', '-b', 'main')
      git(dir, 'commit', '-q', '--allow-empty', '-m', 'x')
      await ctx.write(join(dir, '.git', 'index'), 'DIRC garbage')
    },
    { reported: mentions('proj') },
  ),
  repo('deleted after it was registered', (_ctx, dir) => rm(dir, { recursive: true }), {
    reported: mentions('does not exist'),
  }),
  repo('a symlink loop as the path', async (ctx, dir) => {
    await rm(dir, { recursive: true })
    await ctx.link(dir, `${dir}.loop`)
    await ctx.link(`${dir}.loop`, dir)
  }),
]

const checklist = (name: string, text: string | Buffer) =>
  row('checklist', name, async (ctx) => {
    await ctx.config(`  - path: ${ctx.scratch}\n    name: scratch\n    tasks: backlog.md\n`)
    await ctx.write(join(ctx.scratch, 'backlog.md'), text)
  })

const CHECKLIST_ROWS: BadInput[] = [
  checklist(
    '10,000 items',
    `## PBI-1: many\n${Array.from({ length: 10_000 }, (_, i) => `- [${i % 2 ? 'x' : ' '}] item ${i}\n`).join('')}`,
  ),
  checklist(
    'headings and items full of escapes',
    `## ${HOSTILE}\n- [ ] ${HOSTILE}\n- [~] ${HOSTILE}\n`,
  ),
  checklist('binary', Buffer.from([0, 1, 2, 0xff, 0x1b, 0x5b, 0x32, 0x4a])),
]

export const PROJECT_ROWS: BadInput[] = [
  ...SNAPSHOT_ROWS,
  ...INDEX_ROWS,
  ...CLAUDE_SETTINGS_ROWS,
  ...REPO_ROWS,
  ...CHECKLIST_ROWS,
]
