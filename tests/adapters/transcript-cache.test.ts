import { appendFile, mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { createClaudeTranscriptSource } from '../../electron/engine/adapters/claude-transcripts.ts'
import { createCodexRolloutSource } from '../../electron/engine/adapters/codex-rollouts.ts'
import type { TranscriptSummary } from '../../electron/engine/core/source-records.ts'
import {
  encodeTranscriptSummary,
  PERSISTED_USAGE_IDS,
} from '../../electron/engine/core/summary-codec.ts'
import { recentUsageMap } from '../../electron/engine/core/usage-tally.ts'
import { useTempPaths } from '../support/temp-paths.ts'

const temp = useTempPaths('navi-transcript-cache-')
let cacheFile: string

beforeEach(() => {
  cacheFile = join(temp.paths.naviHome, 'cache', 'claude-transcripts.json')
})

const jsonl = (values: unknown[]) => values.map((v) => `${JSON.stringify(v)}\n`).join('')
const PROJECT = '-home-user-proj'
const sessionId = (n: number) => `0000000${n}-1111-4222-8333-944445555666`
const transcriptPath = (n: number) =>
  join(temp.paths.claudeConfigDir, 'projects', PROJECT, `${sessionId(n)}.jsonl`)

/** One turn shaped like Claude Code's: a response split over two lines, a tool call, an answer. */
function turn(session: string, i: number, pad = 0): unknown[] {
  const at = new Date(Date.UTC(2026, 10, 21, 10, 0, i)).toISOString()
  const base = { isSidechain: false, cwd: '/home/user/proj', sessionId: session, timestamp: at }
  const usage = { input_tokens: 100 + i, output_tokens: 20, cache_read_input_tokens: 5 }
  const tool = ['TodoWrite', 'Agent', 'Read'][i % 3] ?? 'Read'
  const input =
    tool === 'TodoWrite'
      ? { todos: [{ content: `step ${i}`, status: 'in_progress', activeForm: 'Doing' }] }
      : { file_path: 'a.ts' }
  return [
    { ...base, type: 'user', message: { role: 'user', content: `step ${i} ${'x'.repeat(pad)}` } },
    {
      ...base,
      type: 'assistant',
      message: {
        id: `msg_${i}`,
        content: [{ type: 'text', text: 'ok' }],
        stop_reason: 'tool_use',
        usage,
      },
    },
    {
      ...base,
      type: 'assistant',
      message: {
        id: `msg_${i}`,
        content: [{ type: 'tool_use', id: `toolu_${i}`, name: tool, input }],
        stop_reason: 'tool_use',
        usage,
      },
    },
    {
      ...base,
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}` }] },
    },
    {
      ...base,
      type: 'assistant',
      message: {
        id: `msg_${i}_b`,
        content: [{ type: 'text', text: 'done' }],
        stop_reason: 'end_turn',
        usage,
      },
    },
    { ...base, type: 'system', subtype: 'turn_duration' },
  ]
}

/** Writes `count` transcripts; the last one ends with a pending tool call and a corrupt line. */
async function writeCorpus(count: number, turns = 5): Promise<number> {
  await mkdir(join(temp.paths.claudeConfigDir, 'projects', PROJECT), { recursive: true })
  let bytes = 0
  for (let n = 0; n < count; n++) {
    const lines = Array.from({ length: turns }, (_, i) => turn(sessionId(n), i)).flat()
    let text = jsonl([{ type: 'ai-title', aiTitle: `session ${n}` }, ...lines])
    if (n === count - 1) text += `${jsonl(turn(sessionId(n), turns).slice(0, 3))}{corrupt\n`
    await writeFile(transcriptPath(n), text)
    bytes += Buffer.byteLength(text)
  }
  return bytes
}

const byPath = (summaries: TranscriptSummary[]) =>
  [...summaries].sort((a, b) => a.path.localeCompare(b.path))

/** What a process without any index sees now: the reference every cached result must equal. */
async function coldSummaries(): Promise<TranscriptSummary[]> {
  const scan = await createClaudeTranscriptSource(temp.paths, { cacheFile: null }).scan()
  return byPath(scan.summaries)
}

/**
 * The summary as an index keeps it: of the usage by response id, only the last PERSISTED_USAGE_IDS
 * (summary-codec.ts); everything else whole.
 */
const asIndexed = (summary: TranscriptSummary) => ({
  ...summary,
  usage: {
    ...summary.usage,
    recent: new Map([...recentUsageMap(summary.usage.recent)].slice(-PERSISTED_USAGE_IDS)),
  },
})

/** Deep equality, plus the iteration order of Maps and Sets (which toEqual ignores). */
function expectSameSummaries(actual: TranscriptSummary[], expected: TranscriptSummary[]) {
  expect(byPath(actual).map(asIndexed)).toEqual(expected.map(asIndexed))
  expect(byPath(actual).map(encodeTranscriptSummary)).toEqual(expected.map(encodeTranscriptSummary))
}

/** The files of an index as written (`navi-jsonl-index/3`: a header line, then one line per file). */
function indexOf(text: string): { files: { path: string; summary: unknown }[] } {
  const lines = text.split('\n').slice(1)
  return { files: lines.filter((line) => line !== '').map((line) => JSON.parse(line)) }
}

/** A sub-agent transcript in session `n`'s folder, with the meta file naming its tool use if given. */
async function addSubagent(n: number, agentId: string, toolUseId?: string): Promise<void> {
  const dir = join(temp.paths.claudeConfigDir, 'projects', PROJECT, sessionId(n), 'subagents')
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, `agent-${agentId}.jsonl`), jsonl([{ type: 'user', isSidechain: true }]))
  if (toolUseId)
    await writeFile(join(dir, `agent-${agentId}.meta.json`), JSON.stringify({ toolUseId }))
}

/** `kept` (an index's text) holds what a source encoding every summary from nothing writes. */
async function expectFreshEncoding(kept: string): Promise<void> {
  const freshFile = join(temp.root, 'fresh-index.json')
  const fresh = createClaudeTranscriptSource(temp.paths, { cacheFile: freshFile })
  await fresh.scan()
  await fresh.flush()
  const body = (text: string) => text.slice(text.indexOf('\n') + 1)
  expect(body(kept)).toBe(body(await readFile(freshFile, 'utf8')))
}

async function warmedUp(): Promise<void> {
  const first = createClaudeTranscriptSource(temp.paths)
  await first.scan()
  await first.flush()
}

describe('claude transcript index', () => {
  it('resumes every unchanged transcript without reading it after a restart', async () => {
    const total = await writeCorpus(6)
    // The sub-agent started by transcript 0's first Agent call (turn 1) has its own file.
    const subagents = join(
      temp.paths.claudeConfigDir,
      'projects',
      PROJECT,
      sessionId(0),
      'subagents',
    )
    await mkdir(subagents, { recursive: true })
    const subagentLines = jsonl([{ type: 'user', isSidechain: true }])
    await writeFile(join(subagents, 'agent-a1.jsonl'), subagentLines)
    await writeFile(join(subagents, 'agent-a1.meta.json'), JSON.stringify({ toolUseId: 'toolu_1' }))
    const first = createClaudeTranscriptSource(temp.paths)
    const cold = await first.scan()
    // Sub-agent files are read too: their spend belongs to the session.
    expect(cold.bytesRead).toBe(total + Buffer.byteLength(subagentLines))
    expect(cold.sideTranscripts.map((t) => [t.parentSessionId, t.kind])).toEqual([
      [sessionId(0), 'subagent'],
    ])
    expect(cold.corruptLines).toBe(1)
    await first.flush()
    expect((await stat(cacheFile)).size).toBeGreaterThan(0)

    const restarted = createClaudeTranscriptSource(temp.paths)
    const warm = await restarted.scan()
    expect(warm.bytesRead).toBe(0)
    expect(warm.errors).toEqual([])
    // As many as a cold read reports, although the corrupt line was not read again.
    expect(warm.corruptLines).toBe(1)
    expect((await restarted.scan()).corruptLines).toBe(0)
    const reference = await coldSummaries()
    expect(reference.find((s) => s.corruptLines === 1)?.tail.kind).toBe('tool_pending')
    expect([...(reference[0]?.subagentIds ?? [])]).toEqual(['toolu_4', 'a1'])
    expectSameSummaries(warm.summaries, reference)
    expectSameSummaries(cold.summaries, reference)
  })

  it('reads only the appended bytes after a restart', async () => {
    await writeCorpus(4)
    await warmedUp()
    const appended = jsonl(turn(sessionId(1), 50, 700))
    expect(Buffer.byteLength(appended)).toBeGreaterThan(1000)
    await appendFile(transcriptPath(1), appended)

    const warm = await createClaudeTranscriptSource(temp.paths).scan()
    expect(warm.corruptLines).toBe(1)
    expect(warm.bytesRead).toBe(Buffer.byteLength(appended))
    expectSameSummaries(warm.summaries, await coldSummaries())
  })

  it('counts a response whose lines straddle the restart once, with its last usage', async () => {
    await writeCorpus(2)
    await warmedUp()
    // The last response of transcript 0 (`msg_4_b`, turn 4) gets one more line after the restart, with
    // its final usage: the index's remembered ids, not yet a Map, must replace the earlier usage.
    const last = (turn(sessionId(0), 4) as { message?: { id?: string } }[]).at(-2)
    expect(last?.message?.id).toBe('msg_4_b')
    const usage = { input_tokens: 500, output_tokens: 90, cache_read_input_tokens: 7 }
    await appendFile(
      transcriptPath(0),
      jsonl([
        {
          ...last,
          message: { ...last?.message, content: [{ type: 'text', text: 'done!' }], usage },
        },
      ]),
    )
    const warm = await createClaudeTranscriptSource(temp.paths).scan()
    const reference = await coldSummaries()
    const tokens = reference.find((s) => s.path === transcriptPath(0))?.usage
    expect(tokens?.messages).toBe(10)
    expect(tokens?.totals.input).toBe(100 + 101 + 102 + 103 + 104 + 100 + 101 + 102 + 103 + 500)
    expectSameSummaries(warm.summaries, reference)
  })

  it('re-reads a half-written last line whose rest arrives after the restart', async () => {
    await writeCorpus(2)
    const line = JSON.stringify(turn(sessionId(0), 9)[0])
    const cut = 25
    await appendFile(transcriptPath(0), line.slice(0, cut))
    await warmedUp()
    await appendFile(transcriptPath(0), `${line.slice(cut)}\n`)

    const warm = await createClaudeTranscriptSource(temp.paths).scan()
    expect(warm.corruptLines).toBe(1)
    expect(warm.bytesRead).toBe(Buffer.byteLength(line) + 1)
    expect(warm.summaries.find((s) => s.path === transcriptPath(0))?.lastPrompt).toBe('step 9 ')
    expectSameSummaries(warm.summaries, await coldSummaries())
  })

  it('reads a replaced transcript (new inode) and a truncated one from byte 0', async () => {
    await writeCorpus(3, 8)
    await warmedUp()
    // Replaced by a longer file: same path, size above the indexed offset, other inode.
    const replacement = jsonl(
      Array.from({ length: 10 }, (_, i) => turn(sessionId(0), i + 100)).flat(),
    )
    await writeFile(`${transcriptPath(0)}.tmp`, replacement)
    await rename(`${transcriptPath(0)}.tmp`, transcriptPath(0))
    // Truncated in place: same inode, shorter.
    const truncated = jsonl(turn(sessionId(1), 7))
    await writeFile(transcriptPath(1), truncated)

    const warm = await createClaudeTranscriptSource(temp.paths).scan()
    expect(warm.corruptLines).toBe(1)
    expect(warm.bytesRead).toBe(Buffer.byteLength(replacement) + Buffer.byteLength(truncated))
    const reference = await coldSummaries()
    expectSameSummaries(warm.summaries, reference)
    expect(reference[1]?.turns).toBe(1)
  })

  it('reads a file replaced by one of the same size and mtime (only the inode differs)', async () => {
    await writeCorpus(2)
    const mtime = new Date('2026-11-21T12:00:00.000Z')
    await utimes(transcriptPath(0), mtime, mtime)
    await warmedUp()
    const original = await readFile(transcriptPath(0), 'utf8')
    const replacement = original.replaceAll('step 1', 'step 7')
    expect(replacement.length).toBe(original.length)
    await writeFile(`${transcriptPath(0)}.tmp`, replacement)
    await utimes(`${transcriptPath(0)}.tmp`, mtime, mtime)
    await rename(`${transcriptPath(0)}.tmp`, transcriptPath(0))

    const warm = await createClaudeTranscriptSource(temp.paths).scan()
    expect(warm.corruptLines).toBe(1)
    expect(warm.bytesRead).toBe(Buffer.byteLength(replacement))
    expectSameSummaries(warm.summaries, await coldSummaries())
  })

  it('starts cold, without throwing, from a corrupt or foreign index', async () => {
    const total = await writeCorpus(3)
    const reference = await coldSummaries()
    await mkdir(join(temp.paths.naviHome, 'cache'), { recursive: true })
    // Unreadable JSON is reported (once); an index of another version is the normal upgrade path.
    for (const [junk, reported] of [
      ['{"format":"navi-jsonl-index/1","summaryVersion":1,"files":[{"path":', true],
      ['\u0000\u0001 not json', true],
      [JSON.stringify({ format: 'navi-jsonl-index/1', summaryVersion: 999, files: [] }), false],
      [JSON.stringify([1, 2, 3]), false],
    ] as const) {
      await writeFile(cacheFile, junk)
      const source = createClaudeTranscriptSource(temp.paths)
      const scan = await source.scan()
      expect(scan.bytesRead).toBe(total)
      expect(scan.errors).toEqual(reported ? [expect.stringMatching(/indexing from scratch$/)] : [])
      expectSameSummaries(scan.summaries, reference)
      // The unusable index is replaced by a good one.
      await source.flush()
      expect((await createClaudeTranscriptSource(temp.paths).scan()).bytesRead).toBe(0)
    }
  })

  it('re-reads only the file whose indexed summary does not decode', async () => {
    await writeCorpus(3)
    await warmedUp()
    // The files line no longer matches the header's hash: every entry is validated, the bad one dropped.
    const text = await readFile(cacheFile, 'utf8')
    const header = text.slice(0, text.indexOf('\n'))
    const { files } = indexOf(text)
    const broken = files.find((f) => f.path === transcriptPath(2))
    if (!broken) throw new Error('transcript 2 is not indexed')
    broken.summary = { turns: 'many' }
    await writeFile(cacheFile, `${header}\n${files.map((f) => JSON.stringify(f)).join('\n')}\n`)

    const warm = await createClaudeTranscriptSource(temp.paths).scan()
    expect(warm.corruptLines).toBe(1)
    expect(warm.bytesRead).toBe((await stat(transcriptPath(2))).size)
    expectSameSummaries(warm.summaries, await coldSummaries())
  })

  it('gives the same summaries once the index is deleted, and writes only after a change', async () => {
    await writeCorpus(3)
    const source = createClaudeTranscriptSource(temp.paths)
    const first = await source.scan()
    await source.flush()
    await rm(cacheFile)
    // Nothing changed since the last flush: nothing is written.
    await source.scan()
    await source.flush()
    await expect(stat(cacheFile)).rejects.toThrow()

    const again = await createClaudeTranscriptSource(temp.paths).scan()
    expect(again.bytesRead).toBeGreaterThan(0)
    expectSameSummaries(again.summaries, byPath(first.summaries))
  })

  it('is written as a fresh encoding of every summary would write it, its unchanged ones kept', async () => {
    await writeCorpus(4)
    // Folded on fold workers (the texts they hand back are the entries), then changed three ways.
    const source = createClaudeTranscriptSource(temp.paths, { parallelMinBytes: 0 })
    expect((await source.scan()).bytesRead).toBeGreaterThan(0)
    await source.flush()
    await appendFile(transcriptPath(1), jsonl(turn(sessionId(1), 9)))
    await addSubagent(2, 'b7', 'toolu_1')
    await source.scan()
    await source.flush()
    const kept = await readFile(cacheFile, 'utf8')
    await expectFreshEncoding(kept)
    expect(kept).toContain('"b7"')
  })

  it('after a restart, writes its unchanged summaries again as read and its changed ones anew', async () => {
    await writeCorpus(4)
    await warmedUp()
    const before = indexOf(await readFile(cacheFile, 'utf8')).files
    // A restarted source: one transcript grows, another session gains a sub-agent.
    const restarted = createClaudeTranscriptSource(temp.paths)
    await appendFile(transcriptPath(1), jsonl(turn(sessionId(1), 9)))
    await addSubagent(2, 'c3')
    await restarted.scan()
    await restarted.flush()
    const kept = await readFile(cacheFile, 'utf8')
    await expectFreshEncoding(kept)
    expect(kept).toContain('"c3"')
    // The untouched transcripts' lines are the ones the first process wrote.
    const after = indexOf(kept).files
    for (const n of [3, 4]) {
      const line = (files: typeof before) => files.find((f) => f.path === transcriptPath(n))
      expect(line(after)).toEqual(line(before))
    }
    expect(after.find((f) => f.path === transcriptPath(1))).not.toEqual(
      before.find((f) => f.path === transcriptPath(1)),
    )
  })

  it('drops a transcript that disappeared and persists nothing with cacheFile null', async () => {
    await writeCorpus(3)
    await warmedUp()
    await rm(transcriptPath(0))
    const source = createClaudeTranscriptSource(temp.paths)
    expect((await source.scan()).summaries).toHaveLength(2)
    await source.flush()
    const index = indexOf(await readFile(cacheFile, 'utf8')) as { files: { path: string }[] }
    expect(index.files.map((f) => f.path).sort()).toEqual([transcriptPath(1), transcriptPath(2)])

    await rm(cacheFile)
    const uncached = createClaudeTranscriptSource(temp.paths, { cacheFile: null })
    await uncached.scan()
    await uncached.flush()
    await expect(stat(cacheFile)).rejects.toThrow()
  })

  it('reports a failing index write in the next scan and keeps working', async () => {
    await writeCorpus(1)
    // A directory where the index file should be: the atomic rename fails.
    const blocked = join(temp.root, 'blocked')
    await mkdir(join(blocked, 'index.json'), { recursive: true })
    const source = createClaudeTranscriptSource(temp.paths, {
      cacheFile: join(blocked, 'index.json'),
    })
    await source.scan()
    await expect(source.flush()).resolves.toBeUndefined()
    const next = await source.scan()
    expect(next.errors).toHaveLength(1)
    expect(next.errors[0]).toContain('index.json')
    expect(next.summaries).toHaveLength(1)
  })
})

describe('codex rollout index', () => {
  it('resumes rollouts after a restart and reads only what was appended', async () => {
    const thread = '01a20065-b755-71d2-9126-b9dad2c5de5f'
    const day = join(temp.paths.codexHome, 'sessions', '2026', '11', '21')
    const file = join(day, `rollout-2026-11-21T23-16-35-${thread}.jsonl`)
    await mkdir(day, { recursive: true })
    const event = (type: string, payload: object) => ({
      timestamp: '2026-11-21T23:16:11.118Z',
      type,
      payload,
    })
    await writeFile(
      file,
      jsonl([
        event('session_meta', { id: thread, cwd: '/home/user/repo', source: 'exec' }),
        event('event_msg', { type: 'task_started' }),
        event('event_msg', { type: 'user_message', message: 'do work' }),
      ]),
    )
    const first = createCodexRolloutSource(temp.paths)
    await first.scan()
    await first.flush()

    const warm = await createCodexRolloutSource(temp.paths).scan()
    expect(warm.bytesRead).toBe(0)
    expect(warm.summaries).toEqual(
      (await createCodexRolloutSource(temp.paths, { cacheFile: null }).scan()).summaries,
    )

    const appended = jsonl([
      event('event_msg', { type: 'task_complete', last_agent_message: 'ok' }),
    ])
    await appendFile(file, appended)
    const restarted = createCodexRolloutSource(temp.paths)
    const grown = await restarted.scan()
    expect(grown.bytesRead).toBe(Buffer.byteLength(appended))
    expect(grown.summaries[0]).toMatchObject({ inTurn: false, lastAgentMessage: 'ok', turns: 1 })
    expect(grown.summaries).toEqual(
      (await createCodexRolloutSource(temp.paths, { cacheFile: null }).scan()).summaries,
    )
  })
})
