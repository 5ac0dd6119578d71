/**
 * The projection of transcript lines (core/transcript-fields.ts) against the fold it serves: every Claude
 * file of the real corpus (../shared/corpus) and a generated session with damaged lines are folded twice,
 * once from `JSON.parse` of each whole line (the reference) and once as Navi reads them (projected bytes,
 * on this thread and on fold workers), and the summaries and corrupt-line counts must be equal. A fold
 * that starts reading a field the projection does not name fails here.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createJsonlFileSet } from '../../electron/engine/adapters/jsonl-file-set.ts'
import { createJsonlTail } from '../../electron/engine/adapters/jsonl-tail.ts'
import {
  claudeTranscriptFolder,
  isBulkyTranscriptBytes,
  isBulkyTranscriptLine,
  SNAPSHOT_MIN_BYTES,
} from '../../electron/engine/adapters/transcript-folder.ts'
import type { TranscriptSummary } from '../../electron/engine/core/source-records.ts'
import { encodeTranscriptSummary } from '../../electron/engine/core/summary-codec.ts'
import { buildTurn, type SessionContext } from '../../bench/lib/transcript-lines.ts'
import { createRandom } from '../support/seeded-random.ts'

const CORPUS = process.env.NAVI_CORPUS ?? resolve(import.meta.dirname, '../../../shared/corpus')
const hasCorpus = existsSync(join(CORPUS, 'claude', 'projects'))

async function jsonlFiles(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await jsonlFiles(path)))
    else if (entry.name.endsWith('.jsonl')) out.push(path)
  }
  return out.sort()
}

/** Folds `path` as Navi did before projections: each line decoded and parsed whole. */
async function foldWhole(path: string): Promise<{ summary: TranscriptSummary; corrupt: number }> {
  const summary = claudeTranscriptFolder.create(path)
  const result = await createJsonlTail(path).readNew({
    onLine: (line) => claudeTranscriptFolder.fold(summary, line),
    parseLine: (buf, start, end) => JSON.parse(buf.toString('utf8', start, end)),
    skipLine: (buf, start, end) => isBulkyTranscriptLine(buf.toString('utf8', start, end)),
  })
  return { summary, corrupt: result.corrupt }
}

/** Folds `path` as Navi reads it now: the projection and the byte-level skip of bulky lines. */
async function foldProjected(path: string) {
  const summary = claudeTranscriptFolder.create(path)
  const result = await createJsonlTail(path).readNew({
    onLine: (line) => claudeTranscriptFolder.fold(summary, line),
    ...(claudeTranscriptFolder.parseLine ? { parseLine: claudeTranscriptFolder.parseLine } : {}),
    ...(claudeTranscriptFolder.skipLine ? { skipLine: claudeTranscriptFolder.skipLine } : {}),
  })
  return { summary, corrupt: result.corrupt }
}

const comparable = (summary: TranscriptSummary) => encodeTranscriptSummary(summary)

/**
 * Lines for what the generated turns lack and real files rarely show (task tools and their failures,
 * sub-agents, titles, API errors, notifications, slash commands): every field the fold reads appears, so
 * that a field missing from the projection changes a summary here.
 */
function featureLines(sessionId: string, cwd: string, startMs: number): unknown[] {
  let clock = startMs
  const base = () => {
    clock += 1000
    const timestamp = new Date(clock).toISOString()
    return { sessionId, cwd, gitBranch: 'feat', version: '2.1.330', entrypoint: 'cli', timestamp }
  }
  const use = (id: string, name: string, input: unknown) => ({
    ...base(),
    type: 'assistant',
    message: {
      id: `msg_${id}`,
      content: [{ type: 'tool_use', id, name, input }],
      stop_reason: 'tool_use',
      usage: {
        input_tokens: 3,
        output_tokens: 4,
        cache_read_input_tokens: 5,
        cache_creation_input_tokens: 6,
      },
    },
  })
  const result = (id: string, toolUseResult: unknown, isError = false) => ({
    ...base(),
    type: 'user',
    message: {
      content: [{ type: 'tool_result', tool_use_id: id, is_error: isError, content: 'body' }],
    },
    toolUseResult,
  })
  return [
    { ...base(), type: 'user', message: { content: 'build the thing' } },
    use('t1', 'TaskCreate', { subject: 'First task', description: 'd' }),
    result('t1', { task: { id: '1', subject: 'First task' } }),
    use('t2', 'TaskCreate', { subject: 'Failed task' }),
    result('t2', { task: { id: '2' } }, true),
    use('t3', 'TaskUpdate', { taskId: '1', status: 'in_progress' }),
    result('t3', { success: true }),
    use('t4', 'TaskUpdate', { taskId: '1', status: 'completed', subject: 'First task, done' }),
    result('t4', { success: false }),
    use('t5', 'TodoWrite', { todos: [{ content: 'a', status: 'in_progress', activeForm: 'A' }] }),
    result('t5', { newTodos: [{ content: 'a', status: 'completed', activeForm: 'A' }] }),
    use('t6', 'Agent', { description: 'look around', prompt: 'p', subagent_type: 'x' }),
    result('t6', { agentId: 'agent-77', content: [] }),
    use('t7', 'Bash', { command: 'npm test\nmore', description: 'run the tests' }),
    {
      ...base(),
      type: 'system',
      subtype: 'api_error',
      error: { status: 529, error: { error: { message: 'Overloaded' } } },
      retryAttempt: 2,
      maxRetries: 10,
    },
    result('t7', 'Error: exit 1', true),
    {
      ...base(),
      type: 'assistant',
      isApiErrorMessage: true,
      message: { id: 'e', content: [{ type: 'text', text: 'API Error: 429' }] },
    },
    {
      ...base(),
      type: 'user',
      origin: { kind: 'task-notification' },
      message: { content: 'bg done' },
    },
    { ...base(), type: 'user', promptSource: 'system', message: { content: 'also bg' } },
    { ...base(), type: 'user', turnOrigin: 'task_notification', message: { content: 'and bg' } },
    {
      ...base(),
      type: 'user',
      message: {
        content: '<command-name>/review</command-name><command-args>the parser</command-args>',
      },
    },
    {
      ...base(),
      type: 'user',
      isMeta: true,
      message: { content: [{ type: 'text', text: 'Review the parser' }] },
    },
    {
      ...base(),
      type: 'assistant',
      message: {
        id: 'm9',
        content: [{ type: 'text', text: 'Reviewed.' }],
        stop_reason: 'end_turn',
        usage: { output_tokens: 9 },
      },
    },
    { ...base(), type: 'system', subtype: 'turn_duration', durationMs: 4321 },
    { ...base(), type: 'user', isCompactSummary: true, message: { content: 'summary of before' } },
    {
      ...base(),
      type: 'user',
      isSidechain: true,
      cwd: '/elsewhere',
      message: { content: 'sidechain' },
    },
    { ...base(), type: 'system', content: 'Stop [hook] completed successfully' },
    { type: 'summary', summary: 'An old-style title' },
    { type: 'ai-title', aiTitle: 'A generated title' },
    { type: 'custom-title', customTitle: 'My title' },
    { type: 'last-prompt', lastPrompt: 'the last prompt' },
  ]
}

describe.skipIf(!hasCorpus)('projected transcript lines (needs ../shared/corpus)', () => {
  it('fold every real Claude file exactly as whole lines do', async () => {
    const files = await jsonlFiles(join(CORPUS, 'claude', 'projects'))
    expect(files.length).toBeGreaterThan(50)
    let lines = 0
    for (const file of files) {
      const whole = await foldWhole(file)
      const projected = await foldProjected(file)
      expect({ file, ...comparable(projected.summary) }).toEqual({
        file,
        ...comparable(whole.summary),
      })
      expect({ file, corrupt: projected.corrupt }).toEqual({ file, corrupt: whole.corrupt })
      lines += whole.summary.turns
    }
    expect(lines).toBeGreaterThan(0)
  })
})

describe('projected transcript lines on generated sessions', () => {
  let dir: string
  let files: string[]
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'navi-transcript-fields-'))
    const random = createRandom(11)
    files = []
    for (let n = 0; n < 6; n++) {
      const context: SessionContext = {
        random,
        sessionId: `5e55${String(n).padStart(4, '0')}-0000-4000-8000-000000000000`,
        cwd: `/home/dev/p${String(n)}`,
        branch: 'main',
        model: 'claude-sonnet-4-5-20250929',
        clockMs: Date.UTC(2026, 9, 1) + n * 3600_000,
        turn: 0,
        lastUuid: null,
      }
      let text = featureLines(context.sessionId, context.cwd, context.clockMs)
        .map((line) => `${JSON.stringify(line)}\n`)
        .join('')
      context.clockMs += 60_000
      for (let t = 0; t < 8 + n * 3; t++) text += buildTurn(context)
      // Damage as the wild has it: a truncated line, garbage, a bulky line, a half-written last line.
      const lines = text.split('\n')
      lines.splice(3, 0, lines[2]?.slice(0, 40) ?? '{', 'not json at all', '{"a":[1}')
      lines.splice(
        5,
        0,
        `{"type":"api-request-shape","timestamp":"2026-10-01T00:00:00.000Z","body":"${'x'.repeat(900)}"}`,
      )
      const path = join(dir, `${context.sessionId}.jsonl`)
      await writeFile(path, `${lines.join('\n')}{"type":"user","cut`)
      files.push(path)
    }
    // A session that ends in what the turns would overwrite: the retry in flight, the last prompt.
    const ending = join(dir, 'e0000000-0000-4000-8000-000000000000.jsonl')
    const endLines = [
      ...featureLines('e0000000-0000-4000-8000-000000000000', '/home/dev/e', Date.UTC(2026, 9, 2)),
      { type: 'last-prompt', lastPrompt: 'the very last prompt' },
      {
        type: 'system',
        subtype: 'api_error',
        timestamp: '2026-10-02T01:00:00.000Z',
        error: 'rate_limit_error',
        retryAttempt: 3,
        maxRetries: 10,
      },
    ]
    await writeFile(ending, endLines.map((line) => `${JSON.stringify(line)}\n`).join(''))
    files.push(ending)
  })
  afterAll(async () => rm(dir, { recursive: true, force: true }))

  it('fold exactly as whole lines do, damaged lines counted alike', async () => {
    for (const file of files) {
      const whole = await foldWhole(file)
      const projected = await foldProjected(file)
      expect(comparable(projected.summary)).toEqual(comparable(whole.summary))
      expect(projected.corrupt).toBe(whole.corrupt)
      expect(whole.corrupt).toBe(file.includes('e0000000') ? 0 : 3)
    }
  })

  it('fold on workers exactly as on this thread', async () => {
    const folded = async (minBytes: number) => {
      const set = createJsonlFileSet(claudeTranscriptFolder, {
        parallel: { folder: 'claude-transcript', minBytes },
      })
      const update = await set.update(files)
      return { update, summaries: set.summaries().map(comparable) }
    }
    const here = await folded(Number.POSITIVE_INFINITY)
    const onWorkers = await folded(0)
    expect(onWorkers.summaries).toEqual(here.summaries)
    expect(onWorkers.update.corruptLines).toBe(here.update.corruptLines)
    expect(onWorkers.update.bytesRead).toBe(here.update.bytesRead)
    expect(here.summaries).toHaveLength(files.length)
    expect(here.update.onWorkers).toBe(0)
    expect(onWorkers.update.onWorkers).toBe(files.length)
  })

  it('say a bulky line is bulky from its bytes as from its text', () => {
    const cases = [
      '{"type":"api-request-shape","x":1}',
      '{"type":"api-request-blob","x":1}',
      '{"type":"api-request","x":1}',
      `{"type":"attachment","attachment":{"type":"prompt_snapshot","x":"${'y'.repeat(50)}"}}`,
      `{"uuid":"${'é'.repeat(70)}","attachment":{"type":"prompt_snapshot"}}`,
      `{"uuid":"${'é'.repeat(90)}","attachment":{"type":"prompt_snapshot"}}`,
      `{"uuid":"${'😀'.repeat(60)}","attachment":{"type":"prompt_snapshot"}}`,
      `{"uuid":"${'x'.repeat(300)}","attachment":{"type":"prompt_snapshot"}}`,
    ]
    // Each case as written (a small line is never bulky) and grown past SNAPSHOT_MIN_BYTES.
    const padded = cases.map((c) => `${c.slice(0, -1)},"pad":"${'p'.repeat(SNAPSHOT_MIN_BYTES)}"}`)
    expect(padded.filter(isBulkyTranscriptLine)).toHaveLength(6)
    expect(cases.filter(isBulkyTranscriptLine)).toHaveLength(2)
    for (const text of [...cases, ...padded]) {
      const buf = Buffer.from(`\n${text}\n`)
      expect({ text, bulky: isBulkyTranscriptBytes(buf, 1, buf.length - 1) }).toEqual({
        text,
        bulky: isBulkyTranscriptLine(text),
      })
    }
  })
})
