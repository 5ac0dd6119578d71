import { createLineSplitter, type LineSplitter } from '../core/line-splitter.ts'
import {
  isMissingFileError,
  openRegularFile,
  openRegularFileSync,
  type ChunkReader,
} from './safe-read.ts'

/** 1 MiB: the most one `read` call asks for, so a huge file never needs one huge buffer. */
export const TAIL_CHUNK_BYTES = 1024 * 1024

export interface JsonlReadResult {
  /** Parsed JSON values of the lines completed since the previous call, in file order. */
  lines: unknown[]
  /** Complete lines that were not valid JSON, or longer than `MAX_LINE_BYTES` (skipped). */
  corrupt: number
  /** True when the file was truncated, replaced or removed: the caller must forget what it folded. */
  reset: boolean
  /** Bytes read from the file by this call. */
  bytesRead: number
}

/** Where a tail stands in one file: just after its last complete line, and which file it was. */
export interface TailPosition {
  offset: number
  dev: number
  ino: number
}

export interface JsonlTail {
  readonly path: string
  /** Byte offset up to which the file has been read (complete lines plus the pending part). */
  readonly offset: number
  /**
   * The end of the last complete line read, with the file's dev/inode: what a new tail needs to
   * resume (it re-reads a half-written last line). Null before the file was first opened.
   */
  position(): TailPosition | null
  /**
   * Reads only what was appended since the last call. Never throws for a missing file.
   * With `onLine`, each parsed line is handed over as soon as it is read and `lines` stays empty,
   * so folding a 1 GB file never holds all of its parsed lines at once; `onReset` then runs before
   * the first line of a call that starts over.
   */
  readNew(handlers?: JsonlTailHandlers): Promise<JsonlReadResult>
}

export interface JsonlTailHandlers {
  onLine?: (value: unknown) => void
  /**
   * Reads one line's bytes `buf[start, end)` into a value, throwing when it is not JSON. @default
   * `JSON.parse` of the decoded text; a fold that reads few fields passes a projection
   * (core/json-projection.ts) so that the rest is never decoded.
   */
  parseLine?: LineParser
  /** A line not worth parsing (a bulky line type the fold ignores): dropped unparsed. */
  skipLine?: (buf: Buffer, start: number, end: number) => boolean
  onReset?: () => void
  /** Read with blocking calls (a fold worker, which has nothing else to do meanwhile; a small append). */
  blocking?: boolean
}

export type LineParser = (buf: Buffer, start: number, end: number) => unknown

const parseWholeLine: LineParser = (buf, start, end) => JSON.parse(buf.toString('utf8', start, end))

/**
 * Read buffers are reused: a fresh 1 MiB buffer per file is memory the garbage collector gives back
 * late, so a cold index of 500 files would hold hundreds of MB it no longer needs. Lines never point
 * into a buffer after `readNew` returns (the splitter copies what stays pending).
 */
const spareBuffers: Buffer[] = []
const SPARE_BUFFERS_KEPT = 8

function takeReadBuffer(bytes: number): Buffer {
  if (bytes < TAIL_CHUNK_BYTES / 4) return Buffer.allocUnsafe(bytes)
  return spareBuffers.pop() ?? Buffer.allocUnsafe(TAIL_CHUNK_BYTES)
}

function giveBackReadBuffer(buffer: Buffer): void {
  if (buffer.length === TAIL_CHUNK_BYTES && spareBuffers.length < SPARE_BUFFERS_KEPT)
    spareBuffers.push(buffer)
}

interface FileIdentity {
  dev: number
  ino: number
}

/**
 * Follows one append-only JSONL file by byte offset. Survives truncation (size below the offset),
 * replacement (other dev/inode, e.g. an atomic rename), a half-written last line (kept until its
 * newline arrives) and a missing file. Errors other than "missing" (EACCES, EISDIR…) are thrown.
 * `from` resumes where an earlier tail's `position()` stood; if that file was since replaced or
 * truncated, the first read starts over (`reset`) as it would have in the earlier tail.
 */
export function createJsonlTail(
  path: string,
  chunkBytes = TAIL_CHUNK_BYTES,
  from: TailPosition | null = null,
): JsonlTail {
  // Made at the first read: a warm start resumes thousands of tails, most of which never read a byte.
  let splitter: LineSplitter | null = null
  let offset = from?.offset ?? 0
  let identity: FileIdentity | null = from ? { dev: from.dev, ino: from.ino } : null

  const startOver = (): boolean => {
    const hadState = offset > 0 || identity !== null
    offset = 0
    identity = null
    splitter?.reset()
    return hadState
  }

  return {
    path,
    get offset() {
      return offset
    },
    position() {
      if (identity === null) return null
      const pending = splitter?.pendingBytes ?? 0
      return { offset: offset - pending, dev: identity.dev, ino: identity.ino }
    },
    async readNew(handlers = {}) {
      const result: JsonlReadResult = { lines: [], corrupt: 0, reset: false, bytesRead: 0 }
      const deliver = handlers.onLine ?? ((value: unknown) => void result.lines.push(value))
      const parse = handlers.parseLine ?? parseWholeLine
      const skip = handlers.skipLine
      const onBytes = (buf: Buffer, start: number, stop: number): void => {
        if (skip?.(buf, start, stop)) return
        let value: unknown
        try {
          value = parse(buf, start, stop)
        } catch {
          // Not JSON (a half-written line after a crash, garbage): counted, never folded.
          result.corrupt++
          return
        }
        deliver(value)
      }
      const restart = (): void => {
        if (!startOver()) return
        result.reset = true
        handlers.onReset?.()
      }
      let handle: ChunkReader
      try {
        handle = handlers.blocking ? openRegularFileSync(path) : await openRegularFile(path)
      } catch (error) {
        if (!isMissingFileError(error)) throw error
        restart()
        return result
      }
      try {
        const stat = await handle.stat()
        const replaced =
          identity !== null && (identity.dev !== stat.dev || identity.ino !== stat.ino)
        if (replaced || stat.size < offset) restart()
        identity = { dev: stat.dev, ino: stat.ino }
        const end = stat.size
        if (offset >= end) return result
        const pooled = takeReadBuffer(Math.min(chunkBytes, end - offset))
        const buffer = pooled.subarray(0, Math.min(chunkBytes, end - offset))
        const lines = (splitter ??= createLineSplitter())
        try {
          while (offset < end) {
            const want = Math.min(buffer.length, end - offset)
            const { bytesRead } = await handle.read(buffer, 0, want, offset)
            if (bytesRead === 0) break
            offset += bytesRead
            result.bytesRead += bytesRead
            const oversizedBefore = lines.oversized
            lines.pushBytes(buffer.subarray(0, bytesRead), onBytes)
            // A line over the splitter's cap is skipped unread, and counted like a corrupt one.
            result.corrupt += lines.oversized - oversizedBefore
          }
        } finally {
          giveBackReadBuffer(pooled)
        }
        return result
      } finally {
        await handle.close()
      }
    },
  }
}
