/**
 * What a warm start of the built `navi` loads: a command run again over files it already indexed
 * believes its cache files by their stamps (core/file-stamp.ts) and hashes nothing, so it never loads
 * `node:crypto` (~3 ms of every command, with the ciphers and streams it brings). The first command, which
 * writes the index, the snapshots and their hashes, loads it: the probe sees a module when it is loaded.
 * Nor does it make Node's stdout stream (electron/cli/output.ts writes to the descriptor), nor hash an
 * event log its marker names as it still stands (adapters/event-log-verified.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEventLog } from '../../electron/engine/adapters/event-log.ts'
import { engineEventSchema, type EngineEvent } from '../../shared/schemas/event.ts'
import { createNaviEnv, type NaviEnv } from '../support/navi-cli.ts'
import { bundleNaviForTest } from '../support/node-bundle.ts'
import { useTempDirs } from '../support/temp-paths.ts'

let bundle: Awaited<ReturnType<typeof bundleNaviForTest>>
const tempDir = useTempDirs('navi-warm-')

beforeAll(async () => {
  bundle = await bundleNaviForTest(`cli-warm-test-${process.pid}`)
})

afterAll(() => bundle?.dispose())

/** A session of a project folder, as Claude Code writes its transcript (two lines). */
function writeSession(env: NaviEnv, projectDir: string): void {
  const dir = join(env.CLAUDE_CONFIG_DIR, 'projects', projectDir.replaceAll('/', '-'))
  mkdirSync(dir, { recursive: true })
  const id = '6f1d2c3b-0000-4000-8000-000000000001'
  const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString()
  const lines = [
    {
      type: 'user',
      sessionId: id,
      cwd: projectDir,
      timestamp: at(120),
      message: { role: 'user', content: 'fix the parser' },
    },
    {
      type: 'assistant',
      sessionId: id,
      cwd: projectDir,
      timestamp: at(100),
      message: {
        id: 'msg_1',
        role: 'assistant',
        content: [{ type: 'text', text: 'fixed' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    },
  ]
  writeFileSync(join(dir, `${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`)
}

/** `count` commit events of the last hours, as the engine logs them. */
function commits(count: number): EngineEvent[] {
  return Array.from({ length: count }, (_, i) =>
    engineEventSchema.parse({
      id: `warm-${i}`,
      timestamp: new Date(Date.now() - (count - i) * 60_000).toISOString(),
      type: 'commit',
      project: 'warm',
      details: { sha: i.toString(16).padStart(40, '0'), message: `commit ${i}`, branch: 'main' },
    }),
  )
}

/** `count` sessions of about `mib` MiB each (long replies), as Claude Code writes them. */
function writeBigSessions(env: NaviEnv, projectDir: string, count: number, mib: number): void {
  const dir = join(env.CLAUDE_CONFIG_DIR, 'projects', projectDir.replaceAll('/', '-'))
  mkdirSync(dir, { recursive: true })
  const reply = 'x'.repeat(64 * 1024)
  for (let n = 0; n < count; n++) {
    const id = `6f1d2c3b-0000-4000-8000-${String(n).padStart(12, '0')}`
    const lines: string[] = []
    for (let i = 0; i * 64 < mib * 1024; i++) {
      const at = new Date(Date.now() - 300_000 + i * 1000).toISOString()
      const base = { sessionId: id, cwd: projectDir, timestamp: at }
      lines.push(
        JSON.stringify({
          ...base,
          type: 'user',
          message: { role: 'user', content: `step ${String(i)}` },
        }),
        JSON.stringify({
          ...base,
          type: 'assistant',
          message: {
            id: `msg_${String(n)}_${String(i)}`,
            role: 'assistant',
            content: [{ type: 'text', text: reply }],
            stop_reason: 'end_turn',
            usage: { input_tokens: 1, output_tokens: 2 },
          },
        }),
      )
    }
    writeFileSync(join(dir, `${id}.jsonl`), `${lines.join('\n')}\n`)
  }
}

/** `navi sessions --json`, and the built-in modules the process loaded beyond a bare `node`. */
async function sessionsLoading(
  env: NaviEnv,
  args: string[] = [],
): Promise<{ sessions: number; modules: string[]; workers: string[] }> {
  const { answer, ...seen } = await commandLoading(env, ['sessions', '--json', ...args])
  return { sessions: (answer as { sessions: unknown[] }).sessions.length, ...seen }
}

/** `navi <args>` (JSON out), and the built-in modules and worker scripts the process loaded. */
async function commandLoading(
  env: NaviEnv,
  args: string[],
): Promise<{ answer: unknown; modules: string[]; workers: string[] }> {
  const dir = tempDir()
  const listFile = join(dir, 'modules.json')
  const probe = join(dir, 'probe.cjs')
  // Also records the scripts of the worker threads the command starts (its fold workers).
  writeFileSync(
    probe,
    `const before = new Set(process.moduleLoadList)
const workers = []
const threads = require('worker_threads')
const Real = threads.Worker
threads.Worker = class extends Real { constructor(script, options) { workers.push(String(script)); super(script, options) } }
process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(listFile)},
  JSON.stringify({ modules: process.moduleLoadList.filter((m) => !before.has(m)), workers })))`,
  )
  const run = await execa('node', ['--require', probe, bundle.file, ...args], {
    env,
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  })
  expect(run.exitCode, String(run.stderr)).toBe(0)
  const seen = JSON.parse(readFileSync(listFile, 'utf8')) as {
    modules: string[]
    workers: string[]
  }
  return { answer: JSON.parse(String(run.stdout)), ...seen }
}

/** Navi's, Claude's and Codex's folders, each new and empty. */
const freshEnv = (): Promise<NaviEnv> =>
  createNaviEnv({ NAVI_HOME: tempDir(), CLAUDE_CONFIG_DIR: tempDir(), CODEX_HOME: tempDir() })

describe('a warm start of the built navi', () => {
  it('hashes nothing: node:crypto is loaded by the first command, not by the next', async () => {
    const env = await freshEnv()
    writeSession(env, tempDir())
    const first = await sessionsLoading(env)
    expect(first.sessions).toBe(1)
    expect(first.modules).toContain('NativeModule crypto')
    const warm = await sessionsLoading(env)
    expect(warm.sessions).toBe(1)
    expect(warm.modules.filter((m) => m.includes('crypto'))).toEqual([])
    // Its answer goes straight to the descriptor: no stdout stream (net, tty and streams, ~2 ms).
    expect(warm.modules.filter((m) => /^NativeModule (net|tty)$/.test(m))).toEqual([])

    // The event log too: a log its marker names as it still stands is read without a hash.
    const log = createEventLog(join(env.NAVI_HOME, 'pm', 'events.jsonl'))
    await log.append(commits(50))
    await log.close()
    const listed = await commandLoading(env, ['events', '--json'])
    expect((listed.answer as { events: unknown[] }).events).toHaveLength(50)
    expect(listed.modules.filter((m) => m.includes('crypto'))).toEqual([])
  })
})

describe('a cold index of the built navi', () => {
  it('folds on its CommonJS fold workers, beside the command (40 MiB of new transcripts)', async () => {
    const env = await freshEnv()
    writeBigSessions(env, tempDir(), 8, 5)
    // --all: sessions no agent runs any more (these have no live process) are listed too.
    const cold = await sessionsLoading(env, ['--all'])
    expect(cold.sessions).toBe(8)
    // Two workers on this 2-core machine, one per core elsewhere (at most four): the bundle's .cjs each.
    expect(cold.workers.length).toBeGreaterThan(0)
    for (const script of cold.workers) expect(script).toMatch(/\/fold-worker\.cjs$/)
    // Nothing new the next time: no worker is started.
    expect((await sessionsLoading(env, ['--all'])).workers).toEqual([])
  })
})
