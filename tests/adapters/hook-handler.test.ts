/**
 * The hook handler (resources/hooks/navi-hook.sh, run by /bin/sh as Claude Code runs it) together with
 * the drain that turns its spool into inbox lines (engine/adapters/hook-spool.ts): what a hook event
 * becomes, whatever the payload, the home or the concurrency.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import {
  mkdir,
  readdir,
  readFile,
  stat,
  symlink,
  truncate,
  utimes,
  writeFile,
} from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { drainHookSpool } from '../../electron/engine/adapters/hook-spool.ts'

const HANDLER = fileURLToPath(new URL('../../resources/hooks/navi-hook.sh', import.meta.url))

interface Run {
  code: number | null
  stdout: string
  stderr: string
  /** The writer of stdin got an error (a handler that stopped reading would cause EPIPE). */
  stdinError: string | null
}

function run(
  stdin: string | Buffer,
  opts: { env?: Record<string, string | undefined>; args?: string[]; command?: string[] } = {},
): Promise<Run> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NAVI_HOME: undefined,
    ...opts.env,
  }
  const [cmd, ...cmdArgs] = opts.command ?? ['/bin/sh', HANDLER, ...(opts.args ?? [])]
  return new Promise((resolve, reject) => {
    const child = spawn(cmd!, cmdArgs, { env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let stdinError: string | null = null
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr, stdinError }))
    child.stdin.on('error', (error) => (stdinError = error.message))
    child.stdin.end(stdin)
  })
}

const quiet = { code: 0, stdout: '', stderr: '', stdinError: null }

let root: string
let home: string
let inbox: string
let spool: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'navi-hook-handler-'))
  home = join(root, 'navi')
  inbox = join(home, 'hooks', 'events.jsonl')
  spool = join(home, 'hooks', 'spool')
})

afterEach(() => rmSync(root, { recursive: true, force: true }))

const postToolUse = (extra: Record<string, unknown> = {}) => ({
  session_id: '4ebfe5b2-1111-4000-8000-000000000001',
  transcript_path: '/home/user/.claude/projects/-home-user-proj/4ebfe5b2.jsonl',
  cwd: '/home/user/proj',
  hook_event_name: 'PostToolUse',
  permission_mode: 'default',
  tool_name: 'Write',
  tool_input: { file_path: '/home/user/proj/a.txt', content: 'x'.repeat(10_000) },
  tool_response: { type: 'create', filePath: '/home/user/proj/a.txt', content: 'y'.repeat(10_000) },
  tool_use_id: 'toolu_fake_031',
  duration_ms: 11,
  ...extra,
})

async function inboxLines(path = inbox): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, 'utf8')
  expect(text.endsWith('\n')).toBe(true)
  return text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}

/** Drains the spool of `home` into its inbox, as the engine does at the start of a cycle. */
const drain = (at = home) =>
  drainHookSpool(join(at, 'hooks', 'spool'), join(at, 'hooks', 'events.jsonl'))

describe('navi-hook.sh and the spool drain', () => {
  it('spools the payload, and the drain appends one line with the kept fields and nothing big', async () => {
    const result = await run(JSON.stringify(postToolUse()), { env: { NAVI_HOME: home } })
    expect(result).toEqual(quiet)
    expect((await stat(spool)).mode & 0o777).toBe(0o700)
    const [file] = await readdir(spool)
    expect((await stat(join(spool, file ?? ''))).mode & 0o777).toBe(0o600)
    expect(await drain()).toEqual({ appended: 1, skipped: 0, errors: [] })
    expect(await readdir(spool)).toEqual([])
    const lines = await inboxLines()
    expect(lines).toHaveLength(1)
    const [line] = lines
    expect(line).toMatchObject({
      hook_event_name: 'PostToolUse',
      session_id: '4ebfe5b2-1111-4000-8000-000000000001',
      cwd: '/home/user/proj',
      transcript_path: '/home/user/.claude/projects/-home-user-proj/4ebfe5b2.jsonl',
      tool_name: 'Write',
      tool_use_id: 'toolu_fake_031',
      claude_pid: null,
    })
    for (const big of ['tool_input', 'tool_response', 'permission_mode', 'duration_ms']) {
      expect(line).not.toHaveProperty(big)
    }
    expect(Math.abs(Date.parse(String(line!.received_at)) - Date.now())).toBeLessThan(60_000)
  })

  it('truncates the prompt and keeps a short description of a permission request', async () => {
    const prompt = {
      ...postToolUse(),
      hook_event_name: 'UserPromptSubmit',
      prompt: 'p'.repeat(5000),
    }
    const permission = {
      ...postToolUse(),
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: 'touch /home/user/outside.txt\necho second line', description: 'x' },
    }
    await run(JSON.stringify(prompt), { env: { NAVI_HOME: home } })
    await run(JSON.stringify(permission), { env: { NAVI_HOME: home } })
    await drain()
    const lines = await inboxLines()
    const promptLine = lines.find((l) => l.hook_event_name === 'UserPromptSubmit')
    const permissionLine = lines.find((l) => l.hook_event_name === 'PermissionRequest')
    expect(String(promptLine!.prompt).length).toBeLessThanOrEqual(200)
    expect(permissionLine!.tool_detail).toBe('touch /home/user/outside.txt …')
  })

  it('uses --navi-home when NAVI_HOME is not set, and the environment when it is', async () => {
    const baked = join(root, 'baked')
    await run(JSON.stringify(postToolUse()), { args: ['--navi-home', baked] })
    await drain(baked)
    expect(await inboxLines(join(baked, 'hooks', 'events.jsonl'))).toHaveLength(1)
    await run(JSON.stringify(postToolUse()), {
      args: ['--navi-home', baked],
      env: { NAVI_HOME: home },
    })
    await drain(baked)
    await drain()
    expect(await inboxLines()).toHaveLength(1)
    expect(await inboxLines(join(baked, 'hooks', 'events.jsonl'))).toHaveLength(1)
  })

  it('exits 0 silently on any stdin, and the drain records nothing that is not a hook event', async () => {
    const garbage = ['not json at all', '', '[1,2]', '{"hook_event_name":"Stop"}', '{"trunc']
    for (const text of garbage) {
      expect(await run(text, { env: { NAVI_HOME: home } })).toEqual(quiet)
    }
    expect(await drain()).toEqual({ appended: 0, skipped: garbage.length, errors: [] })
    expect(existsSync(inbox)).toBe(false)
    expect(await readdir(spool)).toEqual([])
  })

  it('exits 0 silently when NAVI_HOME cannot be written, reading all of stdin', async () => {
    const file = join(root, 'a-file')
    await writeFile(file, 'x')
    const big = JSON.stringify(postToolUse({ tool_response: 'r'.repeat(2 * 1024 * 1024) }))
    expect(await run(big, { env: { NAVI_HOME: join(file, 'navi') } })).toEqual(quiet)
  })

  it('does not block on a FIFO in place of the spool, nor the drain on one in place of the inbox', async () => {
    await mkdir(join(home, 'hooks'), { recursive: true })
    execFileSync('mkfifo', [spool])
    expect(await run(JSON.stringify(postToolUse()), { env: { NAVI_HOME: home } })).toEqual(quiet)
    rmSync(spool)
    execFileSync('mkfifo', [inbox])
    await run(JSON.stringify(postToolUse()), { env: { NAVI_HOME: home } })
    const drained = await drain()
    expect(drained.appended).toBe(0)
    expect(drained.errors).toEqual([expect.stringMatching(/events\.jsonl.*1 hook event\(s\) kept/)])
    // Kept for the next drain, once the inbox is a file again.
    rmSync(inbox)
    expect((await drain()).appended).toBe(1)
    expect(await inboxLines()).toHaveLength(1)
  })

  it('keeps 20 concurrent handlers’ events intact, drained by two Navis at once, each once', async () => {
    const payloads = Array.from({ length: 20 }, (_, i) =>
      JSON.stringify(postToolUse({ tool_use_id: `toolu_${i}`, message: `${i}`.repeat(400) })),
    )
    const results = await Promise.all(payloads.map((p) => run(p, { env: { NAVI_HOME: home } })))
    expect(results.every((r) => r.code === 0 && r.stdout === '')).toBe(true)
    const [first, second] = await Promise.all([drain(), drain()])
    expect((first?.appended ?? 0) + (second?.appended ?? 0)).toBe(20)
    const lines = await inboxLines()
    expect(lines).toHaveLength(20)
    expect(new Set(lines.map((l) => l.tool_use_id))).toEqual(
      new Set(payloads.map((_, i) => `toolu_${i}`)),
    )
  })

  it('rotates an inbox over 20 MB to events.jsonl.1 before appending', async () => {
    await mkdir(join(home, 'hooks'), { recursive: true })
    await writeFile(inbox, '')
    await truncate(inbox, 21 * 1024 * 1024)
    await run(JSON.stringify(postToolUse()), { env: { NAVI_HOME: home } })
    await drain()
    expect((await stat(`${inbox}.1`)).size).toBe(21 * 1024 * 1024)
    expect(await inboxLines()).toHaveLength(1)
  })

  it('records the small fields and the command of a payload too big to keep, whole', async () => {
    const huge = JSON.stringify({
      ...postToolUse(),
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: '/home/user/proj/big.txt', content: 'z'.repeat(6 * 1024 * 1024) },
    })
    expect(await run(huge, { env: { NAVI_HOME: home } })).toEqual(quiet)
    const [file] = await readdir(spool)
    expect((await stat(join(spool, file ?? ''))).size).toBeLessThan(300 * 1024)
    await drain()
    const [line] = await inboxLines()
    expect(line).toMatchObject({
      hook_event_name: 'PreToolUse',
      session_id: '4ebfe5b2-1111-4000-8000-000000000001',
      cwd: '/home/user/proj',
      tool_detail: '/home/user/proj/big.txt',
      truncated: true,
    })
  })

  it('removes the temp file of a handler killed mid-write once it is a minute old', async () => {
    await mkdir(spool, { recursive: true })
    const fresh = join(spool, '.new.fresh00000')
    const old = join(spool, '.new.old0000000')
    await writeFile(fresh, 'navi-hook 1\n{"half')
    await writeFile(old, 'navi-hook 1\n{"half')
    const longAgo = new Date(Date.now() - 5 * 60_000)
    await utimes(old, longAgo, longAgo)
    await drain()
    expect((await readdir(spool)).sort()).toEqual(['.new.fresh00000'])
  })

  it.runIf(process.platform === 'linux')(
    'finds the claude process above the shell that runs the hook',
    async () => {
      // A node binary named `claude` plays Claude Code: it runs the hook through `sh -c`, as Claude Code
      // does, and the drain runs while it still runs (as the engine drains while the session lives).
      const bin = join(root, 'bin')
      await mkdir(bin)
      await symlink(process.execPath, join(bin, 'claude'))
      const script = `
        const { spawnSync } = require('node:child_process')
        spawnSync('/bin/sh', ['-c', process.argv[1] + '; true'], { input: process.argv[2] })
        process.stdout.write(String(process.pid) + '\\n')
        setTimeout(() => undefined, 20000)
      `
      const hookCommand = `/bin/sh '${HANDLER}'`
      const child = spawn(
        join(bin, 'claude'),
        ['-e', script, hookCommand, JSON.stringify(postToolUse())],
        {
          env: { ...process.env, NAVI_HOME: home },
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      )
      try {
        const pid = await new Promise<number>((resolve) =>
          child.stdout.once('data', (c: Buffer) => resolve(Number(c.toString().trim()))),
        )
        await drain()
        const [line] = await inboxLines()
        expect(line!.claude_pid).toBe(pid)
      } finally {
        child.kill()
      }
    },
  )
})
