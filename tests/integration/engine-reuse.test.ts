/**
 * A running engine over the corpus of real Claude Code files (../shared/corpus, copied to a temp dir):
 * when one transcript grows, the watchers' cycle assembles that session again and keeps every settled
 * session as the object it was (cycle-memo.ts, claude-session-memo.ts); a cycle someone asks for keeps
 * nothing. The appended line is a real user line of that transcript with a new text and time.
 */
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { appendFile, cp, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEngine } from '../../electron/engine/index.ts'
import { SETTLED_AFTER_MS } from '../../electron/engine/core/claude-session-memo.ts'
import { useTempPaths } from '../support/temp-paths.ts'

const CORPUS = process.env.NAVI_CORPUS ?? resolve(import.meta.dirname, '../../../shared/corpus')
const hasCorpus = existsSync(join(CORPUS, 'claude', 'projects'))
const temp = useTempPaths('navi-engine-reuse-')

/** A real user line of `file` whose content is a plain prompt. */
async function userLineOf(file: string): Promise<Record<string, unknown> | null> {
  for (const text of (await readFile(file, 'utf8')).split('\n')) {
    try {
      const line = JSON.parse(text) as Record<string, unknown>
      const message = line.message as { role?: string; content?: unknown } | undefined
      if (line.type === 'user' && message?.role === 'user' && typeof message.content === 'string')
        return line
    } catch {
      // not a line of JSON
    }
  }
  return null
}

describe.skipIf(!hasCorpus)('engine reuse (needs ../shared/corpus)', () => {
  it('a grown transcript costs its own session; the settled ones stay the objects they were', async () => {
    await cp(join(CORPUS, 'claude'), temp.paths.claudeConfigDir, { recursive: true })
    const engine = createEngine({ paths: temp.paths, watch: true })
    await engine.start()
    try {
      const before = engine.getSessions()
      expect(before.length).toBeGreaterThan(10)
      let target: { id: string; path: string; line: Record<string, unknown> } | null = null
      for (const session of before) {
        if (!session.transcript_path || session.agent !== 'claude') continue
        const line = await userLineOf(session.transcript_path)
        if (line && line.sessionId === session.id) {
          target = { id: session.id, path: session.transcript_path, line }
          break
        }
      }
      if (!target) throw new Error('no corpus transcript with a plain user line')
      const now = Date.now()
      const settled = before.filter(
        (s) =>
          s.id !== target.id &&
          (s.status === 'ended' || s.status === 'idle') &&
          s.pending_request === null &&
          now - Date.parse(s.last_activity ?? '') >= SETTLED_AFTER_MS,
      )
      expect(settled.length).toBeGreaterThan(10)

      const probe = `navi reuse probe ${randomUUID()}`
      const grown = new Promise<void>((done, fail) => {
        const timer = setTimeout(() => fail(new Error('the append was not seen in 20 s')), 20_000)
        const off = engine.subscribe(() => {
          if (engine.getSessions().find((s) => s.id === target.id)?.last_prompt !== probe) return
          clearTimeout(timer)
          off()
          done()
        })
      })
      const line = {
        ...target.line,
        uuid: randomUUID(),
        timestamp: new Date(now).toISOString(),
        message: { role: 'user', content: probe },
      }
      await appendFile(target.path, `${JSON.stringify(line)}\n`)
      await grown

      const after = new Map(engine.getSessions().map((s) => [s.id, s]))
      expect(after.get(target.id)).not.toBe(before.find((s) => s.id === target.id))
      const kept = settled.filter((s) => after.get(s.id) === s)
      expect(kept.map((s) => s.id)).toEqual(settled.map((s) => s.id))

      // A refresh is asked for: it believes no watcher and keeps nothing.
      await engine.refresh()
      const refreshed = new Map(engine.getSessions().map((s) => [s.id, s]))
      expect(settled.filter((s) => refreshed.get(s.id) === s)).toEqual([])
      expect(refreshed.get(target.id)?.last_prompt).toBe(probe)
    } finally {
      await engine.stop()
    }
  })
})
