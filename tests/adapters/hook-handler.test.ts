import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { mkdir, readFile, stat, symlink, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const HANDLER = fileURLToPath(new URL('../../resources/hooks/navi-hook.mjs', import.meta.url))

interface Run {
  code: number | null
  stdout: string
  stderr: string
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
  const [cmd, ...cmdArgs] = opts.command ?? [process.execPath, HANDLER, ...(opts.args ?? [])]
  return new Promise((resolve, reject) => {
    const child = spawn(cmd!, cmdArgs, { env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.on('error', () => {}) // the handler may stop reading; that is its right
    child.stdin.end(stdin)
  })
}

let root: string
let home: string
let inbox: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'navi-hook-handler-'))
  home = join(root, 'navi')
  inbox = join(home, 'hooks', 'events.jsonl')
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

describe('navi-hook.mjs', () => {
  it('appends one line with the kept fields and nothing big, printing nothing', async () => {
    const result = await run(JSON.stringify(postToolUse()), { env: { NAVI_HOME: home } })
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' })
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
    expect(Object.keys(line!)).not.toEqual(expect.arrayContaining(['tool_input']))
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
    const [promptLine, permissionLine] = await inboxLines()
    expect(String(promptLine!.prompt).length).toBeLessThanOrEqual(200)
    expect(permissionLine!.tool_detail).toBe('touch /home/user/outside.txt …')
  })

  it('uses --navi-home when NAVI_HOME is not set, and the environment when it is', async () => {
    const baked = join(root, 'baked')
    await run(JSON.stringify(postToolUse()), { args: ['--navi-home', baked] })
    expect(await inboxLines(join(baked, 'hooks', 'events.jsonl'))).toHaveLength(1)
    await run(JSON.stringify(postToolUse()), {
      args: ['--navi-home', baked],
      env: { NAVI_HOME: home },
    })
    expect(await inboxLines()).toHaveLength(1)
    expect(await inboxLines(join(baked, 'hooks', 'events.jsonl'))).toHaveLength(1)
  })

  it('records nothing for stdin that is not a JSON object, and exits 0 silently', async () => {
    for (const garbage of [
      'not json at all',
      '',
      '[1,2]',
      '{"hook_event_name":"Stop"}',
      '{"trunc',
    ]) {
      const result = await run(garbage, { env: { NAVI_HOME: home } })
      expect(result).toEqual({ code: 0, stdout: '', stderr: '' })
    }
    expect(existsSync(home)).toBe(false)
  })

  it('exits 0 silently when NAVI_HOME cannot be written', async () => {
    const file = join(root, 'a-file')
    await writeFile(file, 'x')
    const result = await run(JSON.stringify(postToolUse()), {
      env: { NAVI_HOME: join(file, 'navi') },
    })
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' })
  })

  it('does not block on a FIFO in place of the inbox (or of its error log), and exits 0 at once', async () => {
    await mkdir(join(home, 'hooks'), { recursive: true })
    execFileSync('mkfifo', [inbox])
    execFileSync('mkfifo', [join(home, 'hooks', 'errors.log')])
    // A blocking open would hang the handler for ever (its stdin guard is a timer that never fires).
    const result = await run(JSON.stringify(postToolUse()), { env: { NAVI_HOME: home } })
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' })
    expect((await stat(inbox)).isFIFO()).toBe(true)
  })

  it('keeps 20 concurrent handlers’ lines intact', async () => {
    const payloads = Array.from({ length: 20 }, (_, i) =>
      JSON.stringify(postToolUse({ tool_use_id: `toolu_${i}`, message: `${i}`.repeat(400) })),
    )
    const results = await Promise.all(payloads.map((p) => run(p, { env: { NAVI_HOME: home } })))
    expect(results.every((r) => r.code === 0 && r.stdout === '')).toBe(true)
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
    expect((await stat(`${inbox}.1`)).size).toBe(21 * 1024 * 1024)
    expect(await inboxLines()).toHaveLength(1)
  })

  it('records the small fields of a payload too big to keep', async () => {
    const huge = JSON.stringify(
      postToolUse({ tool_input: { content: 'z'.repeat(6 * 1024 * 1024) } }),
    )
    const result = await run(huge, { env: { NAVI_HOME: home } })
    expect(result.code).toBe(0)
    const [line] = await inboxLines()
    expect(line).toMatchObject({
      hook_event_name: 'PostToolUse',
      session_id: '4ebfe5b2-1111-4000-8000-000000000001',
      cwd: '/home/user/proj',
      truncated: true,
    })
  })

  it.runIf(process.platform === 'linux')(
    'finds the claude process above the shell that runs the hook',
    async () => {
      // A node binary named `claude` plays Claude Code: it runs the hook through `sh -c`.
      const bin = join(root, 'bin')
      await mkdir(bin)
      await symlink(process.execPath, join(bin, 'claude'))
      const script = `
        const { spawnSync } = require('node:child_process')
        const r = spawnSync('/bin/sh', ['-c', process.argv[1] + '; true'], { input: process.argv[2] })
        process.stdout.write(String(process.pid))
      `
      const hookCommand = `'${process.execPath}' '${HANDLER}'`
      const fake = await run('', {
        command: [join(bin, 'claude'), '-e', script, hookCommand, JSON.stringify(postToolUse())],
        env: { NAVI_HOME: home },
      })
      const [line] = await inboxLines()
      expect(line!.claude_pid).toBe(Number(fake.stdout))
    },
  )
})
