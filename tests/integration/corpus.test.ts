/**
 * Navi over the corpus of real files (../shared/corpus: Claude Code 1.0.24 to 2.1.114 and Codex, copied
 * from public repositories): the bounds on times, token counts and string lengths must not mistake any real
 * line for a damaged one, and every real session is found. The corpus is copied to a temp dir first (the
 * engine writes its caches beside what it reads).
 */
import { existsSync } from 'node:fs'
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engineStateSchema } from '../../shared/ipc-contract.ts'
import { doctorOutputSchema, sessionsOutputSchema } from '../../shared/schemas/cli.ts'
import { findActiveCharacter } from '../../shared/text.ts'
import { createNaviEnv, runNavi, type NaviEnv } from '../support/navi-cli.ts'

const CORPUS = process.env.NAVI_CORPUS ?? resolve(import.meta.dirname, '../../../shared/corpus')
const hasCorpus = existsSync(join(CORPUS, 'claude', 'projects'))
const DAY = 24 * 3600_000

let root: string
let env: NaviEnv

beforeAll(async () => {
  if (!hasCorpus) return
  root = await mkdtemp(join(tmpdir(), 'navi-corpus-'))
  await cp(join(CORPUS, 'claude'), join(root, 'claude'), { recursive: true })
  await cp(join(CORPUS, 'codex'), join(root, 'codex'), { recursive: true })
  env = await createNaviEnv({
    CLAUDE_CONFIG_DIR: join(root, 'claude'),
    CODEX_HOME: join(root, 'codex'),
  })
})

afterAll(async () => {
  if (!hasCorpus) return
  await rm(root, { recursive: true, force: true })
  await rm(env.NAVI_HOME, { recursive: true, force: true })
})

/** Lines of a JSONL file that parse, read here independently of Navi's folds. */
async function jsonLines(file: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = []
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    try {
      const value: unknown = JSON.parse(line)
      if (value && typeof value === 'object') out.push(value as Record<string, unknown>)
    } catch {
      // not a line of JSON
    }
  }
  return out
}

/** Session ids of the main transcripts and rollouts that name a cwd: what must become sessions. */
async function expectedSessions(): Promise<Set<string>> {
  const ids = new Set<string>()
  const projects = join(root, 'claude', 'projects')
  for (const dir of await readdir(projects)) {
    for (const entry of await readdir(join(projects, dir), { withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.jsonl') || entry.name.startsWith('agent-'))
        continue
      const lines = await jsonLines(join(projects, dir, entry.name))
      if (lines.some((l) => typeof l.cwd === 'string' && l.isSidechain !== true)) {
        ids.add(entry.name.slice(0, -'.jsonl'.length))
      }
    }
  }
  const sessions = join(root, 'codex', 'sessions')
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.name.startsWith('rollout-') && entry.name.endsWith('.jsonl')) {
        for (const line of await jsonLines(path)) {
          const payload = line.payload as Record<string, unknown> | undefined
          if (
            line.type === 'session_meta' &&
            typeof payload?.id === 'string' &&
            typeof payload.cwd === 'string'
          ) {
            ids.add(payload.id)
          }
        }
      }
    }
  }
  await walk(sessions)
  return ids
}

describe.skipIf(!hasCorpus)(
  'the corpus of real Claude Code and Codex files (needs ../shared/corpus)',
  () => {
    it('finds every real session, flags no real line as damaged, and keeps every value in bounds', async () => {
      const sessionsRun = await runNavi(['sessions', '--all', '--json'], env)
      expect(sessionsRun.exitCode, sessionsRun.stderr).toBe(0)
      const { sessions } = sessionsOutputSchema.parse(sessionsRun.json)
      expect(new Set(sessions.map((s) => s.id))).toEqual(await expectedSessions())

      const now = Date.now()
      for (const session of sessions) {
        for (const value of Object.values(session.tokens))
          expect(Number.isSafeInteger(value)).toBe(true)
        for (const at of [session.started_at, session.last_activity]) {
          if (at === null) continue
          const ms = Date.parse(at)
          expect(ms, `${session.id} ${at}`).toBeGreaterThan(Date.UTC(2020, 0, 1))
          expect(ms, `${session.id} ${at}`).toBeLessThanOrEqual(now + DAY)
        }
        expect(session.last_prompt?.length ?? 0).toBeLessThanOrEqual(2001)
      }
      expect(sessions.reduce((sum, s) => sum + s.tokens.total, 0)).toBeGreaterThan(0)

      const doctor = doctorOutputSchema.parse((await runNavi(['doctor', '--json'], env)).json)
      expect(doctor.notes).toEqual([])
      expect(Object.values(doctor.corrupt_lines).every((n) => n === 0)).toBe(true)
      const status = engineStateSchema.parse((await runNavi(['status', '--json'], env)).json)
      expect(status.errors).toEqual([])
    })

    it('prints every human view of it inert', async () => {
      for (const args of [['status'], ['sessions', '--all'], ['doctor'], ['events']]) {
        const run = await runNavi(args, env)
        expect(run.exitCode, run.stderr).toBe(0)
        expect(findActiveCharacter(run.stdout + run.stderr)).toBe(-1)
      }
    })
  },
)
