/**
 * The fold pool (fold-pool.ts) on real worker threads and on worker processes (a running engine's): more
 * jobs than its workers hold at once, each answered with its own file's summary; a file that cannot be
 * read fails alone; closing answers what the workers still held; lines of 15 MiB fit in a worker's heap.
 * Transcripts are files written here: this is about the pool, not the fold.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openFoldPool, type FoldPool } from '../../electron/engine/adapters/fold-pool.ts'
import type { TranscriptSummary } from '../../electron/engine/core/source-records.ts'
import { summarizeTokens } from '../../electron/engine/core/usage-tally.ts'
import { reviveTranscriptSummary } from '../../electron/engine/core/transcript-encoding.ts'
import { useTempDirs } from '../support/temp-paths.ts'

const tempDir = useTempDirs('navi-fold-pool-')

/** A pool of `size` workers for `use`, closed after it (also when `use` fails). */
async function withPool(
  size: number,
  processes: boolean,
  use: (pool: FoldPool) => Promise<void>,
): Promise<void> {
  const pool = openFoldPool(size, { processes })
  if (pool === null) throw new Error('no fold worker could start')
  try {
    await use(pool)
  } finally {
    await pool.close()
  }
}

/** `count` transcripts; the i-th has i + 1 prompts, so each answer can be told from the others. */
function transcripts(count: number): string[] {
  const dir = tempDir()
  return Array.from({ length: count }, (_, i) => {
    const path = join(dir, `session-${i}.jsonl`)
    const lines = Array.from({ length: i + 1 }, (_, turn) =>
      JSON.stringify({
        type: 'user',
        sessionId: `session-${i}`,
        cwd: `/work/repo-${i}`,
        timestamp: `2026-11-26T10:00:${String(turn).padStart(2, '0')}.000Z`,
        message: { role: 'user', content: `prompt ${turn} of session ${i}` },
      }),
    )
    writeFileSync(path, `${lines.join('\n')}\n`)
    return path
  })
}

/** A worker's answer, revived as the engine's thread revives it. */
function summaryOf(json: string, path: string): TranscriptSummary {
  const summary = reviveTranscriptSummary(JSON.parse(json), path)
  if (summary === null) throw new Error(`the answer is not a summary of ${path}`)
  return summary
}

describe.each([
  ['threads', false],
  ['processes', true],
])('the fold pool on worker %s', (_kind, processes) => {
  it('answers every job with its own file, when given more than its workers hold at once', async () => {
    await withPool(2, processes, async (pool) => {
      const paths = transcripts(9)
      const outcomes = await Promise.all(paths.map((p) => pool.fold('claude-transcript', p)))
      const seen = outcomes.map((o) => {
        const summary = summaryOf(o.summaryJson, paths[outcomes.indexOf(o)] ?? '')
        return { cwd: summary.cwd, turns: summary.turns, prompt: summary.lastPrompt }
      })
      expect(seen).toEqual(
        paths.map((_, i) => ({
          cwd: `/work/repo-${i}`,
          turns: i + 1,
          prompt: `prompt ${i} of session ${i}`,
        })),
      )
    })
  })

  it('fails only the job whose file cannot be read', async () => {
    await withPool(1, processes, async (pool) => {
      const [first, second] = transcripts(2) as [string, string]
      const folder = join(dirname(first), 'a-folder.jsonl')
      mkdirSync(folder)
      const results = await Promise.allSettled([
        pool.fold('claude-transcript', first),
        pool.fold('claude-transcript', folder),
        pool.fold('claude-transcript', second),
      ])
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    })
  })

  it("folds lines of 15 MiB within a worker's heap (a pasted log, a long reply)", async () => {
    await withPool(1, processes, async (pool) => {
      const path = join(tempDir(), 'big.jsonl')
      const big = 'x'.repeat(15 * 1024 * 1024)
      const base = { sessionId: 'big', cwd: '/work/big', isSidechain: false }
      const lines = [
        {
          ...base,
          type: 'user',
          timestamp: '2026-11-26T10:00:00.000Z',
          message: { role: 'user', content: big },
        },
        {
          ...base,
          type: 'assistant',
          timestamp: '2026-11-26T10:00:01.000Z',
          message: {
            id: 'm1',
            role: 'assistant',
            model: 'claude-x',
            content: [{ type: 'text', text: big }],
            usage: { input_tokens: 3, output_tokens: 4 },
          },
        },
        {
          ...base,
          type: 'user',
          timestamp: '2026-11-26T10:00:02.000Z',
          message: { role: 'user', content: [{ type: 'text', text: big }] },
        },
      ]
      writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`)
      const outcome = await pool.fold('claude-transcript', path)
      const summary = summaryOf(outcome.summaryJson, path)
      expect(outcome.corrupt).toBe(0)
      expect(summary.turns).toBe(2)
      expect(summarizeTokens(summary).total).toBe(7)
    })
  })

  it('answers the jobs it still held when it is closed, and takes no new one', async () => {
    const pool = openFoldPool(1, { processes })
    if (pool === null) throw new Error('no fold worker could start')
    const settled = Promise.allSettled(transcripts(6).map((p) => pool.fold('claude-transcript', p)))
    await pool.close()
    const results = await settled
    expect(results).toHaveLength(6)
    expect(results.some((r) => r.status === 'rejected')).toBe(true)
    await expect(pool.fold('claude-transcript', '/nowhere.jsonl')).rejects.toThrow(/no fold worker/)
  })
})
