/**
 * The fold pool (fold-pool.ts) on real worker threads: more jobs than its workers hold at once, each
 * answered with its own file's summary; a file that cannot be read fails alone; closing answers what the
 * workers still held; lines of 15 MiB fit in a worker's heap. Transcripts are files written here: this
 * is about the pool, not the fold.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openFoldPool } from '../../electron/engine/adapters/fold-pool.ts'
import type { TranscriptSummary } from '../../electron/engine/core/source-records.ts'
import { summarizeTokens } from '../../electron/engine/core/usage-tally.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** `count` transcripts; the i-th has i + 1 prompts, so each answer can be told from the others. */
function transcripts(count: number): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'navi-fold-pool-'))
  dirs.push(dir)
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

describe('the fold pool', () => {
  it('answers every job with its own file, when given more than its workers hold at once', async () => {
    const pool = openFoldPool(2)
    expect(pool).not.toBeNull()
    if (pool === null) return
    try {
      const paths = transcripts(9)
      const outcomes = await Promise.all(paths.map((p) => pool.fold('claude-transcript', p)))
      const seen = outcomes.map((o) => {
        const summary = o.summary as TranscriptSummary
        return { cwd: summary.cwd, turns: summary.turns, prompt: summary.lastPrompt }
      })
      expect(seen).toEqual(
        paths.map((_, i) => ({
          cwd: `/work/repo-${i}`,
          turns: i + 1,
          prompt: `prompt ${i} of session ${i}`,
        })),
      )
    } finally {
      await pool.close()
    }
  })

  it('fails only the job whose file cannot be read', async () => {
    const pool = openFoldPool(1)
    if (pool === null) throw new Error('no fold worker could start')
    try {
      const [first, second] = transcripts(2) as [string, string]
      const folder = join(dirs[0] as string, 'a-folder.jsonl')
      mkdirSync(folder)
      const results = await Promise.allSettled([
        pool.fold('claude-transcript', first),
        pool.fold('claude-transcript', folder),
        pool.fold('claude-transcript', second),
      ])
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    } finally {
      await pool.close()
    }
  })

  it("folds lines of 15 MiB within a worker's heap (a pasted log, a long reply)", async () => {
    const pool = openFoldPool(1)
    if (pool === null) throw new Error('no fold worker could start')
    try {
      const dir = mkdtempSync(join(tmpdir(), 'navi-fold-pool-big-'))
      dirs.push(dir)
      const path = join(dir, 'big.jsonl')
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
      const summary = outcome.summary as TranscriptSummary
      expect(outcome.corrupt).toBe(0)
      expect(summary.turns).toBe(2)
      expect(summarizeTokens(summary).total).toBe(7)
    } finally {
      await pool.close()
    }
  })

  it('answers the jobs it still held when it is closed, and takes no new one', async () => {
    const pool = openFoldPool(1)
    if (pool === null) throw new Error('no fold worker could start')
    const settled = Promise.allSettled(transcripts(6).map((p) => pool.fold('claude-transcript', p)))
    await pool.close()
    const results = await settled
    expect(results).toHaveLength(6)
    expect(results.some((r) => r.status === 'rejected')).toBe(true)
    await expect(pool.fold('claude-transcript', '/nowhere.jsonl')).rejects.toThrow(/no fold worker/)
  })
})
