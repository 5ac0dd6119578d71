/**
 * The built `navi` command and its code cache (electron/cli/launcher.ts): the first command writes the
 * bytecode into $NAVI_HOME/cache, the next ones use it and answer the same; a damaged cache, one made by
 * another build, an unwritable cache folder or NAVI_NO_CODE_CACHE=1 never change an answer, and
 * `navi doctor` says what happened.
 */
import {
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { doctorOutputSchema } from '../../shared/schemas/cli.ts'
import { waitUntil } from '../support/wait.ts'
import { createNaviEnv, type NaviEnv } from '../support/navi-cli.ts'
import { bundleNaviForTest } from '../support/node-bundle.ts'
import { CORPUS_CLAUDE } from '../support/corpus-dir.ts'
import { NAVI_CLI_ENGINE_FILE } from '../../scripts/cli-bundle.ts'
import { defaultConfig } from '../../electron/engine/core/config.ts'
import { settingsSchema } from '../../shared/schemas/settings.ts'

let bundle: Awaited<ReturnType<typeof bundleNaviForTest>>
const envs: NaviEnv[] = []

beforeAll(async () => {
  bundle = await bundleNaviForTest(`cli-cache-test-${process.pid}`)
})

afterAll(() => {
  bundle?.dispose()
  for (const env of envs)
    for (const dir of [env.NAVI_HOME, env.CLAUDE_CONFIG_DIR, env.CODEX_HOME])
      rmSync(dir, { recursive: true, force: true })
})

async function freshEnv(over: Partial<NaviEnv> = {}): Promise<NaviEnv> {
  const env = await createNaviEnv(over)
  envs.push(env)
  return env
}

async function navi(args: string[], env: NaviEnv) {
  const run = await execa('node', [bundle.file, ...args], {
    env,
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  })
  expect(run.exitCode, String(run.stderr)).toBe(0)
  return String(run.stdout)
}

const cacheFiles = (env: NaviEnv): string[] => {
  const dir = join(env.NAVI_HOME, 'cache')
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith('cli-code-')) : []
}

/** `navi sessions --json --all` over a copy of the corpus, without the time it was made. */
async function sessionsAnswer(env: NaviEnv): Promise<unknown> {
  const answer = JSON.parse(await navi(['sessions', '--json', '--all'], env)) as Record<
    string,
    unknown
  >
  delete answer.generated_at
  return answer
}

async function envWithSessions(): Promise<NaviEnv> {
  const env = await freshEnv()
  if (existsSync(CORPUS_CLAUDE)) cpSync(CORPUS_CLAUDE, env.CLAUDE_CONFIG_DIR, { recursive: true })
  return env
}

/** `navi watch --json --no-pm` of the built CLI, once it says it is ready; the caller stops it. */
async function startedWatch(env: NaviEnv) {
  const child = execa('node', [bundle.file, 'watch', '--json', '--no-pm'], {
    env,
    extendEnv: false,
    reject: false,
    buffer: false,
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  try {
    await waitUntil(
      () => stderr.includes('"ready":true'),
      60_000,
      () => `ready: ${stderr}`,
    )
  } catch (error) {
    child.kill('SIGTERM')
    throw error
  }
  return { process: child, stderr: () => stderr }
}

async function codeCacheCheck(env: NaviEnv) {
  const report = doctorOutputSchema.parse(JSON.parse(await navi(['doctor', '--json'], env)))
  const check = report.checks.find((c) => c.name === 'cli code cache')
  if (!check) throw new Error('doctor has no code cache check')
  return check
}

describe('the built CLI’s code cache', () => {
  it('carries the configuration’s and the settings’ defaults, computed from the schemas when it was built', () => {
    const code = readFileSync(join(dirname(bundle.file), NAVI_CLI_ENGINE_FILE), 'latin1')
    for (const [defaults, name] of [
      [defaultConfig(), '__NAVI_DEFAULT_CONFIG_JSON__'],
      [settingsSchema.parse({}), '__NAVI_DEFAULT_SETTINGS_JSON__'],
    ] as const) {
      const json = JSON.stringify(defaults)
      // However esbuild quotes the string: as it is, or with its double quotes escaped.
      expect(code.includes(json) || code.includes(JSON.stringify(json).slice(1, -1))).toBe(true)
      expect(code).not.toContain(name)
    }
  })

  it('is written by the first command, used by the next, and the answers are the same', async () => {
    const env = await envWithSessions()
    const first = await sessionsAnswer(env)
    if (existsSync(CORPUS_CLAUDE))
      expect((first as { sessions: unknown[] }).sessions.length).toBeGreaterThan(0)
    const [name] = cacheFiles(env)
    expect(name).toMatch(
      new RegExp(`^cli-code-[0-9a-f]{16}-${process.version}-${process.arch}\\.bin$`),
    )
    const file = join(env.NAVI_HOME, 'cache', name ?? '')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(file).size).toBeGreaterThan(0)

    expect(await sessionsAnswer(env)).toEqual(first)
    const check = await codeCacheCheck(env)
    expect(check).toMatchObject({ ok: true, fix: null })
    expect(check.detail).toBe(`used: ${file}`)
  })

  it('one written by `navi --help` is written anew by the first command to go further, then kept', async () => {
    const env = await envWithSessions()
    const cache = () => {
      const [name] = cacheFiles(env)
      const bytes = readFileSync(join(env.NAVI_HOME, 'cache', name ?? ''))
      // The header: a tag, then how far into the CLI the run that wrote it went (0 help … 2 engine).
      return { scope: bytes[8], size: bytes.length, bytes }
    }
    await navi(['--help'], env)
    const help = cache()
    expect(help.bytes.subarray(0, 8).toString('latin1')).toBe('NAVICC1\0')
    expect(help.scope).toBe(0)
    const expected = await sessionsAnswer(env)
    const engine = cache()
    expect(engine.scope).toBe(2)
    expect(engine.size).toBeGreaterThan(help.size)
    await navi(['--help'], env)
    expect(await sessionsAnswer(env)).toEqual(expected)
    expect(cache().bytes.equals(engine.bytes)).toBe(true)
  })

  it('a damaged cache is refused by V8 and written anew; the command answers as before', async () => {
    const env = await envWithSessions()
    const expected = await sessionsAnswer(env)
    const [name] = cacheFiles(env)
    const file = join(env.NAVI_HOME, 'cache', name ?? '')
    writeFileSync(file, Buffer.alloc(4096, 0x5a))

    expect(await sessionsAnswer(env)).toEqual(expected)
    // Rewritten by that run: the doctor now finds a cache V8 takes.
    expect((await codeCacheCheck(env)).detail).toBe(`used: ${file}`)
  })

  it('a cache of another build is removed when this build writes its own; another Node’s is kept', async () => {
    const env = await freshEnv()
    await navi(['sessions', '--json'], env)
    const [ours] = cacheFiles(env)
    const build = /^cli-code-([0-9a-f]{16})-/.exec(ours ?? '')?.[1] ?? ''
    rmSync(join(env.NAVI_HOME, 'cache', ours ?? ''))
    const stale = join(env.NAVI_HOME, 'cache', 'cli-code-0000000000000000-v0.0.0-x64.bin')
    const otherNode = join(env.NAVI_HOME, 'cache', `cli-code-${build}-v99.0.0-x64.bin`)
    writeFileSync(stale, 'old')
    writeFileSync(otherNode, 'another node')
    await navi(['sessions', '--json'], env)
    expect(existsSync(stale)).toBe(false)
    expect(existsSync(otherNode)).toBe(true)
    expect(cacheFiles(env)).toHaveLength(2)
  })

  it('an unwritable cache folder costs only the speed, and the doctor says how to fix it', async () => {
    const env = await freshEnv()
    // A file where the folder should be: nothing can be written under it, whoever runs the test.
    writeFileSync(join(env.NAVI_HOME, 'cache'), 'not a folder')
    const check = await codeCacheCheck(env)
    expect(check.ok).toBe(false)
    expect(check.detail).toMatch(/^cannot write .*cli-code-.*\.bin: /)
    expect(check.fix).toMatch(/cache writable/)
    expect(await navi(['sessions', '--json'], env)).toMatch(/"sessions"/)
    expect(statSync(join(env.NAVI_HOME, 'cache')).isFile()).toBe(true)
  })

  it('the doctor writes a missing cache itself, so the next command uses it', async () => {
    const env = await freshEnv()
    const check = await codeCacheCheck(env)
    expect(check).toMatchObject({ ok: true, fix: null })
    expect(check.detail).toMatch(/^written now: .*cli-code-/)
    expect((await codeCacheCheck(env)).detail).toMatch(/^used: /)
  })

  it('NAVI_NO_CODE_CACHE=1 neither reads nor writes one', async () => {
    const env = await freshEnv({ NAVI_NO_CODE_CACHE: '1' })
    expect((await codeCacheCheck(env)).detail).toBe('turned off by NAVI_NO_CODE_CACHE=1')
    await navi(['sessions', '--json'], env)
    expect(cacheFiles(env)).toEqual([])
  })

  it('`navi --help` with no NAVI_HOME creates none', async () => {
    const env = await freshEnv()
    rmSync(env.NAVI_HOME, { recursive: true, force: true })
    expect(await navi(['--help'], env)).toMatch(/navi/)
    expect(existsSync(env.NAVI_HOME)).toBe(false)
  })

  it('runs navi watch: ready, asked by sessions, stopped by SIGTERM with exit 0', async () => {
    const env = await envWithSessions()
    const watch = await startedWatch(env)
    try {
      // The same answer as computed with no Navi running, asked of the watch.
      const asked = JSON.parse(await navi(['sessions', '--json', '--all'], env)) as {
        sessions: unknown[]
      }
      if (existsSync(CORPUS_CLAUDE)) expect(asked.sessions.length).toBeGreaterThan(0)
    } finally {
      watch.process.kill('SIGTERM')
    }
    const result = await watch.process
    expect(result.signal).toBeUndefined()
    expect(result.exitCode).toBe(0)
    expect(watch.stderr()).toContain('stopping…')
  })

  it('a command that runs until stopped keeps a cache of its own (other V8 flags): neither refuses the other', async () => {
    const env = await envWithSessions()
    await sessionsAnswer(env)
    const [oneShot] = cacheFiles(env)
    const oneShotFile = join(env.NAVI_HOME, 'cache', oneShot ?? '')
    const written = readFileSync(oneShotFile)
    const watch = await startedWatch(env)
    watch.process.kill('SIGTERM')
    expect((await watch.process).exitCode).toBe(0)
    expect(cacheFiles(env).sort()).toEqual(
      [oneShot, oneShot?.replace(/\.bin$/, '-long.bin')].sort(),
    )
    // The one-shot cache was neither refused nor rewritten by the watch, and is used as it is.
    expect(readFileSync(oneShotFile).equals(written)).toBe(true)
    expect((await codeCacheCheck(env)).detail).toBe(`used: ${oneShotFile}`)
  })

  it('a shell with other Node options keeps a cache of its own: neither refuses the other', async () => {
    const env = await envWithSessions()
    const plain = await sessionsAnswer(env)
    const [plainName] = cacheFiles(env)
    const plainFile = join(env.NAVI_HOME, 'cache', plainName ?? '')
    const written = readFileSync(plainFile)
    const withOptions = { ...env, NODE_OPTIONS: '--max-old-space-size=2048' }
    expect(await sessionsAnswer(withOptions)).toEqual(plain)
    expect(cacheFiles(env)).toHaveLength(2)
    // Each is used by its own kind of shell, as it was written.
    expect((await codeCacheCheck(withOptions)).detail).toMatch(/^used: .*-o[0-9a-f]{8}\.bin$/)
    expect(readFileSync(plainFile).equals(written)).toBe(true)
    expect((await codeCacheCheck(env)).detail).toBe(`used: ${plainFile}`)
  })

  it('keeps at most four caches of one build, the last written, however many option sets there are', async () => {
    const env = await freshEnv()
    const sizes = [1001, 1002, 1003, 1004, 1005]
    for (const size of sizes)
      await navi(['sessions'], { ...env, NODE_OPTIONS: `--max-old-space-size=${size}` })
    expect(cacheFiles(env)).toHaveLength(4)
    const last = { ...env, NODE_OPTIONS: '--max-old-space-size=1005' }
    expect((await codeCacheCheck(last)).detail).toMatch(/^used: /)
  })
})
