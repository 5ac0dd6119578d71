/**
 * The background runtime (electron/cli/background.ts), with the built CLI over real sessions from
 * ../shared/corpus: a read-only command that computed its answer leaves a runtime that answers the next
 * ones, current with what changed since; it gives the socket up to a Navi the user starts, exits when
 * idle, never listens for answers (Navi's hook would wait on it), and is not started when turned off.
 */
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPidAlive as alive } from '../../electron/engine/adapters/process.ts'
import { CORPUS_CLAUDE } from '../support/corpus-dir.ts'
import { createNaviEnv, runNavi, startNaviWatch, type NaviEnv } from '../support/navi-cli.ts'
import { bundleNaviForTest } from '../support/node-bundle.ts'
import { waitUntil } from '../support/wait.ts'

let bundle: Awaited<ReturnType<typeof bundleNaviForTest>>
const envs: NaviEnv[] = []
const pids: number[] = []

beforeAll(async () => {
  bundle = await bundleNaviForTest(`cli-background-test-${process.pid}`)
})

afterAll(() => {
  // Whatever a failed test left running.
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGTERM')
  bundle?.dispose()
  for (const env of envs)
    for (const dir of [env.NAVI_HOME, env.CLAUDE_CONFIG_DIR, env.CODEX_HOME])
      rmSync(dir, { recursive: true, force: true })
})

async function backgroundEnv(over: Record<string, string> = {}): Promise<NaviEnv> {
  // No tmux server to ask; the background runtime on, as a user has it.
  const env = await createNaviEnv({ NAVI_BACKGROUND: '1', NAVI_ANSWER_CACHE_TRACE: '1', ...over })
  env.TMUX_TMPDIR = env.NAVI_HOME
  envs.push(env)
  cpSync(CORPUS_CLAUDE, env.CLAUDE_CONFIG_DIR, { recursive: true })
  return env
}

const pidFile = (env: NaviEnv) => join(env.NAVI_HOME, 'run', 'background.pid')

/** `navi args` with the test's bundle; fails with its stderr. */
async function navi(args: string[], env: NaviEnv) {
  const run = await runNavi(args, env, 60_000, bundle.file)
  expect(run.exitCode, run.stderr).toBe(0)
  return run
}

/** The pid of the background runtime once it serves (its pid file is written after the socket). */
async function servingPid(env: NaviEnv): Promise<number> {
  const pid = await waitUntil(
    () => existsSync(pidFile(env)) && Number(readFileSync(pidFile(env), 'utf8').trim()),
    30_000,
    'the background runtime to serve',
  )
  pids.push(pid)
  return pid
}

/** A transcript of the corpus, moved out of the config dir: it appears when put back. */
function holdBackOneTranscript(env: NaviEnv): { putBack: () => void } {
  const projects = join(env.CLAUDE_CONFIG_DIR, 'projects')
  const project = readdirSync(projects).find((dir) =>
    readdirSync(join(projects, dir)).some((name) => name.endsWith('.jsonl')),
  )
  if (!project) throw new Error('the corpus has no transcript')
  const name = readdirSync(join(projects, project)).find((n) => n.endsWith('.jsonl')) ?? ''
  const aside = mkdtempSync(join(tmpdir(), 'navi-held-'))
  renameSync(join(projects, project, name), join(aside, name))
  return {
    putBack: () => {
      renameSync(join(aside, name), join(projects, project, name))
      rmSync(aside, { recursive: true, force: true })
    },
  }
}

type Listed = { sessions: Array<{ id: string; tokens: { total: number } }> }
const byId = (listed: Listed) =>
  Object.fromEntries(listed.sessions.map((s) => [s.id, s.tokens.total]))

describe.skipIf(!existsSync(CORPUS_CLAUDE))(
  'the background runtime (needs ../shared/corpus)',
  () => {
    it('a computing command starts it; it answers the next commands current with what changed since, and gives the socket up to navi watch', async () => {
      const env = await backgroundEnv()
      const held = holdBackOneTranscript(env)
      const first = await navi(['status', '--json'], env)
      expect(first.stderr).toContain('background runtime started')
      const pid = await servingPid(env)
      expect(alive(pid)).toBe(true)
      // It holds its home as its folder, not the folder the command ran in (Linux shows it in /proc).
      if (existsSync('/proc/self/cwd'))
        expect(readlinkSync(`/proc/${String(pid)}/cwd`)).toBe(realpathSync(env.NAVI_HOME))
      // Nobody can answer Navi's hook from it: it must not make the hook wait.
      expect(existsSync(join(env.NAVI_HOME, 'answers', 'listener'))).toBe(false)
      const doctor = (await navi(['doctor', '--json'], env)).json as {
        checks: Array<{ name: string; detail: string }>
      }
      expect(doctor.checks.find((c) => c.name === 'background runtime')?.detail).toBe(
        `answering the commands (pid ${String(pid)})`,
      )

      held.putBack()
      const asked = await navi(['sessions', '--json', '--all'], env)
      expect(asked.stderr).toContain('answers from the running Navi')
      // The same as a command that computes it over the same files in a home of its own.
      const own = await createNaviEnv({
        CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR,
        TMUX_TMPDIR: env.NAVI_HOME,
        NAVI_NO_ANSWER_CACHE: '1',
      })
      envs.push({ ...own, CLAUDE_CONFIG_DIR: own.NAVI_HOME })
      const computed = await navi(['sessions', '--json', '--all'], own)
      expect(byId(asked.json as Listed)).toEqual(byId(computed.json as Listed))
      expect(Object.keys(byId(asked.json as Listed))).toHaveLength(
        Object.keys(byId(computed.json as Listed)).length,
      )

      // The Navi the user starts takes the socket; the background one exits and leaves no pid file.
      const watch = await startNaviWatch(env, 60_000, false, bundle.file)
      try {
        await waitUntil(() => !alive(pid), 30_000, 'the background runtime to step aside')
        expect(existsSync(pidFile(env))).toBe(false)
        const fromWatch = await navi(['sessions', '--json', '--all'], env)
        expect(fromWatch.stderr).toContain('answers from the running Navi')
        expect(byId(fromWatch.json as Listed)).toEqual(byId(computed.json as Listed))
      } finally {
        await watch.stop()
      }
    })

    it('exits once no command asked it anything for cli.background', async () => {
      const env = await backgroundEnv()
      await import('node:fs/promises').then((fs) =>
        fs.writeFile(join(env.NAVI_HOME, 'config.yaml'), 'cli:\n  background: 1s\n'),
      )
      await navi(['sessions', '--json'], { ...env, NAVI_NO_ANSWER_CACHE: '1' })
      const pid = await servingPid(env)
      await waitUntil(() => !alive(pid), 30_000, 'the idle background runtime to exit')
      expect(existsSync(pidFile(env))).toBe(false)
      expect(existsSync(join(env.NAVI_HOME, 'run', 'query.sock'))).toBe(false)
      expect(readFileSync(join(env.NAVI_HOME, 'logs', 'navi.log'), 'utf8')).toMatch(
        /\(background\) exiting: no command asked for \d+ s/,
      )
    })

    it('is not started with NAVI_BACKGROUND=0, with CI set, or with cli.background: 0', async () => {
      const cases: Array<[Record<string, string>, string | null, string]> = [
        [{ NAVI_BACKGROUND: '0' }, null, 'NAVI_BACKGROUND=0'],
        [{ NAVI_BACKGROUND: '', CI: 'true' }, null, 'CI is set'],
        [{}, 'cli:\n  background: 0\n', 'cli.background is 0'],
      ]
      for (const [over, config, why] of cases) {
        const env = await backgroundEnv(over)
        if (config)
          await import('node:fs/promises').then((fs) =>
            fs.writeFile(join(env.NAVI_HOME, 'config.yaml'), config),
          )
        const run = await navi(['status'], env)
        expect(run.stderr).toContain(`background runtime not started: ${why}`)
        const doctor = (await navi(['doctor', '--json'], env)).json as {
          checks: Array<{ name: string; detail: string }>
        }
        expect(doctor.checks.find((c) => c.name === 'background runtime')?.detail).toBe(
          `off: ${why}`,
        )
        expect(existsSync(join(env.NAVI_HOME, 'run', 'background.starting'))).toBe(false)
      }
    })
  },
)
