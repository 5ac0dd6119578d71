/**
 * A reader that goes away: `navi events | head -3`. Node ignores SIGPIPE, so the CLI's next write fails
 * with EPIPE; it used to die on an unhandled stream error with a stack trace. It now ends quietly with
 * 141, as `git log | head` does; a `navi watch` whose reader left stops, as on SIGTERM, at its next line.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEventLog } from '../../electron/engine/adapters/event-log.ts'
import { engineEventSchema, type EngineEvent } from '../../shared/schemas/event.ts'
import { createNaviEnv, runNavi, type NaviEnv } from '../support/navi-cli.ts'
import { createRepoFixture } from '../support/repo-fixture.ts'
import { waitUntil } from '../support/wait.ts'

const NAVI_BIN = resolve(import.meta.dirname, '../../bin/navi.cjs')
/** Far more text than a pipe holds (64 KiB), so writing it blocks until `head` has gone. */
const EVENTS = 3000

let env: NaviEnv

beforeAll(async () => {
  env = await createNaviEnv()
  await mkdir(join(env.NAVI_HOME, 'pm'), { recursive: true })
  const now = Date.now()
  const events: EngineEvent[] = []
  for (let i = 0; i < EVENTS; i++) {
    events.push(
      engineEventSchema.parse({
        id: `closed-output-${i}`,
        timestamp: new Date(now - (EVENTS - i) * 20_000).toISOString(),
        type: 'commit',
        project: `project-${i % 7}`,
        details: { sha: i.toString(16).padStart(40, '0'), message: `commit ${i}`, branch: 'main' },
      }),
    )
  }
  const log = createEventLog(join(env.NAVI_HOME, 'pm', 'events.jsonl'))
  await log.append(events)
  await log.close()
})

afterAll(async () => {
  await Promise.all(
    [env.NAVI_HOME, env.CLAUDE_CONFIG_DIR, env.CODEX_HOME].map((d) =>
      rm(d, { recursive: true, force: true }),
    ),
  )
})

/** Runs `node bin/navi.cjs <args> | head -n 2` in bash; returns navi's exit code, head's lines, navi's stderr. */
async function pipedIntoHead(args: string[]) {
  const script =
    'node "$NAVI_BIN" "$@" 2>"$NAVI_ERR" | head -n 2; echo "navi-exit=${PIPESTATUS[0]}"; cat "$NAVI_ERR"'
  // No rc file: bash reads ~/.bashrc when its stdin is a socket (execa's pipes are), and a developer's
  // .bashrc (a pyenv rehash waiting on a stale lock) once held this test for a minute.
  const result = await execa('bash', ['--norc', '--noprofile', '-c', script, 'navi', ...args], {
    env: { ...env, NAVI_BIN, NAVI_ERR: join(env.NAVI_HOME, 'stderr.txt') },
    extendEnv: false,
    reject: false,
    timeout: 90_000,
    stdin: 'ignore',
  })
  const out = String(result.stdout)
  const exit = /navi-exit=(\d+)/.exec(out)?.[1]
  const [head, stderr = ''] = out.split(/navi-exit=\d+\n?/)
  return { exitCode: exit === undefined ? undefined : Number(exit), head: head ?? '', stderr }
}

describe('a reader that goes away', () => {
  it('the whole log is printed when nobody leaves (the fixture is long enough to fill a pipe)', async () => {
    const all = await runNavi(['events'], env)
    expect(all.exitCode).toBe(0)
    expect(all.stdout.trim().split('\n')).toHaveLength(EVENTS)
    expect(Buffer.byteLength(all.stdout)).toBeGreaterThan(128 * 1024)
  })

  it('navi events | head -n 2: two lines, no stack trace, exit code 141', async () => {
    const piped = await pipedIntoHead(['events'])
    expect(piped.head.trim().split('\n')).toEqual([
      expect.stringContaining(`commit ${EVENTS - 1}`),
      expect.stringContaining(`commit ${EVENTS - 2}`),
    ])
    expect(piped.stderr).not.toMatch(/EPIPE|Unhandled|at .*\(node:/)
    expect(piped.exitCode).toBe(141)
  })

  it('navi watch --json whose reader leaves: it stops at its next line, cleanly, with 141', async () => {
    const repo = await createRepoFixture({ prefix: 'navi-closed-output-' })
    try {
      await writeFile(join(env.NAVI_HOME, 'config.yaml'), `projects:\n  - path: ${repo.dir}\n`)
      const watch = execa('node', [NAVI_BIN, 'watch', '--json', '--no-pm'], {
        env,
        extendEnv: false,
        reject: false,
        timeout: 90_000,
      })
      // Its progress goes to stderr; stdout carries only the events.
      let progress = ''
      watch.stderr.on('data', (chunk: Buffer) => (progress += chunk.toString('utf8')))
      await waitUntil(() => progress.includes('"ready":true'), 60_000, 'navi watch ready')
      // The reader goes away before the first event; a commit makes the next line.
      watch.stdout.destroy()
      await repo.commit('after the reader left', { 'left.txt': 'x' })
      const result = await watch
      expect(String(result.stderr)).not.toMatch(/EPIPE|Unhandled|at .*\(node:/)
      expect(String(result.stderr)).toContain('navi: stopping')
      expect(result.exitCode).toBe(141)
    } finally {
      await repo.cleanup()
    }
  })
})
