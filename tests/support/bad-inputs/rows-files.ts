/**
 * The file-kind rows: every place Navi reads a file from gets every kind of wrong file: a FIFO, a link to
 * /dev/zero, a directory, a link to nothing, a link loop, a file over the place's size cap, an empty
 * file, random bytes, invalid UTF-8 and NUL bytes. Places that report what they cannot read must name
 * the file.
 */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { projectDirHash } from '../../../electron/engine/adapters/snapshot-store.ts'
import { encodeCwd, garbage, SESSION_ID, type CaseContext } from './context.ts'
import type { BadInput } from './types.ts'

interface Place {
  name: string
  path(ctx: CaseContext): string
  /** What must exist around the file for Navi to read it at all. */
  setup?(ctx: CaseContext): Promise<void>
  /** A file just over the cap this place enforces (read in chunks, with no cap: 64 MiB of zeros). */
  oversize: number
  /** Whether a file over `oversize` is refused (and so reported) rather than read in chunks. */
  capped?: boolean
  /** Whether an unreadable file here is reported (optional data is skipped quietly). */
  reports: boolean
}

const MIB = 1024 * 1024

const PLACES: Place[] = [
  {
    name: 'live-session file',
    path: (ctx) => join(ctx.paths.liveDir, '4242.json'),
    oversize: MIB + 1,
    reports: true,
  },
  {
    name: 'task file',
    path: (ctx) => join(ctx.paths.tasksDir, SESSION_ID, '1.json'),
    oversize: MIB + 1,
    reports: true,
  },
  {
    name: 'hook inbox',
    path: (ctx) => ctx.paths.hookInbox,
    oversize: 64 * MIB,
    capped: false,
    reports: true,
  },
  {
    // One hook event as the shell handler spooled it; whatever is wrong with it, the drain says so.
    name: 'hook spool file',
    path: (ctx) => join(ctx.paths.hookInbox, '..', 'spool', 'Abc123XYZ0.json'),
    oversize: 512 * 1024 + 1,
    reports: true,
  },
  {
    name: 'rotated hook inbox',
    path: (ctx) => `${ctx.paths.hookInbox}.1`,
    oversize: 64 * MIB + 1,
    reports: true,
  },
  {
    name: 'sub-agent meta.json',
    path: (ctx) =>
      join(
        ctx.claudeConfigDir,
        'projects',
        encodeCwd(ctx.scratch),
        SESSION_ID,
        'subagents',
        'agent-a1.meta.json',
      ),
    setup: async (ctx) => {
      await ctx.transcript([
        { type: 'user', message: { role: 'user', content: 'hi' }, cwd: ctx.scratch },
      ])
      await ctx.write(
        join(
          ctx.claudeConfigDir,
          'projects',
          encodeCwd(ctx.scratch),
          SESSION_ID,
          'subagents',
          'agent-a1.jsonl',
        ),
        '{}\n',
      )
    },
    oversize: 64 * 1024 + 1,
    reports: false,
  },
  { name: 'config.yaml', path: (ctx) => ctx.paths.config, oversize: MIB + 1, reports: true },
  { name: 'settings.json', path: (ctx) => ctx.paths.settings, oversize: MIB + 1, reports: true },
  { name: 'event log', path: (ctx) => ctx.paths.eventLog, oversize: 512 * MIB + 1, reports: true },
  {
    name: 'snapshot file',
    path: (ctx) => join(ctx.paths.snapshots, `healthy-${projectDirHash(ctx.healthy.repoDir)}.json`),
    oversize: 16 * MIB + 1,
    reports: true,
  },
  {
    name: 'snapshot meta.json',
    path: (ctx) => ctx.paths.meta,
    oversize: 16 * MIB + 1,
    reports: true,
  },
  {
    name: 'transcript index',
    path: (ctx) => ctx.paths.transcriptIndex,
    oversize: 512 * MIB + 1,
    reports: true,
  },
  {
    name: 'rollout index',
    path: (ctx) => ctx.paths.rolloutIndex,
    oversize: 512 * MIB + 1,
    reports: true,
  },
  {
    name: "Claude's settings.json",
    path: (ctx) => ctx.paths.claudeSettings,
    oversize: 4 * MIB + 1,
    reports: true,
  },
  {
    name: 'transcript',
    path: (ctx) =>
      join(ctx.claudeConfigDir, 'projects', encodeCwd(ctx.scratch), `${SESSION_ID}.jsonl`),
    oversize: 64 * MIB,
    capped: false,
    reports: false,
  },
  {
    name: 'Codex rollout',
    path: (ctx) =>
      join(
        ctx.codexHome,
        'sessions',
        '2026',
        '11',
        '24',
        `rollout-2026-11-24T00-00-00-${SESSION_ID}.jsonl`,
      ),
    oversize: 64 * MIB,
    capped: false,
    reports: false,
  },
  {
    name: 'checklist (tasks: of a registered project)',
    path: (ctx) => join(ctx.scratch, 'backlog.md'),
    setup: async (ctx) => {
      await ctx.config(`  - path: ${ctx.scratch}\n    name: scratch\n    tasks: backlog.md\n`)
    },
    oversize: 4 * MIB + 1,
    reports: true,
  },
]

interface Kind {
  name: string
  make(ctx: CaseContext, path: string, place: Place): Promise<unknown>
  /** Whether a reporting place must name the file for this kind. */
  reported: boolean
}

const OVERSIZE = 'over its size cap'

const KINDS: Kind[] = [
  { name: 'a FIFO', make: (ctx, path) => ctx.fifo(path), reported: true },
  { name: 'a link to /dev/zero', make: (ctx, path) => ctx.link(path, '/dev/zero'), reported: true },
  {
    name: 'a directory',
    make: (ctx, path) => ctx.write(join(path, 'inside'), 'x'),
    reported: true,
  },
  {
    name: 'a link to nothing',
    make: (ctx, path) => ctx.link(path, `${path}.missing`),
    reported: false,
  },
  {
    name: 'a link loop',
    make: async (ctx, path) => {
      await ctx.link(`${path}.loop`, path)
      await ctx.link(path, `${path}.loop`)
    },
    reported: true,
  },
  {
    name: OVERSIZE,
    make: (ctx, path, place) => ctx.sparse(path, place.oversize),
    reported: true,
  },
  { name: 'empty', make: (ctx, path) => ctx.write(path, ''), reported: false },
  { name: 'random bytes', make: (ctx, path) => ctx.write(path, garbage(4096, 7)), reported: false },
  {
    name: 'invalid UTF-8',
    make: (ctx, path) =>
      ctx.write(path, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d, 0x0a])),
    reported: false,
  },
  { name: 'NUL bytes', make: (ctx, path) => ctx.write(path, Buffer.alloc(4096)), reported: false },
]

/** A row name's file part, as the row's report must show it. */
const fileName = (path: string): string => path.slice(path.lastIndexOf('/') + 1)

export const FILE_ROWS: BadInput[] = PLACES.flatMap((place) =>
  KINDS.map((kind): BadInput => ({
    group: place.name,
    name: `${place.name} is ${kind.name}`,
    async plant(ctx) {
      await place.setup?.(ctx)
      // The base case already has some of these files (config.yaml): the row replaces them.
      await rm(place.path(ctx), { recursive: true, force: true })
      await kind.make(ctx, place.path(ctx), place)
    },
    ...(place.reports && kind.reported && (kind.name !== OVERSIZE || place.capped !== false)
      ? { reported: (ctx: CaseContext) => fileName(place.path(ctx)) }
      : {}),
  })),
)
