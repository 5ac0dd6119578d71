/**
 * Navi over the corpus of real files (../shared/corpus: Claude Code 1.0.24 to 2.1.114 and Codex, copied
 * from public repositories): the bounds on times, token counts and string lengths must not mistake any real
 * line for a damaged one, and every real session is found. The corpus is copied to a temp dir first (the
 * engine writes its caches beside what it reads).
 */
import { existsSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engineStateSchema } from '../../shared/schemas/state.ts'
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

interface ClaudeFile {
  /** The session it belongs to: its own name, its folder (2.1.x sub-agents), its lines' sessionId (2.0.x). */
  session: string
  main: boolean
  lines: Record<string, unknown>[]
}

/** Every Claude transcript of the corpus copy, main and sub-agent files, with the session each is part of. */
async function claudeFiles(): Promise<ClaudeFile[]> {
  const files: ClaudeFile[] = []
  const projects = join(root, 'claude', 'projects')
  for (const dir of await readdir(projects)) {
    for (const entry of await readdir(join(projects, dir), { withFileTypes: true })) {
      const path = join(projects, dir, entry.name)
      if (entry.isDirectory()) {
        const subagents = join(path, 'subagents')
        if (!existsSync(subagents)) continue
        for (const name of await readdir(subagents)) {
          if (!name.startsWith('agent-') || !name.endsWith('.jsonl')) continue
          const lines = await jsonLines(join(subagents, name))
          files.push({ session: entry.name, main: false, lines })
        }
      } else if (entry.name.endsWith('.jsonl')) {
        const lines = await jsonLines(path)
        const main = !entry.name.startsWith('agent-')
        const owner = lines.find((l) => typeof l.sessionId === 'string')?.sessionId
        const session = main ? entry.name.slice(0, -'.jsonl'.length) : owner
        if (typeof session === 'string') files.push({ session, main, lines })
      }
    }
  }
  return files
}

/**
 * Tokens per session, recomputed here: every assistant line of the session's files, one usage per
 * `message.id` (the last line of a response wins), all four counts summed.
 */
function expectedTokens(files: ClaudeFile[]): Map<string, number> {
  const totals = new Map<string, number>()
  for (const file of files) {
    const byMessage = new Map<string, number>()
    for (const line of file.lines) {
      const message = line.message as Record<string, unknown> | undefined
      const usage = message?.usage as Record<string, number> | undefined
      if (line.type !== 'assistant' || typeof message?.id !== 'string' || !usage) continue
      const count = (key: string) => (typeof usage[key] === 'number' ? usage[key] : 0)
      byMessage.set(
        message.id,
        count('input_tokens') +
          count('output_tokens') +
          count('cache_read_input_tokens') +
          count('cache_creation_input_tokens'),
      )
    }
    let sum = totals.get(file.session) ?? 0
    for (const value of byMessage.values()) sum += value
    totals.set(file.session, sum)
  }
  return totals
}

/** The main thread's conversation lines (what a user and the agent said), in order. */
const conversation = (file: ClaudeFile) =>
  file.lines.filter(
    (l) =>
      (l.type === 'user' || l.type === 'assistant') && l.isSidechain !== true && l.isMeta !== true,
  )

/** Sessions whose last conversation line is the agent's text reply with no tool call: a finished turn. */
function finishedSessions(files: ClaudeFile[]): Set<string> {
  const done = new Set<string>()
  for (const file of files.filter((f) => f.main)) {
    const last = conversation(file).at(-1)
    const content = (last?.message as { content?: unknown } | undefined)?.content
    if (last?.type !== 'assistant' || !Array.isArray(content)) continue
    const types = content.map((b: { type?: string }) => b.type)
    if (types.includes('text') && !types.includes('tool_use')) done.add(file.session)
  }
  return done
}

/** Session ids of the transcripts (main or sub-agent) and rollouts that name a cwd: what must become sessions. */
async function expectedSessions(): Promise<Set<string>> {
  const ids = new Set<string>()
  for (const file of await claudeFiles()) {
    if (file.lines.some((l) => typeof l.cwd === 'string')) ids.add(file.session)
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
        // No turn ends after the session's last activity (core/snapshot.ts turnActivity relies on it).
        for (const at of session.recent_turn_ends)
          expect(Date.parse(at), `${session.id} ${at}`).toBeLessThanOrEqual(
            Date.parse(session.last_activity ?? ''),
          )
      }
      expect(sessions.reduce((sum, s) => sum + s.tokens.total, 0)).toBeGreaterThan(0)

      const doctor = doctorOutputSchema.parse((await runNavi(['doctor', '--json'], env)).json)
      expect(doctor.notes).toEqual([])
      expect(Object.values(doctor.corrupt_lines).every((n) => n === 0)).toBe(true)
      const status = engineStateSchema.parse((await runNavi(['status', '--json'], env)).json)
      expect(status.errors).toEqual([])
    })

    it('agrees with a recomputation: tokens with sub-agents, finished turns, prompts, projects', async () => {
      const files = await claudeFiles()
      // Every session gets a live file naming a live process (this one), so that its status comes from
      // what its transcript says, as it would for a session still open in a terminal.
      const live = join(root, 'claude', 'sessions')
      await mkdir(live, { recursive: true })
      const ids = new Set(files.map((f) => f.session))
      let i = 0
      for (const sessionId of ids) {
        const cwd = files.find((f) => f.session === sessionId)?.lines.find((l) => l.cwd)?.cwd
        await writeFile(
          join(live, `${String(process.pid)}-${String(i++)}.json`),
          JSON.stringify({
            pid: process.pid,
            sessionId,
            cwd,
            startedAt: Date.now(),
            kind: 'interactive',
          }),
        )
      }
      const run = await runNavi(['sessions', '--all', '--json'], env)
      expect(run.exitCode, run.stderr).toBe(0)
      const sessions = sessionsOutputSchema
        .parse(run.json)
        .sessions.filter((s) => s.agent === 'claude')
      const byId = new Map(sessions.map((s) => [s.id, s]))

      const tokens = expectedTokens(files)
      const withContent = [...tokens].filter(([id, total]) => total > 0 && byId.has(id))
      expect(withContent.length).toBeGreaterThan(30)
      for (const [id, total] of withContent) expect(byId.get(id)?.tokens.total, id).toBe(total)
      // Sub-agent spend is shown apart as well: the corpus has both layouts.
      expect(sessions.filter((s) => s.subagent_tokens.total > 0).length).toBeGreaterThan(5)

      const finished = finishedSessions(files)
      expect(finished.size).toBeGreaterThan(10)
      const stillWorking = [...finished].filter((id) => byId.get(id)?.status === 'working')
      expect(stillWorking).toEqual([])

      for (const s of sessions) {
        const prompt = s.last_prompt ?? ''
        for (const notPrompt of [
          '<task-notification>',
          '<ide_',
          'Caveat:',
          '<local-command',
          '<bash-',
        ]) {
          expect(prompt.startsWith(notPrompt), `${s.id}: ${prompt.slice(0, 60)}`).toBe(false)
        }
      }

      // A cwd that is not absolute here names no directory of this machine: no project is the directory
      // Navi runs in (or above it), and such a session keeps its raw cwd.
      const here = process.cwd()
      for (const s of sessions) {
        expect(s.project_dir === null || !here.startsWith(s.project_dir), s.id).toBe(true)
        if (!s.cwd.startsWith('/')) expect(s.project_dir).toBe(s.cwd)
      }
      expect(sessions.some((s) => !s.cwd.startsWith('/'))).toBe(true)

      // The measured record of the run (README, "Measured").
      const report = {
        claude_sessions: sessions.length,
        with_tokens: withContent.length,
        token_parity: withContent.filter(([id, total]) => byId.get(id)?.tokens.total === total)
          .length,
        with_subagent_tokens: sessions.filter((s) => s.subagent_tokens.total > 0).length,
        finished_last_turns: finished.size,
        finished_reported_working: stillWorking.length,
        relative_cwd_sessions: sessions.filter((s) => !s.cwd.startsWith('/')).length,
      }
      await mkdir('test-results', { recursive: true })
      await writeFile(join('test-results', 'corpus.json'), `${JSON.stringify(report, null, 2)}\n`)
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
