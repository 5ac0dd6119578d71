import { appendFile, mkdir, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  defaultProcStartOf,
  readLiveSessions,
} from '../../electron/engine/adapters/claude-live-sessions.ts'
import { readClaudeTaskLists } from '../../electron/engine/adapters/claude-tasks.ts'
import { createClaudeTranscriptSource } from '../../electron/engine/adapters/claude-transcripts.ts'
import type { FoldPool } from '../../electron/engine/adapters/fold-pool.ts'
import { createJsonlFileSet } from '../../electron/engine/adapters/jsonl-file-set.ts'
import { claudeTranscriptFolder } from '../../electron/engine/adapters/transcript-folder.ts'
import {
  emptyTranscriptSummary,
  foldTranscriptLine,
} from '../../electron/engine/core/transcript-fold.ts'
import { summarizeTokens as tokensOf } from '../../electron/engine/core/usage-tally.ts'
import { useTempPaths } from '../support/temp-paths.ts'

const temp = useTempPaths('navi-claude-files-')

const jsonl = (...values: unknown[]) => values.map((v) => `${JSON.stringify(v)}\n`).join('')

const SESSION = '4ebfe5b2-1111-4222-8333-944445555666'
const OTHER = '85338310-aaaa-4bbb-8ccc-dddddddddddd'
const common = (sessionId: string) => ({
  isSidechain: false,
  userType: 'external',
  entrypoint: 'cli',
  cwd: '/home/user/proj',
  sessionId,
  version: '2.1.197',
  gitBranch: 'feature/demo',
})
const promptLine = (sessionId: string, text: string, at: string) => ({
  ...common(sessionId),
  type: 'user',
  message: { role: 'user', content: text },
  timestamp: at,
})
const assistantLine = (
  sessionId: string,
  id: string,
  content: unknown[],
  stop: string,
  at: string,
) => ({
  ...common(sessionId),
  type: 'assistant',
  message: {
    id,
    role: 'assistant',
    content,
    stop_reason: stop,
    usage: {
      input_tokens: 10,
      output_tokens: 5,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    },
  },
  timestamp: at,
})

async function writeProject(enc: string, files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) {
    const path = join(temp.paths.claudeConfigDir, 'projects', enc, name)
    await mkdir(join(path, '..'), { recursive: true })
    await writeFile(path, text)
  }
}

describe('createClaudeTranscriptSource', () => {
  it('folds every transcript, counts sub-agents once and rescans incrementally', async () => {
    const enc = '-home-user-proj'
    await writeProject(enc, {
      [`${SESSION}.jsonl`]: jsonl(
        { type: 'ai-title', aiTitle: 'Fake session title', sessionId: SESSION },
        promptLine(SESSION, 'check a.txt', '2026-11-21T22:38:52.000Z'),
        assistantLine(
          SESSION,
          'msg_1',
          [{ type: 'tool_use', id: 'toolu_fake_033', name: 'Agent', input: {} }],
          'tool_use',
          '2026-11-21T22:38:53.000Z',
        ),
      ),
      [`${SESSION}/subagents/agent-a91fb7c29a2f772a4.jsonl`]: jsonl({
        ...promptLine(SESSION, 'Read a.txt and report', '2026-11-21T22:38:53.500Z'),
        isSidechain: true,
        agentId: 'a91fb7c29a2f772a4',
      }),
      [`${SESSION}/subagents/agent-a91fb7c29a2f772a4.meta.json`]: JSON.stringify({
        agentType: 'general-purpose',
        toolUseId: 'toolu_fake_033',
      }),
      [`${OTHER}.jsonl`]: `${jsonl(promptLine(OTHER, 'say hi', '2026-11-21T20:00:00.000Z'))}{broken\n`,
      'memory/notes.md': '# not a transcript',
    })
    await writeProject('-home-user-empty', {})

    const source = createClaudeTranscriptSource(temp.paths)
    const first = await source.scan()
    expect(first.errors).toEqual([])
    expect(first.corruptLines).toBe(1)
    expect(first.summaries.map((s) => s.sessionId).sort()).toEqual([SESSION, OTHER].sort())
    const main = first.summaries.find((s) => s.sessionId === SESSION)
    expect(main).toMatchObject({
      cwd: '/home/user/proj',
      title: 'Fake session title',
      lastPrompt: 'check a.txt',
      turns: 1,
      tail: { kind: 'tool_pending', toolName: 'Agent', toolUseId: 'toolu_fake_033' },
    })
    // The Agent tool_use and its sub-agent file are the same sub-agent.
    expect([...(main?.subagentIds ?? [])]).toEqual(['a91fb7c29a2f772a4'])
    expect(first.summaries.find((s) => s.sessionId === OTHER)?.corruptLines).toBe(1)

    const second = await source.scan()
    expect(second.bytesRead).toBe(0)
    expect(second.corruptLines).toBe(0)
    expect([
      ...(second.summaries.find((s) => s.sessionId === SESSION)?.subagentIds ?? []),
    ]).toHaveLength(1)

    const appended = jsonl(
      {
        ...common(SESSION),
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_fake_033', content: 'ok' }],
        },
        toolUseResult: { status: 'completed', agentId: 'a91fb7c29a2f772a4' },
        timestamp: '2026-11-21T22:38:55.000Z',
      },
      assistantLine(
        SESSION,
        'msg_2',
        [{ type: 'text', text: 'done' }],
        'end_turn',
        '2026-11-21T22:38:56.000Z',
      ),
    )
    await appendFile(
      join(temp.paths.claudeConfigDir, 'projects', enc, `${SESSION}.jsonl`),
      appended,
    )
    const third = await source.scan()
    expect(third.bytesRead).toBe(Buffer.byteLength(appended))
    const updated = third.summaries.find((s) => s.sessionId === SESSION)
    expect(updated?.tail).toEqual({ kind: 'turn_end', at: '2026-11-21T22:38:56.000Z' })
    expect(updated?.subagentIds.size).toBe(1)
    expect(updated && tokensOf(updated).total).toBe(30)
    expect(updated?.lastActivity).toBe('2026-11-21T22:38:56.000Z')
  })

  it('tells which transcripts a hinted scan read, and the sessions of the side files among them', async () => {
    const enc = '-home-user-proj'
    const agentFile = `${SESSION}/subagents/agent-a91fb7c29a2f772a4.jsonl`
    await writeProject(enc, {
      [`${SESSION}.jsonl`]: jsonl(promptLine(SESSION, 'check a.txt', '2026-11-21T22:38:52.000Z')),
      [agentFile]: jsonl({
        ...promptLine(SESSION, 'Read a.txt', '2026-11-21T22:38:53.500Z'),
        isSidechain: true,
        agentId: 'a91fb7c29a2f772a4',
      }),
      [`${OTHER}.jsonl`]: jsonl(promptLine(OTHER, 'say hi', '2026-11-21T20:00:00.000Z')),
    })
    const dir = join(temp.paths.claudeConfigDir, 'projects', enc)
    const source = createClaudeTranscriptSource(temp.paths)
    await source.scan()

    const otherPath = join(dir, `${OTHER}.jsonl`)
    await appendFile(otherPath, jsonl(promptLine(OTHER, 'again', '2026-11-21T20:01:00.000Z')))
    const grown = await source.scan({ changed: [otherPath] })
    expect(grown.readPaths).toEqual(new Set([otherPath]))
    expect(grown.readSessionIds).toEqual(new Set())

    const agentPath = join(dir, agentFile)
    await appendFile(
      agentPath,
      jsonl({
        ...promptLine(SESSION, 'and b.txt', '2026-11-21T22:39:00.000Z'),
        isSidechain: true,
        agentId: 'a91fb7c29a2f772a4',
      }),
    )
    const side = await source.scan({ changed: [agentPath] })
    expect(side.readPaths).toEqual(new Set([agentPath]))
    // The sub-agent's spend is its parent session's: that session is read too.
    expect(side.readSessionIds).toEqual(new Set([SESSION]))

    const quiet = await source.scan({ changed: [otherPath] })
    expect(quiet.readPaths).toEqual(new Set())
    expect(quiet.readSessionIds).toEqual(new Set())
  })

  it('starts a summary over when its transcript is rewritten shorter', async () => {
    const enc = '-home-user-proj'
    const file = `${SESSION}.jsonl`
    await writeProject(enc, {
      [file]: jsonl(
        promptLine(SESSION, 'one', '2026-11-21T10:00:00.000Z'),
        promptLine(SESSION, 'two', '2026-11-21T10:01:00.000Z'),
      ),
    })
    const source = createClaudeTranscriptSource(temp.paths)
    expect((await source.scan()).summaries[0]?.turns).toBe(2)
    await writeProject(enc, {
      [file]: jsonl(promptLine(SESSION, 'new', '2026-11-21T11:00:00.000Z')),
    })
    const summary = (await source.scan()).summaries[0]
    expect(summary).toMatchObject({
      turns: 1,
      lastPrompt: 'new',
      firstActivity: '2026-11-21T11:00:00.000Z',
    })
  })

  it('reports nothing and no error when there is no projects folder', async () => {
    expect(await createClaudeTranscriptSource(temp.paths).scan()).toEqual({
      summaries: [],
      sideTranscripts: [],
      errors: [],
      notes: [],
      corruptLines: 0,
      bytesRead: 0,
      readPaths: new Set(),
      readSessionIds: new Set(),
    })
  })
})

describe('createJsonlFileSet', () => {
  it('reports an unreadable file and still folds the others', async () => {
    const good = join(temp.root, 'good.jsonl')
    const bad = join(temp.root, 'dir.jsonl')
    await writeFile(good, jsonl(promptLine(SESSION, 'hello', '2026-11-21T10:00:00.000Z')))
    await mkdir(bad)
    const set = createJsonlFileSet({
      create: (path) => emptyTranscriptSummary('s', path),
      fold: foldTranscriptLine,
    })
    const update = await set.update([bad, good])
    expect(update.errors).toHaveLength(1)
    expect(update.errors[0]).toContain(bad)
    expect(set.get(good)?.lastPrompt).toBe('hello')
  })

  it('lists a touched file once, after the listed ones, however often it is touched', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((name) => join(temp.root, `${name}.jsonl`))
    for (const file of [a, b, c] as string[])
      await writeFile(file, jsonl(promptLine(SESSION, basename(file), '2026-11-21T10:00:00.000Z')))
    const set = createJsonlFileSet({
      create: (path) => emptyTranscriptSummary('s', path),
      fold: foldTranscriptLine,
    })
    await set.update([a, b] as string[])
    await set.touch([c, a] as string[])
    await set.touch([c] as string[])
    expect(set.summaries().map((s) => s.lastPrompt)).toEqual(['a.jsonl', 'b.jsonl', 'c.jsonl'])
    // A new listing replaces the order: a file touched before and not listed now is dropped.
    await set.update([b, a] as string[])
    await set.touch([a] as string[])
    expect(set.summaries().map((s) => s.lastPrompt)).toEqual(['b.jsonl', 'a.jsonl'])
  })

  it('folds on its own thread what a failed fold worker held, and says so in a note', async () => {
    const files = ['one', 'two', 'three'].map((name) => join(temp.root, `${name}.jsonl`))
    for (const [i, file] of files.entries())
      await writeFile(file, jsonl(promptLine(SESSION, `prompt ${i}`, '2026-11-21T10:00:00.000Z')))
    let closed = false
    const failingPool: FoldPool = {
      size: 2,
      fold: () => Promise.reject(new Error('fold worker exited with code 134')),
      close: async () => {
        closed = true
      },
    }
    const set = createJsonlFileSet(claudeTranscriptFolder, {
      parallel: { folder: 'claude-transcript', minBytes: 0, openPool: () => failingPool },
    })
    const update = await set.update(files)
    expect(files.map((file) => set.get(file)?.lastPrompt)).toEqual([
      'prompt 0',
      'prompt 1',
      'prompt 2',
    ])
    expect(update.errors).toEqual([])
    expect(update.onWorkers).toBe(0)
    expect(update.changed.sort()).toEqual([...files].sort())
    expect(update.notes).toEqual([
      "fold workers failed on 3 file(s), folded on the engine's thread instead: fold worker exited with code 134",
    ])
    expect(closed).toBe(true)
    // Nothing to read the next time: no worker is asked, no note.
    expect((await set.update(files)).notes).toEqual([])
  })
  it('folds on its own thread a file whose worker answer does not read back, and says so', async () => {
    const files = ['one', 'two'].map((name) => join(temp.root, `${name}.jsonl`))
    for (const [i, file] of files.entries())
      await writeFile(file, jsonl(promptLine(SESSION, `prompt ${i}`, '2026-11-21T10:00:00.000Z')))
    // A worker that answers, with a summary cut short (or another file's).
    const garbled: FoldPool = {
      size: 2,
      fold: async (_folder, path) => ({
        id: 1,
        ok: true,
        summaryJson: path.endsWith('one.jsonl')
          ? '{"sessionId":'
          : JSON.stringify({ path: '/else' }),
        position: null,
        corrupt: 0,
        bytesRead: 0,
      }),
      close: async () => undefined,
    }
    const set = createJsonlFileSet(claudeTranscriptFolder, {
      parallel: { folder: 'claude-transcript', minBytes: 0, openPool: () => garbled },
    })
    const update = await set.update(files)
    expect(files.map((file) => set.get(file)?.lastPrompt)).toEqual(['prompt 0', 'prompt 1'])
    expect(update.errors).toEqual([])
    expect(update.onWorkers).toBe(0)
    expect(update.notes).toHaveLength(1)
    expect(update.notes[0]).toMatch(
      /fold workers failed on 2 file\(s\).*one\.jsonl: the worker's summary does not read back/,
    )
  })
})

describe('readLiveSessions', () => {
  const sessionsDir = () => join(temp.paths.claudeConfigDir, 'sessions')
  // null where /proc does not exist: then only the pid is checked.
  const ownStart = defaultProcStartOf(process.pid)

  it('reads session files and checks pid and procStart', async () => {
    await mkdir(sessionsDir(), { recursive: true })
    const base = {
      cwd: '/home/user/proj',
      startedAt: 1795301044684,
      version: '2.1.197',
      kind: 'interactive',
    }
    const files = {
      // A pid far above pid_max: no such process.
      '4194303.json': { ...base, pid: 4194303, sessionId: 'dead', procStart: '1' },
      'own.json': {
        ...base,
        pid: process.pid,
        sessionId: 'alive',
        procStart: ownStart,
        entrypoint: 'cli',
        name: 'proj-58',
        status: 'waiting',
        waitingFor: 'permission prompt',
        statusUpdatedAt: 1795301065454,
        tmux: 'work:@0.%7',
      },
      'reused.json': { ...base, pid: process.pid, sessionId: 'reused', procStart: '1' },
      'printmode.json': {
        ...base,
        pid: process.pid,
        sessionId: 'print',
        entrypoint: 'sdk-cli',
        status: 'new-kind',
      },
    }
    for (const [name, value] of Object.entries(files)) {
      await writeFile(join(sessionsDir(), name), JSON.stringify(value))
    }
    await writeFile(join(sessionsDir(), 'corrupt.json'), '{"pid":12')
    await writeFile(join(sessionsDir(), 'nopid.json'), '{"sessionId":"x"}')
    await writeFile(join(sessionsDir(), 'notes.txt'), 'ignored')

    const result = await readLiveSessions(temp.paths)
    expect(result.corrupt).toBe(2)
    expect(result.errors).toEqual([])
    const byId = new Map(result.records.map((r) => [r.sessionId, r]))
    expect(byId.get('dead')?.alive).toBe(false)
    expect(byId.get('reused')?.alive).toBe(process.platform === 'linux' ? false : true)
    expect(byId.get('alive')).toEqual({
      pid: process.pid,
      sessionId: 'alive',
      cwd: '/home/user/proj',
      startedAt: 1795301044684,
      procStart: ownStart,
      name: 'proj-58',
      entrypoint: 'cli',
      status: 'waiting',
      waitingFor: 'permission prompt',
      statusUpdatedAt: 1795301065454,
      tmuxPane: '%7',
      alive: true,
      file: join(sessionsDir(), 'own.json'),
    })
    expect(byId.get('print')).toMatchObject({ alive: true, status: null, entrypoint: 'sdk-cli' })
  })

  it('uses injected liveness checks', async () => {
    await mkdir(sessionsDir(), { recursive: true })
    await writeFile(
      join(sessionsDir(), '77.json'),
      JSON.stringify({ pid: 77, sessionId: 's', procStart: '500' }),
    )
    const check = (procStart: string | null) =>
      readLiveSessions(temp.paths, { pidExists: (pid) => pid === 77, procStartOf: () => procStart })
    expect((await check('500')).records[0]?.alive).toBe(true)
    expect((await check('501')).records[0]?.alive).toBe(false)
    expect((await check(null)).records[0]?.alive).toBe(true)
  })

  it('returns nothing when the folder does not exist', async () => {
    expect(await readLiveSessions(temp.paths)).toEqual({
      records: [],
      corrupt: 0,
      errors: [],
      notes: [],
    })
  })
})

describe('readClaudeTaskLists', () => {
  it('reads task lists, skipping bookkeeping and corrupt files', async () => {
    const list = join(temp.paths.claudeConfigDir, 'tasks', SESSION)
    await mkdir(list, { recursive: true })
    const tasks = [
      { id: '10', subject: 'Tenth', status: 'pending', blocks: [], blockedBy: [] },
      {
        id: '2',
        subject: 'Review docs',
        status: 'pending',
        blocks: [],
        blockedBy: ['1'],
        metadata: { prio: 'high' },
      },
      {
        id: '1',
        subject: 'Write docs',
        description: 'd',
        activeForm: 'Writing',
        owner: 'pm',
        status: 'completed',
      },
      { id: '3', subject: 'Going', status: 'in_progress' },
    ]
    for (const task of tasks) await writeFile(join(list, `${task.id}.json`), JSON.stringify(task))
    await writeFile(join(list, '.lock'), '')
    await writeFile(join(list, '.highwatermark'), '10')
    await writeFile(join(list, '4.json'), '{"id":"4",')
    await writeFile(
      join(list, '5.json'),
      JSON.stringify({ id: '5', subject: 'x', status: 'deleted' }),
    )
    await mkdir(join(temp.paths.claudeConfigDir, 'tasks', 'emptied'), { recursive: true })

    const result = await readClaudeTaskLists(temp.paths)
    expect(result.corrupt).toBe(2)
    expect(result.errors).toEqual([])
    const main = result.lists.find((l) => l.listId === SESSION)
    expect(main?.tasks).toEqual([
      { id: '1', title: 'Write docs', status: 'completed' },
      { id: '2', title: 'Review docs', status: 'pending' },
      { id: '3', title: 'Going', status: 'in_progress' },
      { id: '10', title: 'Tenth', status: 'pending' },
    ])
    expect(main?.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    expect(result.lists.find((l) => l.listId === 'emptied')).toEqual({
      listId: 'emptied',
      tasks: [],
      updatedAt: null,
    })
  })
})
