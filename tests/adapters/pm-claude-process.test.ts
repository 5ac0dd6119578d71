import { existsSync, realpathSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { descendantsOf, isPidAlive } from '../../electron/engine/adapters/process.ts'
import { runAgentProcess } from '../../electron/pm/agent-process.ts'
import {
  appendUsage,
  deleteSessionId,
  readCachedBriefing,
  readSessionId,
  writeCachedBriefing,
  writeSessionId,
} from '../../electron/pm/run-state-files.ts'
import { waitUntil } from '../support/wait.ts'

let root = ''
/** Processes a failing test may leave behind. */
const strays: number[] = []
beforeEach(async () => {
  root = realpathSync(await mkdtemp(join(tmpdir(), 'navi-claude-process-')))
})
afterEach(async () => {
  for (const pid of strays.splice(0)) if (isPidAlive(pid)) process.kill(pid, 'SIGKILL')
  await rm(root, { recursive: true, force: true })
})

async function script(name: string, body: string): Promise<string> {
  const file = join(root, name)
  await writeFile(file, `#!/bin/sh\n${body}\n`)
  await chmod(file, 0o755)
  return file
}

describe('runAgentProcess', () => {
  it("passes stdin, only the given env and the run's mark, and streams stdout lines", async () => {
    const bin = await script(
      'echoer',
      'read line; echo "{\\"got\\":\\"$line\\"}"; echo "secret=${GITHUB_TOKEN:-none} mine=$MINE run=$NAVI_AGENT_RUN"',
    )
    const lines: string[] = []
    const res = await runAgentProcess({
      bin,
      args: [],
      cwd: root,
      env: { PATH: '/usr/bin:/bin', MINE: 'yes' },
      runId: 'run-7',
      input: 'inbox-text\n',
      timeoutMs: 10_000,
      onLine: (l) => lines.push(l),
    })
    expect(res).toMatchObject({ exitCode: 0, timedOut: false, spawnError: null })
    expect(lines).toEqual(['{"got":"inbox-text"}', 'secret=none mine=yes run=run-7'])
    expect(res.stdout).toContain('{"got":"inbox-text"}')
  })

  it('kills the whole process group at the timeout: no child survives', async () => {
    const childPidFile = join(root, 'child.pid')
    const bin = await script(
      'hang',
      `trap '' TERM; sleep 60 & echo $! > ${childPidFile}; echo started; wait`,
    )
    let pid = 0
    const started = Date.now()
    const res = await runAgentProcess({
      bin,
      args: [],
      cwd: root,
      env: { PATH: '/usr/bin:/bin' },
      input: '',
      // Long enough for a loaded machine to start the shell and reach its trap before the SIGTERM.
      timeoutMs: 3000,
      killGraceMs: 500,
      onSpawn: (p) => (pid = p),
    })
    expect(res.timedOut).toBe(true)
    // Both ignore SIGTERM: only the SIGKILL to the group after the grace period ends them.
    expect(res.signal).toBe('SIGKILL')
    expect(Date.now() - started).toBeGreaterThanOrEqual(3400)
    expect(Date.now() - started).toBeLessThan(20_000)
    const childPid = Number((await readFile(childPidFile, 'utf8')).trim())
    expect(childPid).toBeGreaterThan(0)
    expect(pid).toBe(res.pid)
    expect(isPidAlive(pid)).toBe(false)
    await waitUntil(() => !isPidAlive(childPid), 5000, `child ${childPid} to be gone`)
  })

  /** An agent that starts `sleep` in a session of its own, its pid in `pidFile`, then waits. */
  const spawner = (pidFile: string, daemonise: boolean) =>
    script(
      'spawner',
      daemonise
        ? // The subshell exits at once: the sleep is re-parented, out of the agent's process tree.
          `(setsid sleep 300 >/dev/null 2>&1 & echo $! > ${pidFile}); echo started; sleep 300`
        : `setsid sleep 300 >/dev/null 2>&1 & echo $! > ${pidFile}; echo started; wait`,
    )

  /**
   * Runs `bin` as an agent and cancels it: once `ready` (given the agent's pid) resolves, or else at its
   * "started" line.
   */
  function runThenCancel(
    bin: string,
    opts: {
      killGraceMs?: number
      log?: { error(m: string): void }
      ready?: (pid: number) => Promise<void>
    } = {},
  ) {
    const abort = new AbortController()
    const { ready } = opts
    return runAgentProcess({
      bin,
      args: [],
      cwd: root,
      env: { PATH: '/usr/bin:/bin' },
      input: '',
      timeoutMs: 120_000,
      killGraceMs: opts.killGraceMs ?? 500,
      signal: abort.signal,
      log: opts.log,
      onSpawn: ready ? (pid) => void ready(pid).then(() => abort.abort()) : undefined,
      onLine: (line) => {
        if (!ready && line === 'started') abort.abort()
      },
    })
  }

  it.skipIf(!existsSync('/usr/bin/setsid'))(
    'a cancel also ends what the agent started that left its process tree (skipped without setsid)',
    async () => {
      const pidFile = join(root, 'daemon.pid')
      let daemon = 0
      let outsideTree = false
      const res = await runThenCancel(await spawner(pidFile, true), {
        ready: async (pid) => {
          await waitUntil(
            async () => {
              daemon = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim())
              if (daemon > 0) strays.push(daemon)
              return daemon > 0 && isPidAlive(daemon)
            },
            30_000,
            'the daemonised sleep',
          )
          // The case at hand: a listing of the agent's descendants no longer finds it.
          outsideTree = !descendantsOf(pid).includes(daemon)
        },
      })
      expect(res.cancelled).toBe(true)
      expect(outsideTree).toBe(true)
      await waitUntil(() => !isPidAlive(daemon), 10_000, `daemon ${daemon} to be gone`)
    },
  )

  it.skipIf(!existsSync('/usr/bin/setsid'))(
    'a ps that cannot run is logged, and the marked processes still end (skipped without setsid)',
    async () => {
      const pidFile = join(root, 'child.pid')
      const bin = await spawner(pidFile, false)
      const fakeBin = join(root, 'fake-bin')
      await script('ps', 'echo "ps: broken" >&2; exit 1')
      await mkdir(fakeBin)
      await rename(join(root, 'ps'), join(fakeBin, 'ps'))
      const errors: string[] = []
      const path = process.env.PATH
      process.env.PATH = `${fakeBin}:${path ?? ''}`
      let res: Awaited<ReturnType<typeof runAgentProcess>>
      try {
        res = await runThenCancel(bin, { log: { error: (m) => errors.push(m) } })
      } finally {
        process.env.PATH = path
      }
      expect(res.cancelled).toBe(true)
      expect(errors.join('\n')).toMatch(/ps could not list the processes/)
      const child = Number((await readFile(pidFile, 'utf8')).trim())
      expect(child).toBeGreaterThan(0)
      strays.push(child)
      await waitUntil(() => !isPidAlive(child), 10_000, `child ${child} to be gone`)
    },
  )

  it.skipIf(!existsSync('/usr/bin/setsid'))(
    'what the agent left behind keeps its grace after a cancel: its TERM trap runs before any SIGKILL (skipped without setsid)',
    async () => {
      const pidFile = join(root, 'trapper.pid')
      const cleaned = join(root, 'cleaned')
      const trapper = `trap "sleep 0.3; echo done > ${cleaned}; exit 0" TERM; while :; do sleep 0.1; done`
      const bin = await script(
        'leaver',
        `setsid sh -c '${trapper}' >/dev/null 2>&1 & echo $! > ${pidFile}; echo started; sleep 300`,
      )
      // Long enough for the trap on a loaded machine; the SIGKILL would come after it.
      const res = await runThenCancel(bin, { killGraceMs: 10_000 })
      expect(res.cancelled).toBe(true)
      const trapperPid = Number((await readFile(pidFile, 'utf8')).trim())
      strays.push(trapperPid)
      await waitUntil(() => existsSync(cleaned), 9_000, 'the TERM trap to finish')
      await waitUntil(() => !isPidAlive(trapperPid), 10_000, `trapper ${trapperPid} to be gone`)
    },
  )

  it('reports a binary that cannot be started instead of throwing', async () => {
    const res = await runAgentProcess({
      bin: join(root, 'does-not-exist'),
      args: [],
      cwd: root,
      env: { PATH: '/usr/bin:/bin' },
      input: '',
      timeoutMs: 5000,
    })
    expect(res.spawnError).toMatch(/ENOENT|not found|no such file/i)
    expect(res.timedOut).toBe(false)
  })
})

describe('run files', () => {
  const cached = {
    output: {
      briefing: 'b',
      projects: [],
      attention_items: [],
      breadcrumbs: [],
      suggestions: [],
      patterns: [],
    },
    generated_at: '2026-11-22T10:00:00.000Z',
    trigger: 'commit' as const,
  }

  it('round-trips the cached briefing and reads a corrupt one as null', async () => {
    const file = join(root, 'pm', 'last-output.json')
    expect(await readCachedBriefing(file)).toBeNull()
    await writeCachedBriefing(file, cached)
    expect(await readCachedBriefing(file)).toEqual(cached)
    await writeFile(file, '{"output": {"briefing": 3}')
    expect(await readCachedBriefing(file)).toBeNull()
  })

  it('appends usage lines and keeps only a UUID as the session id', async () => {
    const usage = join(root, 'pm', 'usage.jsonl')
    const line = {
      timestamp: '2026-11-22T10:00:00.000Z',
      trigger: 'on_demand' as const,
      input_tokens: 1,
      output_tokens: 2,
      cost_usd: 0.1,
      duration_ms: 5,
      num_turns: 1,
      ok: true,
    }
    await appendUsage(usage, line)
    await appendUsage(usage, { ...line, ok: false })
    const lines = (await readFile(usage, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(lines).toEqual([line, { ...line, ok: false }])

    const sid = join(root, 'pm', 'session_id')
    expect(await readSessionId(sid)).toBeNull()
    await writeSessionId(sid, '11111111-2222-3333-4444-555555555555')
    expect(await readSessionId(sid)).toBe('11111111-2222-3333-4444-555555555555')
    await writeFile(sid, '--dangerous-flag\n')
    expect(await readSessionId(sid)).toBeNull()
    await deleteSessionId(sid)
    await deleteSessionId(sid)
    expect(await readSessionId(sid)).toBeNull()
  })
})
