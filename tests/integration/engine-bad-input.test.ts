/**
 * Acceptance: bad input never stops Navi. A real transcript with truncated, corrupt, unknown-type and
 * multi-megabyte lines, a stale live-session file, an invalid config.yaml, a cwd outside any repository, a
 * repository deleted while watched and a locked index: no crash, the other projects keep updating, and
 * `navi doctor` explains.
 */
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engineStateSchema } from '../../shared/schemas/state.ts'
import { doctorOutputSchema, sessionsOutputSchema } from '../../shared/schemas/cli.ts'
import {
  createClaudeEnv,
  disposeClaudeEnv,
  runClaudePrint,
  transcriptPath,
  type ClaudeEnv,
} from '../support/claude-driver.ts'
import { createNaviEnv, runNavi, type NaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture, type RepoFixture } from '../support/repo-fixture.ts'
import { startScriptedApi, text, type ScriptedApi } from '../support/scripted-api.ts'

let api: ScriptedApi
let claudeEnv: ClaudeEnv
let naviEnv: NaviEnv
let healthy: RepoFixture
let doomed: RepoFixture
let locked: RepoFixture
let loose: string

beforeAll(async () => {
  api = await startScriptedApi()
  healthy = await createRepoFixture({ prefix: 'healthy-' })
  doomed = await createRepoFixture({ prefix: 'doomed-' })
  locked = await createRepoFixture({ prefix: 'locked-' })
  loose = await mkdtemp(join(tmpdir(), 'loose-dir-'))
  claudeEnv = await createClaudeEnv({ apiUrl: api.url, trustedDirs: [healthy.dir, loose] })
  naviEnv = await createNaviEnv({ CLAUDE_CONFIG_DIR: claudeEnv.CLAUDE_CONFIG_DIR })
})

afterAll(async () => {
  await api?.close()
  await disposeClaudeEnv(claudeEnv)
  for (const repo of [healthy, doomed, locked]) await repo?.cleanup()
  for (const dir of [loose, naviEnv.NAVI_HOME, naviEnv.CODEX_HOME])
    await rm(dir, { recursive: true, force: true })
})

async function claude(cwd: string, reply: string): Promise<string> {
  api.enqueue(text(reply))
  const run = await runClaudePrint({
    cwd,
    env: claudeEnv,
    prompt: 'hi',
    args: ['--output-format', 'json'],
    timeoutMs: 60_000,
  })
  expect(run.exitCode, run.stderr).toBe(0)
  return (run.json as { session_id: string }).session_id
}

describe('bad input', () => {
  it('is skipped and counted, reported by doctor, and never stops the other projects', async () => {
    const config = join(naviEnv.NAVI_HOME, 'config.yaml')
    const registered = `projects:\n  - path: ${doomed.dir}\n  - path: ${locked.dir}\n`
    await writeFile(config, registered)
    const session = await claude(healthy.dir, 'healthy reply')
    const looseSession = await claude(loose, 'outside any repo')
    expect((await runNavi(['status'], naviEnv)).exitCode).toBe(0) // baseline with everything healthy

    // Corrupt the real transcript: a truncated line, garbage, an unknown type, a 3 MB line, a half-written tail.
    const transcript = transcriptPath(claudeEnv.CLAUDE_CONFIG_DIR, healthy.dir, session)
    const big = JSON.stringify({
      type: 'user',
      message: { role: 'user', content: 'x'.repeat(3_000_000) },
      timestamp: new Date().toISOString(),
      cwd: healthy.dir,
      sessionId: session,
    })
    await appendFile(
      transcript,
      `{"type":"assistant","message":{"id":"trunc\nnot json at all\n{"type":"brand-new-type","x":1}\n${big}\n{"type":"user","mess`,
    )
    // A stale live-session file that claims to wait on a permission: its pid is long gone.
    await mkdir(join(claudeEnv.CLAUDE_CONFIG_DIR, 'sessions'), { recursive: true })
    await writeFile(
      join(claudeEnv.CLAUDE_CONFIG_DIR, 'sessions', '999999.json'),
      JSON.stringify({
        pid: 999999,
        sessionId: 'stale-session',
        cwd: healthy.dir,
        startedAt: Date.now() - 60_000,
        procStart: '1',
        status: 'waiting',
        waitingFor: 'permission prompt',
        updatedAt: Date.now(),
        statusUpdatedAt: Date.now(),
      }),
    )
    // The repository disappears; another one has a stale index.lock.
    await rm(doomed.dir, { recursive: true, force: true })
    await writeFile(join(locked.dir, '.git', 'index.lock'), '')
    // The healthy project keeps changing.
    healthy.file('after.txt', 'after\n')
    const sha = await healthy.commit('still updating')

    const status = await runNavi(['status', '--json'], naviEnv)
    expect(status.exitCode, status.stderr).toBe(0)
    const state = engineStateSchema.parse(status.json)
    const healthyProject = state.projects.find((p) => p.project_dir === healthy.dir)
    expect(healthyProject?.head_sha).toBe(sha)
    expect(healthyProject?.sessions.map((s) => s.id)).toContain(session)
    const stale = healthyProject?.sessions.find((s) => s.id === 'stale-session')
    expect(stale?.status ?? 'ended').toBe('ended')
    expect(state.projects.find((p) => p.project_dir === loose)?.is_git).toBe(false)
    expect(state.projects.find((p) => p.project_dir === doomed.dir)?.errors.length).toBeGreaterThan(
      0,
    )
    const lockedProject = state.projects.find((p) => p.project_dir === locked.dir)
    expect(lockedProject?.head_sha ?? lockedProject?.errors[0]).toBeTruthy()

    const sessions = sessionsOutputSchema.parse(
      (await runNavi(['sessions', '--all', '--json'], naviEnv)).json,
    )
    expect(sessions.sessions.find((s) => s.id === looseSession)?.cwd).toBe(loose)

    const events = await readFile(join(naviEnv.NAVI_HOME, 'pm', 'events.jsonl'), 'utf8')
    expect(events).toContain(sha)

    const doctor = doctorOutputSchema.parse((await runNavi(['doctor', '--json'], naviEnv)).json)
    expect(doctor.corrupt_lines['claude transcripts']).toBeGreaterThanOrEqual(2)
    // The deleted repository is explained, with its path.
    expect(doctor.errors.some((e) => e.includes(doomed.dir))).toBe(true)

    // An invalid config (unknown key on line 4): defaults are used, the file is left alone.
    const invalid = `${registered}  - pth: /nowhere\n`
    await writeFile(config, invalid)
    const configBefore = await stat(config)
    const withBadConfig = await runNavi(['status', '--json'], naviEnv)
    expect(withBadConfig.exitCode).toBe(0)
    const badState = engineStateSchema.parse(withBadConfig.json)
    expect(badState.errors.join('\n')).toMatch(/config\.yaml:4/)
    expect(badState.projects.find((p) => p.project_dir === healthy.dir)?.head_sha).toBe(sha)
    const configCheck = doctorOutputSchema
      .parse((await runNavi(['doctor', '--json'], naviEnv)).json)
      .checks.find((c) => c.name === 'config')
    expect(configCheck?.ok).toBe(false)
    expect(configCheck?.detail).toMatch(/config\.yaml:4: .*pth/)
    // Navi never rewrites the user's config.
    expect(await readFile(config, 'utf8')).toBe(invalid)
    expect((await stat(config)).mtimeMs).toBe(configBefore.mtimeMs)
  }, 120_000) // two real claude runs and a dozen navi commands: slow on a crowded machine
})
