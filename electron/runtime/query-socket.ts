/**
 * The running Navi's side of the query socket (query-protocol.ts): it answers `navi status`, `sessions`
 * and `events` from the state it keeps, after one cycle that looks at everything again (cheap in a
 * running engine: its indexes, repositories and modules are warm). Only its owner can connect: the folder is 0700 and the socket 0600. Bounded: a few
 * connections at a time, a request of at most 64 KiB within 10 s, and a socket left by a Navi that died
 * is replaced, while one a live Navi answers on is left to it, unless that Navi is a background runtime a
 * command started (cli/background.ts), which steps aside when asked (STEP_ASIDE).
 */
import { chmod, lstat, mkdir, unlink } from 'node:fs/promises'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { dirname } from 'node:path'
import type { IpcResult } from '../../shared/ipc-contract.ts'
import { errorText } from '../../shared/log.ts'
import {
  isQueryChannel,
  MAX_REQUEST_BYTES,
  QUERY_PROTOCOL,
  STEP_ASIDE,
  type QueryAnswer,
  type QueryChannel,
} from './query-protocol.ts'

export interface QuerySocket {
  readonly path: string
  close(): Promise<void>
}

export interface QuerySocketOptions {
  path: string
  answer(channel: QueryChannel, input: unknown): Promise<IpcResult<unknown>>
  /**
   * The lines a command prints for `data`, the answer to `channel`, when a request asks for them as
   * `wanted` (QueryRequest.text) and this Navi writes them; null: the data is answered.
   */
  asText?: (channel: QueryChannel, data: unknown, wanted: unknown) => string | null
  /** Told why the socket is not served (another Navi serves it, the folder is not writable…). */
  onError(message: string): void
  /**
   * Only for a runtime that gives the socket up when another Navi starts (cli/background.ts): called once
   * that one's request to step aside has been answered.
   */
  stepAside?: () => void
}

const MAX_CONNECTIONS = 16
const REQUEST_TIMEOUT_MS = 10_000
/** How long a socket already there may take to answer a connection before it is taken for dead. */
const PROBE_TIMEOUT_MS = 500
/** How long a live socket may take to answer a request to step aside (it is busy serving, so longer than a probe). */
const STEP_ASIDE_ASK_TIMEOUT_MS = 2_000
/** How long a background runtime that agreed to step aside may take to stop answering. */
const STEP_ASIDE_TIMEOUT_MS = 5_000
const STEP_ASIDE_POLL_MS = 25

/** Serves the socket at `opts.path`; null when it is not served (said through `onError`). */
export async function openQuerySocket(opts: QuerySocketOptions): Promise<QuerySocket | null> {
  const { path } = opts
  const isPipe = process.platform === 'win32'
  try {
    if (!isPipe) {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 })
      await chmod(dirname(path), 0o700)
      if (!(await claimPath(path))) {
        opts.onError(`${path}: another running Navi answers there; this one does not`)
        return null
      }
    }
  } catch (error) {
    opts.onError(`${path}: cannot serve the query socket (${errorText(error)})`)
    return null
  }
  const open = new Set<Socket>()
  const server = createServer((socket) => {
    open.add(socket)
    socket.on('close', () => open.delete(socket))
    serve(socket, opts)
  })
  server.maxConnections = MAX_CONNECTIONS
  try {
    await listen(server, path)
    if (!isPipe) await chmod(path, 0o600)
  } catch (error) {
    server.close()
    opts.onError(`${path}: cannot serve the query socket (${errorText(error)})`)
    return null
  }
  return {
    path,
    async close() {
      for (const socket of open) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      // The server removes its socket file on close; one left behind (a crash) is claimed next time.
    },
  }
}

/**
 * Makes `path` free for this Navi: a socket nobody answers on (left by a Navi that died) is removed; a
 * socket a live Navi answers on is not taken (false); anything else in its place is refused (throws).
 */
async function claimPath(path: string): Promise<boolean> {
  const found = await lstat(path).catch(() => null)
  if (found === null) return true
  if (!found.isSocket()) throw new Error('something other than a socket is in its place')
  if ((await answers(path)) && !(await steppedAside(path))) return false
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    // A runtime that stepped aside removed it on its way out.
    if (error.code !== 'ENOENT') throw error
  })
  return true
}

/**
 * Asks the Navi answering at `path` to step aside; true once it agreed and stopped answering. Only a
 * background runtime agrees (the tray, `navi watch` and `navi serve` refuse): the Navi the user started
 * answers the commands, and the background one, which no one asked for, exits.
 */
async function steppedAside(path: string): Promise<boolean> {
  if (!(await askStepAside(path))) return false
  const deadline = Date.now() + STEP_ASIDE_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (!(await answers(path))) return true
    await new Promise((resolve) => setTimeout(resolve, STEP_ASIDE_POLL_MS))
  }
  return false
}

function askStepAside(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path)
    const chunks: Buffer[] = []
    const done = (agreed: boolean) => {
      socket.destroy()
      resolve(agreed)
    }
    socket.setTimeout(STEP_ASIDE_ASK_TIMEOUT_MS, () => done(false))
    socket.once('error', () => done(false))
    socket.once('connect', () =>
      socket.write(`${JSON.stringify({ v: QUERY_PROTOCOL, channel: STEP_ASIDE })}\n`),
    )
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.once('end', () => {
      try {
        const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as QueryAnswer
        done(answer.result.ok)
      } catch {
        done(false)
      }
    })
  })
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path)
    const done = (alive: boolean) => {
      probe.destroy()
      resolve(alive)
    }
    probe.setTimeout(PROBE_TIMEOUT_MS, () => done(false))
    probe.once('connect', () => done(true))
    probe.once('error', () => done(false))
  })
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(path, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

/** One connection: one request line in, one answer line out, then closed. */
function serve(socket: Socket, opts: QuerySocketOptions): void {
  socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy())
  // A client that goes away mid-answer is nobody's error.
  socket.on('error', () => undefined)
  const chunks: Buffer[] = []
  let size = 0
  let asked = false
  socket.on('data', (chunk: Buffer) => {
    if (asked) return
    chunks.push(chunk)
    size += chunk.length
    const newline = chunk.indexOf(0x0a)
    if (newline === -1) {
      if (size > MAX_REQUEST_BYTES) socket.destroy()
      return
    }
    asked = true
    const line = Buffer.concat(chunks).toString('utf8', 0, size - chunk.length + newline)
    void answerLine(line, opts).then(({ answer, stepAside }) => {
      socket.end(`${JSON.stringify(answer)}\n`, () => {
        if (stepAside) opts.stepAside?.()
      })
    })
  })
}

async function answerLine(
  line: string,
  opts: QuerySocketOptions,
): Promise<{ answer: QueryAnswer; stepAside?: true }> {
  const answer = await answerRequest(line, opts)
  return answer === 'step aside'
    ? { answer: { v: QUERY_PROTOCOL, result: { ok: true, data: null } }, stepAside: true }
    : { answer }
}

async function answerRequest(
  line: string,
  opts: QuerySocketOptions,
): Promise<QueryAnswer | 'step aside'> {
  const fail = (code: string, message: string): QueryAnswer => ({
    v: QUERY_PROTOCOL,
    result: { ok: false, error: { code, message } },
  })
  let request: unknown
  try {
    request = JSON.parse(line)
  } catch {
    return fail('bad_request', 'not a JSON line')
  }
  if (typeof request !== 'object' || request === null) return fail('bad_request', 'not a request')
  const { v, channel, input, text } = request as Record<string, unknown>
  if (v !== QUERY_PROTOCOL) return fail('bad_version', `protocol ${String(v)} is not served`)
  if (channel === STEP_ASIDE)
    return opts.stepAside ? 'step aside' : fail('refused', 'this Navi was started by its user')
  if (!isQueryChannel(channel)) return fail('unknown_channel', 'only read-only channels are served')
  try {
    const result = await opts.answer(channel, input)
    const lines =
      text !== undefined && result.ok ? (opts.asText?.(channel, result.data, text) ?? null) : null
    return lines === null
      ? { v: QUERY_PROTOCOL, result }
      : { v: QUERY_PROTOCOL, result: { ok: true, data: null }, text: lines }
  } catch (error) {
    return fail('failed', errorText(error))
  }
}
