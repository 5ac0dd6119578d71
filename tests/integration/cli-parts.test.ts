/**
 * The built `navi` is two parts (scripts/cli-bundle.ts): its front runs the read-only commands, and loads
 * the engine side (with a code cache of its own) only when an answer must be computed. Shown with a copy
 * of the built CLI whose engine side is gone: what needs no engine (the help, the answers the last
 * command kept, those of a running Navi) answers as the whole CLI does; what needs it fails, naming the
 * missing file. Over real sessions from ../shared/corpus where it is.
 */
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { doctorOutputSchema } from '../../shared/schemas/cli.ts'
import { NAVI_CLI_ENGINE_FILE, NAVI_CLI_FILE } from '../../scripts/cli-bundle.ts'
import { CORPUS_CLAUDE } from '../support/corpus-dir.ts'
import { createNaviEnv, runNavi, startNaviWatch, type NaviEnv } from '../support/navi-cli.ts'
import { bundleNaviForTest } from '../support/node-bundle.ts'
import { waitUntil } from '../support/wait.ts'

const READS = [
  ['status', '--json'],
  ['sessions', '--json', '--all'],
  ['events', '--json'],
]

let bundle: Awaited<ReturnType<typeof bundleNaviForTest>>
/** The built CLI without its engine side, at the same depth as out/cli/. */
let frontOnly: string
const envs: NaviEnv[] = []

beforeAll(async () => {
  bundle = await bundleNaviForTest(`cli-parts-test-${process.pid}`)
  const dir = `${dirname(bundle.file)}-front`
  cpSync(dirname(bundle.file), dir, { recursive: true })
  rmSync(join(dir, NAVI_CLI_ENGINE_FILE))
  frontOnly = join(dir, NAVI_CLI_FILE)
})

afterAll(() => {
  bundle?.dispose()
  if (frontOnly) rmSync(dirname(frontOnly), { recursive: true, force: true })
  for (const env of envs)
    for (const dir of [env.NAVI_HOME, env.CLAUDE_CONFIG_DIR, env.CODEX_HOME])
      rmSync(dir, { recursive: true, force: true })
})

async function envWithSessions(): Promise<NaviEnv> {
  // No tmux server to ask (a command that starts a process keeps no answers).
  const env = await createNaviEnv()
  env.TMUX_TMPDIR = env.NAVI_HOME
  envs.push(env)
  if (existsSync(CORPUS_CLAUDE)) cpSync(CORPUS_CLAUDE, env.CLAUDE_CONFIG_DIR, { recursive: true })
  return env
}

/** `navi args` with `bin`; its output, and a failure's stderr in the message. */
async function answered(bin: string, args: string[], env: NaviEnv): Promise<string> {
  const run = await runNavi(args, env, 60_000, bin)
  expect(run.exitCode, run.stderr).toBe(0)
  return run.stdout
}

/** An answer without the times it was made at. */
const comparable = (stdout: string): unknown =>
  JSON.parse(stdout, (key, value: unknown) =>
    key === 'generated_at' || key === 'captured_at' ? undefined : value,
  )

describe('the built CLI in two parts', () => {
  it('the engine side keeps a code cache of its own, written by the first command that needs it and used by the next', async () => {
    const env = await envWithSessions()
    const first = await answered(bundle.file, ['sessions', '--json', '--all'], env)
    const cache = join(env.NAVI_HOME, 'cache')
    const engine = readdirSync(cache).filter((n) => n.startsWith('cli-engine-code-'))
    const front = readdirSync(cache).filter((n) => n.startsWith('cli-code-'))
    expect(engine).toHaveLength(1)
    expect(front).toHaveLength(1)
    // One build: both parts are keyed by the same hash of the two files.
    const build = (name: string) => /-code-([0-9a-f]{16})-/.exec(name)?.[1]
    expect(build(engine[0] ?? '')).toBe(build(front[0] ?? ''))
    const engineFile = join(cache, engine[0] ?? '')
    expect(statSync(engineFile).mode & 0o777).toBe(0o600)

    const env2 = { ...env, NAVI_NO_ANSWER_CACHE: '1' }
    expect(comparable(await answered(bundle.file, ['sessions', '--json', '--all'], env2))).toEqual(
      comparable(first),
    )
    const report = doctorOutputSchema.parse(
      JSON.parse(await answered(bundle.file, ['doctor', '--json'], env)),
    )
    const check = report.checks.find((c) => c.name === 'cli engine cache')
    expect(check).toMatchObject({ ok: true, detail: `used: ${engineFile}`, fix: null })
  })

  it('answers kept by the last command, and the help, need no engine side; computing one does', async () => {
    const env = await envWithSessions()
    for (const args of READS) {
      let trace = ''
      await waitUntil(
        async () => {
          const run = await runNavi(
            args,
            { ...env, NAVI_ANSWER_CACHE_TRACE: '1' },
            60_000,
            bundle.file,
          )
          trace = run.stderr
          return /answers from /.test(trace)
        },
        60_000,
        () => `answers of ${args.join(' ')} never kept: ${trace}`,
      )
      const whole = await answered(bundle.file, args, env)
      expect(comparable(await answered(frontOnly, args, env)), args.join(' ')).toEqual(
        comparable(whole),
      )
    }
    expect(await answered(frontOnly, ['--help'], env)).toBe(
      await answered(bundle.file, ['--help'], env),
    )

    const computing = await runNavi(
      ['sessions', '--json'],
      { ...env, NAVI_NO_ANSWER_CACHE: '1' },
      60_000,
      frontOnly,
    )
    expect(computing.exitCode).toBe(1)
    expect(computing.stderr).toContain(NAVI_CLI_ENGINE_FILE)
  })

  it('a running Navi answers the front without its engine side', async () => {
    const env = await envWithSessions()
    const watch = await startNaviWatch(env, 60_000, false, bundle.file)
    try {
      for (const args of READS) {
        // Kept answers off: the answer is the running Navi's or nothing.
        const asking = { ...env, NAVI_NO_ANSWER_CACHE: '1' }
        const whole = await answered(bundle.file, args, asking)
        expect(comparable(await answered(frontOnly, args, asking)), args.join(' ')).toEqual(
          comparable(whole),
        )
      }
    } finally {
      expect((await watch.stop()).exitCode).toBe(0)
    }
  })
})
