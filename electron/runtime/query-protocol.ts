/**
 * How a `navi` command asks a running Navi (the tray, `navi watch`, `navi serve`) for what it already
 * knows, instead of loading the engine and reading everything again: one JSON line asked, one answered,
 * over a Unix socket in `$NAVI_HOME/run/` that only its owner can open (a named pipe on Windows). Only
 * the read-only channels are served. Zod-free, so the asking side stays small.
 */
import { sha256Hex } from '../engine/core/digest.ts'
import { join } from 'node:path'
import type { IpcResult } from '../../shared/ipc-contract.ts'
import { naviFiles, type EnginePaths } from '../engine/core/paths.ts'

/** Bumped when a request or an answer changes shape: each side ignores the other version. */
export const QUERY_PROTOCOL = 1

/** What may be asked: reading only. Acting on agents never goes through this socket. */
export const QUERY_CHANNELS = [
  'state:get',
  'sessions:list',
  'events:list',
  'suggestions:list',
] as const
export type QueryChannel = (typeof QUERY_CHANNELS)[number]

/**
 * Not a query: what a Navi starting with this home (the tray, `navi watch`, `navi serve`) asks of the one
 * answering on the socket when that one is the background runtime a command started (cli/background.ts):
 * to stop answering and exit, so that the Navi the user started answers. Every other runtime refuses it.
 */
export const STEP_ASIDE = 'runtime:step-aside'

/**
 * Whether a running Navi runs a cycle before it answers, so that what changed before the question is in
 * the answer. Not for the suggestions (`navi status` asks for them right after the state, whose cycle
 * just ran), nor for a later page of the events (`before` the previous page's oldest): it lists what is
 * older than the first page, which that page's cycle brought current.
 */
export function refreshesBefore(channel: QueryChannel, input: unknown): boolean {
  if (channel === 'suggestions:list') return false
  if (channel !== 'events:list') return true
  const before =
    typeof input === 'object' && input !== null ? (input as { before?: unknown }).before : undefined
  return typeof before !== 'string'
}

export interface QueryRequest {
  v: typeof QUERY_PROTOCOL
  channel: QueryChannel
  input: unknown
  /**
   * The answer as the lines the command prints, when the Navi asked writes these lines (which lines:
   * shared/events-text.ts, `events:list` only). Otherwise, or when the answer does not fit one such
   * text (more pages), it is the data, as without.
   */
  text?: unknown
}

export interface QueryAnswer {
  v: typeof QUERY_PROTOCOL
  /** With `text`, `{ ok: true, data: null }`: the answer is the text. */
  result: IpcResult<unknown>
  text?: string
}

/** A request line longer than this is not one of ours: the connection is closed. */
export const MAX_REQUEST_BYTES = 64 * 1024

/** The longest path a Unix socket may have (macOS allows 104 bytes with the terminating NUL). */
const MAX_SOCKET_PATH = 103

/**
 * Where the socket of the Navi whose home is `paths.naviHome` is, or null where it cannot be (a home so
 * deep that its path does not fit a socket address): then every command computes its answer itself.
 */
export function querySocketPath(paths: EnginePaths, platform = process.platform): string | null {
  if (platform === 'win32') {
    const id = sha256Hex(paths.naviHome).slice(0, 16)
    return `\\\\.\\pipe\\navi-query-${id}`
  }
  const path = join(naviFiles(paths).runDir, 'query.sock')
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : null
}

export function isQueryChannel(value: unknown): value is QueryChannel {
  return typeof value === 'string' && (QUERY_CHANNELS as readonly string[]).includes(value)
}
