/**
 * `runPm` against the real `claude` (pinned 2.1.197) and the scripted API: what the CLI was asked
 * (recorded requests), what it did (files), and how Navi survives rate limits, overloads, hangs,
 * answers without a briefing, a lost session and a missing binary.
 */
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isPidAlive } from '../../electron/engine/adapters/process.ts'
import { naviFiles } from '../../electron/engine/core/paths.ts'
import { CLAUDE_INSTALL_HINT } from '../../electron/pm/find-claude.ts'
import { writeCachedBriefing } from '../../electron/pm/run-state-files.ts'
import { createEngine } from '../../electron/engine/index.ts'
import { transcriptPath } from '../support/claude-driver.ts'
import {
  cachedBriefingSchema,
  pmUsageSchema,
  type CachedBriefing,
  type PmRunStatus,
} from '../../shared/schemas/briefing.ts'
import {
  sampleOutput,
  setUpPm,
  SHORT_TERM,
  SYSTEM_PROMPT_MARKER,
  toolNames,
  USER_CLAUDE_MD_MARKER,
  type PmFixture,
} from '../support/pm-invoke-fixture.ts'
import { httpError, structured, text, toolUse } from '../support/scripted-api.ts'

const scripted = (pm: PmFixture) => pm.api.requests.filter((r) => r.route === 'scripted')

async function usageLines(pm: PmFixture) {
  const file = naviFiles(pm.paths).usageLog
  if (!existsSync(file)) return []
  const text = await readFile(file, 'utf8')
  return text
    .trim()
    .split('\n')
    .map((l) => pmUsageSchema.parse(JSON.parse(l)))
}

async function seedCache(pm: PmFixture): Promise<CachedBriefing> {
  const cached: CachedBriefing = {
    output: cachedBriefingSchema.shape.output.parse(sampleOutput('Yesterday: all quiet.')),
    generated_at: '2026-11-21T09:00:00.000Z',
    trigger: 'commit',
  }
  await writeCachedBriefing(naviFiles(pm.paths).lastOutput, cached)
  return cached
}

describe('runPm with the real claude', () => {
  it('first run: reads and rewrites short-term memory, returns and caches the briefing', async () => {
    const pm = await setUpPm()
    const shortTerm = join(pm.memoryDir, 'short-term.md')
    const newMemory = '# Short-Term Memory\n\n- navi: PM invocation landed.\n'
    const output = sampleOutput()
    pm.api.enqueue(
      toolUse('Read', { file_path: shortTerm }),
      toolUse('Write', { file_path: shortTerm, content: newMemory }),
      structured(output),
    )
    const statuses: PmRunStatus[] = []
    const inbox = { timestamp: '2026-11-22T10:00:00Z', trigger: 'commit', marker: 'INBOX-MARKER-1' }

    const result = await pm.run({ trigger: 'commit', inbox, onStatus: (s) => statuses.push(s) })

    expect(result.state).toMatchObject({ is_stale: false, error: null, claude_missing: null })
    expect(result.ok).toBe(true)
    expect(result.state.briefing?.output).toEqual(output)
    expect(result.state.briefing?.trigger).toBe('commit')
    const onDisk = cachedBriefingSchema.parse(
      JSON.parse(await readFile(naviFiles(pm.paths).lastOutput, 'utf8')),
    )
    expect(onDisk).toEqual(result.state.briefing)
    expect(await readFile(shortTerm, 'utf8')).toBe(newMemory)
    expect(newMemory).not.toBe(SHORT_TERM)

    const requests = scripted(pm)
    expect(requests).toHaveLength(3)
    const first = requests[0]?.body
    expect(toolNames(first)).toEqual(['Edit', 'Read', 'StructuredOutput', 'Write'])
    const everything = JSON.stringify(pm.api.requests.map((r) => r.body))
    expect(JSON.stringify(first)).toContain(SYSTEM_PROMPT_MARKER)
    // The inbox arrived as the prompt (through stdin), the user's CLAUDE.md did not.
    expect(JSON.stringify(first)).toContain('INBOX-MARKER-1')
    expect(everything).not.toContain(USER_CLAUDE_MD_MARKER)
    expect(JSON.stringify(first)).toMatch(/"model":"[^"]*sonnet/)
    // The Read really returned the old memory to the model.
    const readResult = pm.api.toolResults()[0]
    expect(String(JSON.stringify(readResult?.content))).toContain('No prior context')
    // The user's hooks never ran.
    for (const marker of pm.hookMarkers) expect(existsSync(marker)).toBe(false)

    expect(statuses.map((s) => s.phase)).toEqual([
      'starting',
      'starting',
      'reading_memory',
      'writing_memory',
      'thinking',
      'done',
    ])
    expect(statuses[2]?.detail).toBe(shortTerm)
    expect(statuses.every((s) => s.trigger === 'commit')).toBe(true)

    const usage = await usageLines(pm)
    expect(usage).toHaveLength(1)
    // 3 model requests; the CLI counts the StructuredOutput call that ends the run as one more turn.
    expect(usage[0]).toMatchObject({ trigger: 'commit', ok: true, num_turns: 4 })
    expect(usage[0]?.input_tokens).toBeGreaterThan(0)
    expect(usage[0]?.cost_usd).toBeGreaterThan(0)
    expect(result.attempts).toHaveLength(1)
    expect(result.denials).toEqual([])
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    // A fresh run leaves no transcript behind (--no-session-persistence).
    expect(existsSync(join(pm.claudeEnv.CLAUDE_CONFIG_DIR, 'projects'))).toBe(false)
  })

  it.skipIf(!existsSync('/proc/self/environ'))(
    'the CLI process gets the minimal environment and the inbox only on stdin',
    async () => {
      const pm = await setUpPm()
      // The reply waits until the process's environment and command line are read.
      let read = false
      pm.api.enqueue(structured(sampleOutput(), { holdUntil: () => read }))
      let pid = 0
      const running = pm.run({
        trigger: 'on_demand',
        inbox: { marker: 'INBOX-ON-STDIN-ONLY' },
        onSpawn: (p) => (pid = p),
      })
      await pm.api.waitForRequest((r) => r.route === 'scripted', 30_000)
      const environ = (await readFile(`/proc/${String(pid)}/environ`, 'utf8')).split('\0')
      const cmdline = await readFile(`/proc/${String(pid)}/cmdline`, 'utf8')
      read = true
      const result = await running
      expect(result.ok).toBe(true)

      const env = Object.fromEntries(
        environ
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      )
      expect(env).toMatchObject({
        ANTHROPIC_BASE_URL: pm.api.url,
        ANTHROPIC_API_KEY: 'sk-test',
        CLAUDE_CONFIG_DIR: pm.claudeEnv.CLAUDE_CONFIG_DIR,
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_MAX_RETRIES: '1',
      })
      expect(Object.keys(pm.env)).toContain('GITHUB_TOKEN')
      for (const leaked of [
        'GITHUB_TOKEN',
        'AWS_SECRET_ACCESS_KEY',
        'DISABLE_TELEMETRY',
        'SHELL',
      ]) {
        expect(env[leaked], leaked).toBeUndefined()
      }
      expect(cmdline).toContain('--json-schema')
      expect(cmdline).not.toContain('INBOX-ON-STDIN-ONLY')
      expect(JSON.stringify(scripted(pm)[0]?.body)).toContain('INBOX-ON-STDIN-ONLY')
    },
  )

  it('429 twice then success: the CLI retries once, Navi once after 1 s, a fresh briefing', async () => {
    const pm = await setUpPm()
    await seedCache(pm)
    pm.api.enqueue(httpError(429), httpError(429), structured(sampleOutput('Fresh after 429s.')))

    const result = await pm.run({ trigger: 'commit' })

    expect(result.ok).toBe(true)
    expect(result.state).toMatchObject({ is_stale: false, error: null })
    expect(result.state.briefing?.output.briefing).toBe('Fresh after 429s.')
    expect(result.attempts.map((a) => [a.ok, a.retryable])).toEqual([
      [false, true],
      [true, false],
    ])
    expect(result.attempts[0]?.error).toContain('429')
    const requests = scripted(pm)
    expect(requests).toHaveLength(3)
    // Navi's 1 s pause (plus a CLI start) separates its two attempts.
    const gap = (requests[2]?.receivedAt ?? 0) - (requests[1]?.receivedAt ?? 0)
    expect(gap).toBeGreaterThanOrEqual(1000)
    expect((await usageLines(pm)).map((u) => u.ok)).toEqual([false, true])
    const cached = cachedBriefingSchema.parse(
      JSON.parse(await readFile(naviFiles(pm.paths).lastOutput, 'utf8')),
    )
    expect(cached.output.briefing).toBe('Fresh after 429s.')
  })

  it('persistent 529: four attempts, then the cached briefing marked stale', async () => {
    const pm = await setUpPm()
    const cached = await seedCache(pm)
    const before = await readFile(naviFiles(pm.paths).lastOutput, 'utf8')
    pm.api.enqueue(...Array.from({ length: 12 }, () => httpError(529)))

    const result = await pm.run({ trigger: 'commit', retryDelaysMs: [100, 200, 400] })

    expect(result.ok).toBe(false)
    expect(result.state.briefing).toEqual(cached)
    expect(result.state.is_stale).toBe(true)
    expect(result.state.error).toContain('529')
    expect(result.attempts).toHaveLength(4)
    expect(result.attempts.every((a) => a.retryable)).toBe(true)
    // CLAUDE_CODE_MAX_RETRIES=1: two requests per attempt, not eleven.
    expect(scripted(pm)).toHaveLength(8)
    expect(await readFile(naviFiles(pm.paths).lastOutput, 'utf8')).toBe(before)
    expect((await usageLines(pm)).map((u) => u.ok)).toEqual([false, false, false, false])
  })

  it('a hung CLI is killed at the timeout, its pid is gone, the cache is returned', async () => {
    const pm = await setUpPm()
    const cached = await seedCache(pm)
    pm.api.enqueue(text('never arrives in time', { delayMs: 60_000 }))
    let pid = 0
    const started = Date.now()

    const result = await pm.run({
      trigger: 'on_demand',
      timeoutMs: 3000,
      onSpawn: (p) => (pid = p),
    })

    expect(Date.now() - started).toBeLessThan(15_000)
    expect(result.ok).toBe(false)
    expect(result.attempts).toHaveLength(1)
    expect(result.attempts[0]).toMatchObject({ timedOut: true, retryable: false, pid })
    expect(result.state).toMatchObject({ briefing: cached, is_stale: true })
    expect(result.state.error).toMatch(/did not finish within 3000 ms/)
    expect(pid).toBeGreaterThan(0)
    // Reaped, not a zombie: kill(pid, 0) would still succeed on a zombie.
    expect(isPidAlive(pid)).toBe(false)
    expect(existsSync(`/proc/${String(pid)}`)).toBe(false)
    expect(scripted(pm)).toHaveLength(1)
  })

  it('text without StructuredOutput, after the enforce message: a failure, not a crash', async () => {
    const pm = await setUpPm()
    pm.api.enqueue(text('All projects look fine today.'), text('Really, all fine.'))

    const result = await pm.run({ trigger: 'commit' })

    expect(result.ok).toBe(false)
    expect(result.state).toMatchObject({ briefing: null, is_stale: false, claude_missing: null })
    expect(result.state.error).toMatch(/no briefing.*Really, all fine/)
    expect(JSON.stringify(scripted(pm)[1]?.body)).toContain('[structured-output-enforce]')
    expect(result.attempts).toHaveLength(1)
    expect(existsSync(naviFiles(pm.paths).lastOutput)).toBe(false)
    expect((await usageLines(pm)).map((u) => u.ok)).toEqual([false])
  })

  it('invalid JSON in the text is a failure; valid JSON in a fence is accepted', async () => {
    const pm = await setUpPm()
    pm.api.enqueue(text('```json\n{"briefing": "x", "projects": [}\n```'), text('{"briefing": '))
    const bad = await pm.run({ trigger: 'commit' })
    expect(bad.ok).toBe(false)
    expect(bad.state.error).toContain('no briefing')

    const fenced = sampleOutput('From a markdown fence.')
    pm.api.enqueue(text('Sure.'), text(`Here:\n\`\`\`json\n${JSON.stringify(fenced)}\n\`\`\``))
    const good = await pm.run({ trigger: 'commit' })
    expect(good.ok).toBe(true)
    expect(good.state.briefing?.output).toEqual(fenced)
  })

  it('a StructuredOutput violating the schema 5 times ends in a failure with the reason', async () => {
    const pm = await setUpPm()
    const bad = { ...sampleOutput(), projects: [{ name: 'navi', status: 'on_fire', summary: 's' }] }
    pm.api.enqueue(...Array.from({ length: 5 }, () => structured(bad)))

    const result = await pm.run({ trigger: 'commit' })

    expect(result.ok).toBe(false)
    expect(result.state.error).toContain(
      'Failed to provide valid structured output after 5 attempts',
    )
    expect(result.attempts).toHaveLength(1)
    expect(scripted(pm)).toHaveLength(5)
    const errors = pm.api.toolResults().map((r) => String(JSON.stringify(r.content)))
    expect(errors[0]).toContain('Output does not match required schema')
  })

  it('claude missing: NAVI_CLAUDE_BIN pointing nowhere, or nothing on PATH', async () => {
    const pm = await setUpPm()
    const cached = await seedCache(pm)
    const wrong = join(pm.root, 'no-such-claude')
    const viaEnv = await pm.run({
      trigger: 'on_demand',
      claudeBin: undefined,
      env: { ...pm.env, NAVI_CLAUDE_BIN: wrong },
    })
    expect(viaEnv.ok).toBe(false)
    expect(viaEnv.state.briefing).toEqual(cached)
    expect(viaEnv.state.is_stale).toBe(true)
    expect(viaEnv.state.claude_missing).toContain(`NAVI_CLAUDE_BIN (${wrong})`)
    expect(viaEnv.state.claude_missing).toContain('npm install -g @anthropic-ai/claude-code')

    const systemHasClaude = ['/usr/local/bin/claude', '/opt/homebrew/bin/claude'].some(existsSync)
    if (!systemHasClaude) {
      const bare = await pm.run({
        trigger: 'on_demand',
        claudeBin: undefined,
        env: { ...pm.env, PATH: '/usr/bin:/bin', HOME: pm.root },
      })
      expect(bare.state.claude_missing).toBe(CLAUDE_INSTALL_HINT)
    }
    expect(pm.api.requests).toHaveLength(0)
    expect(viaEnv.attempts).toEqual([])
  })

  it('resume mode: keeps the session id, resumes it, and starts afresh when it is gone', async () => {
    const pm = await setUpPm()
    const sessionFile = naviFiles(pm.paths).pmSessionId
    pm.api.enqueue(structured(sampleOutput('first')))
    const first = await pm.run({ trigger: 'initialization', resume: true, inbox: 'INBOX-ONE' })
    expect(first.ok).toBe(true)
    const id = (await readFile(sessionFile, 'utf8')).trim()
    expect(id).toBe(first.sessionId)

    pm.api.enqueue(structured(sampleOutput('second')))
    const second = await pm.run({ trigger: 'commit', resume: true, inbox: 'INBOX-TWO' })
    expect(second.ok).toBe(true)
    expect(second.sessionId).toBe(id)
    expect(second.attempts[0]?.resumed).toBe(true)
    // The resumed request carries the first conversation.
    const resumed = JSON.stringify(scripted(pm)[1]?.body)
    expect(resumed).toContain('INBOX-ONE')
    expect(resumed).toContain('INBOX-TWO')

    const lost = '11111111-2222-3333-4444-555555555555'
    await writeFile(sessionFile, `${lost}\n`)
    pm.api.enqueue(structured(sampleOutput('third')))
    const third = await pm.run({ trigger: 'commit', resume: true, inbox: 'INBOX-THREE' })
    expect(third.ok).toBe(true)
    expect(third.state.briefing?.output.briefing).toBe('third')
    expect(third.attempts.map((a) => [a.resumed, a.ok])).toEqual([
      [true, false],
      [false, true],
    ])
    expect(third.attempts[0]?.error).toContain('No conversation found')
    const newId = (await readFile(sessionFile, 'utf8')).trim()
    expect(newId).toBe(third.sessionId)
    expect(newId).not.toBe(lost)
    expect(JSON.stringify(scripted(pm)[2]?.body)).not.toContain('INBOX-ONE')

    // Resumed runs keep real transcripts in the user's config dir, yet Navi's own PM is never shown as
    // one of the user's sessions or projects.
    expect(existsSync(transcriptPath(pm.paths.claudeConfigDir, pm.pmDir, newId))).toBe(true)
    const engine = createEngine({ paths: pm.paths, watch: false })
    try {
      const state = await engine.refresh({ force: true })
      expect(engine.getSessions().filter((s) => s.cwd.startsWith(pm.paths.naviHome))).toEqual([])
      expect(state.projects.filter((p) => p.project_dir.startsWith(pm.paths.naviHome))).toEqual([])
    } finally {
      await engine.stop()
    }
  })
})

describe('runPm without a PM directory', () => {
  it('fails with a clear error instead of starting claude', async () => {
    const pm = await setUpPm()
    const result = await pm.run({
      trigger: 'commit',
      paths: { ...pm.paths, naviHome: join(pm.root, 'elsewhere') },
    })
    expect(result.ok).toBe(false)
    expect(result.state.error).toContain('PM directory is not set up')
    expect(pm.api.requests).toHaveLength(0)
  })
})
