import { spawnSync } from 'node:child_process'
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createCodexRolloutSource } from '../../electron/engine/adapters/codex-rollouts.ts'
import { useTempPaths } from '../support/temp-paths.ts'

const temp = useTempPaths('navi-codex-')

const jsonl = (...values: unknown[]) => values.map((v) => `${JSON.stringify(v)}\n`).join('')
const THREAD = '01a20065-b755-71d2-9126-b9dad2c5de5f'

describe('createCodexRolloutSource', () => {
  it('lists sessions/YYYY/MM/DD/rollout-*.jsonl and folds them incrementally', async () => {
    const day = join(temp.paths.codexHome, 'sessions', '2026', '11', '21')
    await mkdir(day, { recursive: true })
    await mkdir(join(temp.paths.codexHome, 'sessions', 'not-a-year'), { recursive: true })
    const file = join(day, `rollout-2026-11-21T23-16-35-${THREAD}.jsonl`)
    await writeFile(join(day, 'notes.jsonl'), jsonl({ ignored: true }))
    await writeFile(
      file,
      jsonl(
        {
          timestamp: '2026-11-21T23:16:11.118Z',
          type: 'session_meta',
          payload: {
            id: THREAD,
            cwd: '/home/user/repo',
            cli_version: '0.169.0',
            source: 'exec',
            git: {},
          },
        },
        {
          timestamp: '2026-11-21T23:16:11.200Z',
          type: 'event_msg',
          payload: { type: 'task_started' },
        },
        {
          timestamp: '2026-11-21T23:16:11.300Z',
          type: 'response_item',
          payload: {
            type: 'message',
            role: 'user',
            content: [{ type: 'input_text', text: 'do work' }],
          },
        },
      ) + 'garbage\n',
    )
    const source = createCodexRolloutSource(temp.paths)
    const first = await source.scan()
    expect(first.errors).toEqual([])
    expect(first.corruptLines).toBe(1)
    expect(first.summaries).toHaveLength(1)
    expect(first.summaries[0]).toMatchObject({
      threadId: THREAD,
      path: file,
      cwd: '/home/user/repo',
      inTurn: true,
      turns: 1,
      firstUserMessage: 'do work',
      corruptLines: 1,
    })

    expect((await source.scan()).bytesRead).toBe(0)

    const more = jsonl({
      timestamp: '2026-11-21T23:16:13.000Z',
      type: 'event_msg',
      payload: { type: 'task_complete', last_agent_message: 'All done in codex.' },
    })
    await appendFile(file, more)
    const third = await source.scan()
    expect(third.bytesRead).toBe(Buffer.byteLength(more))
    expect(third.summaries[0]).toMatchObject({
      inTurn: false,
      lastAgentMessage: 'All done in codex.',
    })
  })

  it('returns nothing when CODEX_HOME has no sessions', async () => {
    expect(await createCodexRolloutSource(temp.paths).scan()).toEqual({
      summaries: [],
      threadNames: new Map(),
      errors: [],
      corruptLines: 0,
      bytesRead: 0,
    })
  })
})

const zstdMissing = spawnSync('zstd', ['--version']).status !== 0

describe('compressed rollouts and thread names', () => {
  const rollout = (thread: string, prompt: string) =>
    jsonl(
      {
        timestamp: '2026-11-20T10:00:00.000Z',
        type: 'session_meta',
        payload: { id: thread, cwd: '/home/user/repo', cli_version: '0.169.0', source: 'cli' },
      },
      {
        timestamp: '2026-11-20T10:00:01.000Z',
        type: 'event_msg',
        payload: { type: 'task_started' },
      },
      {
        timestamp: '2026-11-20T10:00:02.000Z',
        type: 'event_msg',
        payload: { type: 'user_message', message: prompt },
      },
      {
        timestamp: '2026-11-20T10:00:09.000Z',
        type: 'event_msg',
        payload: { type: 'task_complete' },
      },
    )

  it.skipIf(zstdMissing)(
    zstdMissing
      ? 'reads rollout-*.jsonl.zst (skipped: the zstd CLI that makes the test file is not installed)'
      : 'reads rollout-*.jsonl.zst (compressed by the zstd CLI), and the plain file while both exist',
    async () => {
      const day = join(temp.paths.codexHome, 'sessions', '2026', '11', '20')
      await mkdir(day, { recursive: true })
      const plain = join(day, `rollout-2026-11-20T10-00-00-${THREAD}.jsonl`)
      await writeFile(plain, rollout(THREAD, 'old work'))
      const zst = `${plain}.zst`
      expect(spawnSync('zstd', ['-q', '-k', plain, '-o', zst]).status).toBe(0)
      const source = createCodexRolloutSource(temp.paths)
      const both = await source.scan()
      expect(both.summaries.map((s) => s.path)).toEqual([plain])
      await rm(plain)
      const compressedOnly = await source.scan()
      expect(compressedOnly.errors).toEqual([])
      expect(compressedOnly.summaries).toHaveLength(1)
      expect(compressedOnly.summaries[0]).toMatchObject({
        threadId: THREAD,
        path: zst,
        cwd: '/home/user/repo',
        turns: 1,
        inTurn: false,
        lastUserMessage: 'old work',
        corruptLines: 0,
      })
    },
  )

  it('a damaged .zst is an error naming it, and the other rollouts still read', async () => {
    const day = join(temp.paths.codexHome, 'sessions', '2026', '11', '20')
    await mkdir(day, { recursive: true })
    await writeFile(join(day, `rollout-2026-11-20T10-00-00-${THREAD}.jsonl.zst`), 'not zstd at all')
    const other = '02b20065-b755-71d2-9126-b9dad2c5de5f'
    await writeFile(join(day, `rollout-2026-11-20T11-00-00-${other}.jsonl`), rollout(other, 'fine'))
    const scan = await createCodexRolloutSource(temp.paths).scan()
    expect(scan.summaries.map((s) => s.threadId)).toEqual([other])
    expect(scan.errors).toHaveLength(1)
    expect(scan.errors[0]).toContain('.jsonl.zst')
  })

  it('thread names come from session_index.jsonl, the last line of a thread winning', async () => {
    await mkdir(temp.paths.codexHome, { recursive: true })
    await writeFile(
      join(temp.paths.codexHome, 'session_index.jsonl'),
      jsonl(
        { id: THREAD, thread_name: 'First name', updated_at: '2026-11-20T10:00:00Z' },
        { id: 'other', thread_name: 'Other', updated_at: '2026-11-20T10:00:00Z' },
        { id: THREAD, thread_name: 'Fix the importer', updated_at: '2026-11-20T11:00:00Z' },
      ) + 'not json\n',
    )
    const scan = await createCodexRolloutSource(temp.paths).scan()
    expect(scan.threadNames.get(THREAD)).toBe('Fix the importer')
    expect(scan.errors).toEqual([])
  })
})
