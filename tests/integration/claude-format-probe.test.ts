/**
 * The format probe: runs the claude under test once in print mode (users' defaults, Navi's hooks
 * installed, the reply held back a moment so the run can be looked at) and records what it writes —
 * transcript line types, attachment types, live-file keys, hook events — and what `claude agents --json`
 * (the documented way to read session state from outside) says meanwhile. Anything Navi does not know
 * (tests/support/claude-known-formats.ts) fails the probe, and the live file must agree with
 * `claude agents --json` on what Navi reads. The record goes to test-results/claude-formats-<version>.json,
 * with the probe's duration.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { installHooks } from '../../electron/engine/adapters/hooks-install.ts'
import {
  claudeBinary,
  createClaudeEnv,
  disposeClaudeEnv,
  hermeticBaseEnv,
  readJsonl,
  runClaudePrint,
  testedClaudeVersion,
  transcriptPath,
} from '../support/claude-driver.ts'
import {
  AGENTS_JSON_KEYS,
  ATTACHMENT_TYPES,
  LIVE_FILE_KEYS,
  TRANSCRIPT_LINE_TYPES,
} from '../support/claude-known-formats.ts'
import { createNaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture } from '../support/repo-fixture.ts'
import { startScriptedApi, text } from '../support/scripted-api.ts'
import { waitUntil } from '../support/wait.ts'
import { drainedHookLines } from '../support/hook-lines.ts'

type Json = Record<string, unknown>
const unknown = (seen: Iterable<string>, known: readonly string[]) =>
  [...new Set(seen)].filter((x) => !known.includes(x)).sort()

describe('claude format probe (real CLI, scripted API)', () => {
  it('writes nothing Navi does not know, and its live file agrees with `claude agents --json`', async () => {
    const started = Date.now()
    const repo = await createRepoFixture({ prefix: 'probe-' })
    const api = await startScriptedApi()
    const env = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [repo.dir] })
    const navi = await createNaviEnv({ CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR })
    try {
      await installHooks({
        naviHome: navi.NAVI_HOME,
        claudeConfigDir: env.CLAUDE_CONFIG_DIR,
        codexHome: navi.CODEX_HOME,
      })
      env.NAVI_HOME = navi.NAVI_HOME
      // Held back until the live file is read and `claude agents --json` was asked mid-run.
      let asked = false
      api.enqueue(text('probe reply', { holdUntil: () => asked }))
      const run = runClaudePrint({
        cwd: repo.dir,
        env,
        prompt: 'probe',
        args: ['--output-format', 'json'],
        timeoutMs: 60_000,
      })
      const sessionsDir = join(env.CLAUDE_CONFIG_DIR, 'sessions')
      const live = await waitUntil(
        async () => {
          const names = await readdir(sessionsDir).catch(() => [] as string[])
          const file = names.find((n) => /^\d+\.json$/.test(n))
          const read = file
            ? (JSON.parse(await readFile(join(sessionsDir, file), 'utf8')) as Json)
            : null
          // Once the run is under way (the reply is held back): a file still saying `idle` from
          // its first moment would be compared with `claude agents --json` asked a moment later.
          return read && (read.status === undefined || read.status === 'busy') ? read : null
        },
        20_000,
        'a live session file of the running prompt',
      )
      const agents = await execa(claudeBinary(), ['agents', '--json'], {
        cwd: repo.dir,
        env: { ...hermeticBaseEnv(), ...env },
        extendEnv: false,
        timeout: 30_000,
        reject: false,
      })
      asked = true
      const result = await run
      expect(result.exitCode, result.stderr).toBe(0)
      const sessionId = (result.json as { session_id: string }).session_id

      const lines = (await readJsonl(
        transcriptPath(env.CLAUDE_CONFIG_DIR, repo.dir, sessionId),
      )) as Json[]
      const lineTypes = lines.map((l) => String(l.type))
      const attachmentTypes = lines.flatMap((l) =>
        l.type === 'attachment' ? [String((l.attachment as Json | undefined)?.type)] : [],
      )
      const hookLines = (await drainedHookLines(navi.NAVI_HOME)) as Json[]
      const listed = (JSON.parse(agents.stdout || '[]') as Json[]).find(
        (a) => a.sessionId === sessionId,
      )
      const record = {
        version: testedClaudeVersion(),
        probe_ms: Date.now() - started,
        transcript_line_types: [...new Set(lineTypes)].sort(),
        attachment_types: [...new Set(attachmentTypes)].sort(),
        live_file_keys: Object.keys(live).sort(),
        agents_json_keys: listed ? Object.keys(listed).sort() : null,
        hook_events: [...new Set(hookLines.map((h) => String(h.hook_event_name)))].sort(),
      }
      await mkdir('test-results', { recursive: true })
      await writeFile(
        join('test-results', `claude-formats-${record.version}.json`),
        `${JSON.stringify(record, null, 2)}\n`,
      )

      const knownTypes = [...TRANSCRIPT_LINE_TYPES.read, ...TRANSCRIPT_LINE_TYPES.ignored]
      expect(unknown(lineTypes, knownTypes), 'new transcript line types').toEqual([])
      expect(unknown(attachmentTypes, ATTACHMENT_TYPES), 'new attachment types').toEqual([])
      const knownKeys = [...LIVE_FILE_KEYS.read, ...LIVE_FILE_KEYS.ignored]
      expect(unknown(Object.keys(live), knownKeys), 'new live-file keys').toEqual([])
      // What Navi needs from each: the prompt and the reply in the transcript, the session in the live file.
      expect(lineTypes).toEqual(expect.arrayContaining(['user', 'assistant']))
      expect(live).toMatchObject({ sessionId, cwd: repo.dir })
      expect(typeof live.pid).toBe('number')
      expect(record.hook_events).toEqual(
        expect.arrayContaining(['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd']),
      )
      // The supported surface lists the run with the same identity the live file gives it.
      expect(agents.exitCode, agents.stderr).toBe(0)
      expect(listed, agents.stdout).toMatchObject({ pid: live.pid, cwd: live.cwd, sessionId })
      expect(
        unknown(Object.keys(listed ?? {}), AGENTS_JSON_KEYS),
        'new agents --json keys',
      ).toEqual([])
      if (live.status !== undefined) expect(listed?.status).toBe(live.status)
    } finally {
      await api.close()
      await disposeClaudeEnv(env)
      await repo.cleanup()
      await rm(navi.NAVI_HOME, { recursive: true, force: true })
    }
  })
})
