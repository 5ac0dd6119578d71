import { spawn } from 'node:child_process'
import { lstat, mkdir, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { askRunningNavi, askRunningNaviForText } from '../../electron/runtime/query-client.ts'
import { querySocketPath, type QueryChannel } from '../../electron/runtime/query-protocol.ts'
import { openQuerySocket, type QuerySocket } from '../../electron/runtime/query-socket.ts'
import type { IpcResult } from '../../shared/ipc-contract.ts'
import { useTempPaths } from '../support/temp-paths.ts'
import { waitUntil } from '../support/wait.ts'

const temp = useTempPaths('navi-query-')
const open: QuerySocket[] = []
afterEach(async () => {
  for (const socket of open.splice(0)) await socket.close()
})

async function serve(
  answer: (channel: QueryChannel, input: unknown) => Promise<IpcResult<unknown>> = async (
    channel,
    input,
  ) => ({ ok: true, data: { channel, input } }),
  asText?: (channel: QueryChannel, data: unknown, wanted: unknown) => string | null,
) {
  const path = querySocketPath(temp.paths)
  if (path === null) throw new Error('temp path too long for a socket')
  const problems: string[] = []
  const socket = await openQuerySocket({
    path,
    answer,
    onError: (m) => problems.push(m),
    ...(asText && { asText }),
  })
  if (socket) open.push(socket)
  return { path, socket, problems }
}

/** Sends raw bytes and returns what came back before the server closed. */
function raw(path: string, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = connect(path)
    let out = ''
    client.on('data', (c: Buffer) => (out += c.toString()))
    client.on('close', () => resolve(out))
    client.on('error', reject)
    client.on('connect', () => client.write(bytes))
  })
}

describe('the query socket of a running Navi', () => {
  it('answers a read-only channel, and only its owner may open it', async () => {
    const { path } = await serve()
    const asked = await askRunningNavi(temp.paths, 'sessions:list', { all: true })
    expect(asked).toEqual({ ok: true, data: { channel: 'sessions:list', input: { all: true } } })
    expect((await lstat(path)).mode & 0o777).toBe(0o600)
    expect((await lstat(join(path, '..'))).mode & 0o777).toBe(0o700)
  })

  it('refuses a channel that is not read-only, another protocol, and garbage', async () => {
    const { path } = await serve()
    const answer = (text: string) =>
      JSON.parse(text) as { result: { ok: boolean; error?: unknown } }
    const acting = answer(await raw(path, '{"v":1,"channel":"settings:set","input":{}}\n'))
    expect(acting.result).toEqual({
      ok: false,
      error: { code: 'unknown_channel', message: 'only read-only channels are served' },
    })
    const version = answer(await raw(path, '{"v":2,"channel":"state:get"}\n'))
    expect(version.result.ok).toBe(false)
    const garbage = answer(await raw(path, 'not json\n'))
    expect(garbage.result.ok).toBe(false)
  })

  it('answers the lines a command prints when it asks for them and they are written, else the data', async () => {
    const told: unknown[] = []
    await serve(undefined, (channel, data, wanted) => {
      told.push({ channel, data, wanted })
      return (wanted as { zone?: string }).zone === 'here' ? `lines of ${channel}` : null
    })
    const data = { channel: 'events:list', input: { limit: 5 } }
    expect(
      await askRunningNaviForText(temp.paths, 'events:list', { limit: 5 }, { zone: 'here' }),
    ).toEqual({ ok: true, text: 'lines of events:list' })
    expect(told).toEqual([{ channel: 'events:list', data, wanted: { zone: 'here' } }])
    // Lines it does not write: the data.
    expect(
      await askRunningNaviForText(temp.paths, 'events:list', { limit: 5 }, { zone: 'there' }),
    ).toEqual({ ok: true, data })
    // Not asked for lines: never given them, and the writer is not asked.
    expect(await askRunningNavi(temp.paths, 'events:list', { limit: 5 })).toEqual({ ok: true, data })
    expect(told).toHaveLength(2)
  })

  it('closes a connection whose request line never ends', async () => {
    const { path } = await serve()
    expect(await raw(path, 'x'.repeat(70 * 1024))).toBe('')
  })

  it('tells the asking side why it got no answer', async () => {
    expect(await askRunningNavi(temp.paths, 'state:get', undefined)).toEqual({
      ok: false,
      reason: 'absent',
    })
    await serve(async () => ({ ok: false, error: { code: 'failed', message: 'engine broke' } }))
    expect(await askRunningNavi(temp.paths, 'state:get', undefined)).toEqual({
      ok: false,
      reason: 'failed',
      message: 'engine broke',
    })
  })

  it('gives up on a Navi that does not answer in time', async () => {
    await serve(() => new Promise(() => undefined))
    const asked = await askRunningNavi(temp.paths, 'state:get', undefined, 200)
    expect(asked).toEqual({ ok: false, reason: 'failed', message: 'no answer within 200 ms' })
  })

  it('leaves the socket to a live Navi, and takes over one a dead Navi left', async () => {
    const first = await serve()
    expect(first.socket).not.toBeNull()
    const second = await serve()
    expect(second.socket).toBeNull()
    expect(second.problems).toEqual([expect.stringMatching(/another running Navi answers there/)])

    // A Navi killed with -9 leaves its socket file behind, with nobody answering on it.
    await first.socket?.close()
    open.splice(0)
    const path = first.path
    const child = spawn(process.execPath, [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`,
    ])
    await waitUntil(() => child.stdout.read() !== null, 10_000, 'the other process to listen')
    child.kill('SIGKILL')
    await waitUntil(() => child.exitCode !== null || child.signalCode !== null, 10_000, 'it to die')
    expect((await lstat(path)).isSocket()).toBe(true)
    const third = await serve()
    expect(third.socket).not.toBeNull()
    expect((await askRunningNavi(temp.paths, 'state:get', undefined)).ok).toBe(true)
  })

  it('refuses to replace a file that is not a socket', async () => {
    const path = querySocketPath(temp.paths) as string
    await mkdir(join(path, '..'), { recursive: true })
    await writeFile(path, 'mine')
    const { socket, problems } = await serve()
    expect(socket).toBeNull()
    expect(problems).toEqual([expect.stringMatching(/something other than a socket/)])
  })

  it('has no socket where the home is too deep for one, and then nobody is asked', async () => {
    const deep = { ...temp.paths, naviHome: join(temp.root, 'd'.repeat(120)) }
    expect(querySocketPath(deep)).toBeNull()
    expect(await askRunningNavi(deep, 'state:get', undefined)).toEqual({
      ok: false,
      reason: 'absent',
    })
  })
})
