/**
 * The Codex format probe: one real `codex exec` (a command, then an answer) against the scripted Responses
 * API, and every line type and payload type of the rollout it writes must be known to Navi
 * (tests/support/codex-known-formats.ts). The record goes to test-results/codex-formats-<version>.json.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  createCodexEnv,
  disposeCodexEnv,
  hasCodexBinary,
  listRollouts,
  runCodexExec,
} from '../support/codex-driver.ts'
import {
  CODEX_EVENT_TYPES,
  CODEX_ITEM_TYPES,
  CODEX_LINE_TYPES,
} from '../support/codex-known-formats.ts'
import { createRepoFixture } from '../support/repo-fixture.ts'
import {
  execCommand,
  startScriptedResponsesApi,
  textAnswer,
} from '../support/scripted-responses-api.ts'

type Json = Record<string, unknown>
const codexMissing = !hasCodexBinary()
const unknown = (seen: string[], known: readonly string[]) =>
  [...new Set(seen)].filter((x) => !known.includes(x)).sort()

describe.skipIf(codexMissing)(
  codexMissing ? 'codex format probe (skipped: the codex binary is missing)' : 'codex format probe',
  () => {
    it('writes no rollout line or payload type Navi does not know', async () => {
      const started = Date.now()
      const api = await startScriptedResponsesApi()
      const env = await createCodexEnv({ apiUrl: api.baseUrl })
      const repo = await createRepoFixture({ prefix: 'codex-probe-' })
      try {
        api.enqueue(execCommand('echo probe'), textAnswer('probe done'))
        const run = await runCodexExec({ cwd: repo.dir, env, prompt: 'probe', timeoutMs: 60_000 })
        expect(run.exitCode, run.stderr).toBe(0)
        const [rollout] = await listRollouts(env.CODEX_HOME)
        expect(rollout).toBeDefined()
        const lines = (await readFile(rollout ?? '', 'utf8'))
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as Json)
        const payloadType = (type: string) =>
          lines.flatMap((l) => (l.type === type ? [String((l.payload as Json).type)] : []))
        const meta = lines.find((l) => l.type === 'session_meta')?.payload as Json | undefined
        const record = {
          version: String(meta?.cli_version),
          probe_ms: Date.now() - started,
          line_types: [...new Set(lines.map((l) => String(l.type)))].sort(),
          event_types: [...new Set(payloadType('event_msg'))].sort(),
          item_types: [...new Set(payloadType('response_item'))].sort(),
          session_meta_keys: Object.keys(meta ?? {}).sort(),
        }
        await mkdir('test-results', { recursive: true })
        await writeFile(
          join('test-results', `codex-formats-${record.version}.json`),
          `${JSON.stringify(record, null, 2)}\n`,
        )
        const knownLines = [...CODEX_LINE_TYPES.read, ...CODEX_LINE_TYPES.ignored]
        expect(unknown(record.line_types, knownLines), 'new line types').toEqual([])
        const knownEvents = [...CODEX_EVENT_TYPES.read, ...CODEX_EVENT_TYPES.ignored]
        expect(unknown(record.event_types, knownEvents), 'new event_msg types').toEqual([])
        expect(unknown(record.item_types, CODEX_ITEM_TYPES), 'new response_item types').toEqual([])
        // What Navi needs: the thread and its cwd, turn bounds, the token count, and the prompt (an
        // exec rollout carries it as a user `message` item only, with no `user_message` event).
        expect(meta).toMatchObject({ cwd: repo.dir })
        expect(record.event_types).toEqual(
          expect.arrayContaining(['task_started', 'task_complete', 'token_count']),
        )
        expect(record.item_types).toContain('message')
      } finally {
        await api.close()
        await disposeCodexEnv(env)
        await repo.cleanup()
      }
    })
  },
)
