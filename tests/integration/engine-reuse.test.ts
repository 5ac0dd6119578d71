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
import { createEngine, type Engine } from '../../electron/engine/index.ts'
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

type Target = { id: string; path: string; line: Record<string, unknown> }

/** The first of `sessions` whose transcript has a plain user line of its own. */
async function plainPromptTarget(
  sessions: readonly { id: string; agent: string; transcript_path: string | null }[],
): Promise<Target | null> {
  for (const session of sessions) {
    if (!session.transcript_path || session.agent !== 'claude') continue
    const line = await userLineOf(session.transcript_path)
    if (line && line.sessionId === session.id)
      return { id: session.id, path: session.transcript_path, line }
  }
  return null
}

/** Appends the target's user line with `probe` as its text and `at` as its time; waits for the engine. */
async function appendProbe(
  engine: Engine,
  target: Target,
  probe: string,
  at = new Date(),
): Promise<void> {
  const seen = new Promise<void>((done, fail) => {
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
    timestamp: at.toISOString(),
    message: { role: 'user', content: probe },
  }
  await appendFile(target.path, `${JSON.stringify(line)}\n`)
  await seen
}

describe.skipIf(!hasCorpus)('engine reuse (needs ../shared/corpus)', () => {
  it('a grown transcript costs its own session and project; the settled ones stay the objects they were', async () => {
    await cp(join(CORPUS, 'claude'), temp.paths.claudeConfigDir, { recursive: true })
    const engine = createEngine({ paths: temp.paths, watch: true })
    await engine.start()
    const projectOf = (id: string) => engine.getSessions().find((s) => s.id === id)?.project_dir
    const snapshotOf = (dir: string | null | undefined) =>
      engine.getState().projects.find((p) => p.project_dir === dir)
    try {
      const before = engine.getSessions()
      expect(before.length).toBeGreaterThan(10)
      const target = await plainPromptTarget(before)
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
      await appendProbe(engine, target, probe)
      const after = new Map(engine.getSessions().map((s) => [s.id, s]))
      expect(after.get(target.id)).not.toBe(before.find((s) => s.id === target.id))
      const kept = settled.filter((s) => after.get(s.id) === s)
      expect(kept.map((s) => s.id)).toEqual(settled.map((s) => s.id))

      // The corpus' folders are not on this machine: each project's folder is missing, as a deleted
      // worktree's is. A second project made recent, then the first one grown again: the second's
      // snapshot is kept as the object it was (it was built again at every append before).
      const other = await plainPromptTarget(
        before.filter((s) => s.project_dir !== null && s.project_dir !== projectOf(target.id)),
      )
      if (!other) throw new Error('no second corpus project with a plain user line')
      // Two hours ago: recent enough for a project snapshot, settled (the clock changes nothing of it).
      const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000)
      await appendProbe(engine, other, `navi reuse other ${randomUUID()}`, twoHoursAgo)
      const otherSnapshot = snapshotOf(projectOf(other.id))
      expect(otherSnapshot?.errors.join('\n')).toContain('no longer exists')
      const againProbe = `navi reuse again ${randomUUID()}`
      await appendProbe(engine, target, againProbe)
      expect(snapshotOf(projectOf(target.id))?.sessions.map((s) => s.last_prompt)).toContain(
        againProbe,
      )
      expect(snapshotOf(projectOf(other.id))).toBe(otherSnapshot)

      // A refresh is asked for: it believes no watcher and keeps nothing.
      await engine.refresh()
      const refreshed = new Map(engine.getSessions().map((s) => [s.id, s]))
      expect(settled.filter((s) => refreshed.get(s.id) === s)).toEqual([])
      expect(refreshed.get(target.id)?.last_prompt).toBe(againProbe)
      expect(snapshotOf(projectOf(other.id))).not.toBe(otherSnapshot)
    } finally {
      await engine.stop()
    }
  })
})
