import { appendFile, mkdir, writeFile } from 'node:fs/promises'
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
      errors: [],
      corruptLines: 0,
      bytesRead: 0,
    })
  })
})
