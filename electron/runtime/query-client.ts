/**
 * The asking side of the query socket (query-protocol.ts): a read-only `navi` command asks a running Navi
 * first, and computes the answer itself only when none answers. Small on purpose (no engine, no zod):
 * when a Navi runs, this is all a command loads besides its printing.
 */
import { existsSync } from 'node:fs'
import type { IpcOutput } from '../../shared/ipc-contract.ts'
import type { EnginePaths } from '../engine/core/paths.ts'
import { net } from '../engine/adapters/lazy-builtins.ts'
import { QUERY_PROTOCOL, querySocketPath, type QueryChannel } from './query-protocol.ts'

/** A Navi that is running answers within a cycle; one that does not after this is not waited for. */
const ANSWER_TIMEOUT_MS = 5000

/** Why no answer came: `absent` is the usual (no Navi running), the others are worth a line. */
export type NoAnswer = { reason: 'absent' } | { reason: 'failed'; message: string }

export type Asked<C extends QueryChannel> =
  { ok: true; data: IpcOutput<C> } | ({ ok: false } & NoAnswer)

/** Asked for the lines and given them (QueryRequest.text), or else as `Asked`. */
export type AskedForText<C extends QueryChannel> = Asked<C> | { ok: true; text: string }

/** Asks the Navi running with this home for `channel`; says why not when it cannot. */
export function askRunningNavi<C extends QueryChannel>(
  paths: EnginePaths,
  channel: C,
  input: unknown,
  timeoutMs = ANSWER_TIMEOUT_MS,
): Promise<Asked<C>> {
  // Not asked for text: given none.
  return ask(paths, channel, input, timeoutMs, undefined) as Promise<Asked<C>>
}

/**
 * As `askRunningNavi`, asking for the lines the command prints (`wanted`: which ones, QueryRequest.text);
 * a Navi that does not write them answers the data.
 */
export function askRunningNaviForText<C extends QueryChannel>(
  paths: EnginePaths,
  channel: C,
  input: unknown,
  wanted: unknown,
): Promise<AskedForText<C>> {
  return ask(paths, channel, input, ANSWER_TIMEOUT_MS, wanted)
}

function ask<C extends QueryChannel>(
  paths: EnginePaths,
  channel: C,
  input: unknown,
  timeoutMs: number,
  text: unknown,
): Promise<AskedForText<C>> {
  const path = querySocketPath(paths)
  if (path === null) return Promise.resolve({ ok: false, reason: 'absent' })
  // `node:net` (and the streams under it) only when a socket is there to ask: with no Navi running, the
  // command computes its answer without it. A named pipe (Windows) is always asked.
  if (process.platform !== 'win32' && !existsSync(path))
    return Promise.resolve({ ok: false, reason: 'absent' })
  const { createConnection } = net()
  return new Promise((resolve) => {
    const socket = createConnection(path)
    const chunks: Buffer[] = []
    let settled = false
    const finish = (asked: AskedForText<C>) => {
      if (settled) return
      settled = true
      socket.destroy()
      resolve(asked)
    }
    const failed = (message: string) => finish({ ok: false, reason: 'failed', message })
    socket.setTimeout(timeoutMs, () => failed(`no answer within ${timeoutMs} ms`))
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // No socket, or one a Navi left when it died: nobody is running, the usual case.
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')
        finish({ ok: false, reason: 'absent' })
      else failed(error.message)
    })
    socket.on('connect', () => {
      const request = text === undefined ? { channel, input } : { channel, input, text }
      socket.write(`${JSON.stringify({ v: QUERY_PROTOCOL, ...request })}\n`)
    })
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('end', () => {
      let answer: unknown
      try {
        answer = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        return failed('its answer is not JSON')
      }
      const { v, result, text: lines } = (answer ?? {}) as {
        v?: unknown
        result?: { ok?: unknown; data?: unknown; error?: { message?: unknown } }
        text?: unknown
      }
      if (v !== QUERY_PROTOCOL)
        return failed(`it speaks protocol ${String(v)}, not ${QUERY_PROTOCOL}`)
      if (result?.ok !== true)
        return failed(String(result?.error?.message ?? 'it could not answer'))
      if (text !== undefined && typeof lines === 'string') return finish({ ok: true, text: lines })
      finish({ ok: true, data: result.data as IpcOutput<C> })
    })
  })
}
