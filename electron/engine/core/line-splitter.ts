/**
 * Incremental splitting of byte chunks into complete lines. Pure: bytes in, lines out, either as strings
 * or as byte ranges that the caller reads in place (a JSON projection never decodes most of a line).
 *
 * A line is only handed out once its `\n` has arrived, so a multi-byte UTF-8 character cut between two
 * chunks is never mangled, and a half-written last line stays pending until it is complete.
 */

const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d

/**
 * Longest line kept: a real transcript line is at most a few MB (a pasted image, a large tool result); a
 * longer one is skipped without ever being held whole, so a 100 MB prompt costs neither the memory nor
 * the parse. @default 16 MiB
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024

/** A complete line: `buf[start, end)`, valid only during the call (the buffer is reused). */
export type OnLineBytes = (buf: Buffer, start: number, end: number) => void

export interface LineSplitter {
  /** Splits `chunk` (appended after everything pushed before) and returns the lines it completed. */
  push(chunk: Uint8Array): string[]
  /** The same split, each completed line handed to `onLine` as bytes, in order, undecoded. */
  pushBytes(chunk: Uint8Array, onLine: OnLineBytes): void
  /** Lines longer than the cap skipped so far (never returned). */
  readonly oversized: number
  /** Bytes of the incomplete last line that are waiting for their newline. */
  readonly pendingBytes: number
  /** Forgets the pending bytes, e.g. when the file was truncated or replaced. */
  reset(): void
}

/**
 * Creates a splitter. Empty and whitespace-only lines are dropped; a trailing `\r` is stripped.
 * The pending remainder is kept as a list of Buffers so a line of many MB that arrives in many
 * chunks is concatenated once, when its newline arrives.
 */
export function createLineSplitter(maxLineBytes = MAX_LINE_BYTES): LineSplitter {
  let pending: Buffer[] = []
  let pendingBytes = 0
  /** Inside a line already over the cap: its bytes are dropped until its newline. */
  let skipping = false
  let oversized = 0

  /** Hands on `buf[start, end)` without a trailing `\r`, unless it is blank. */
  const emit = (onLine: OnLineBytes, buf: Buffer, start: number, end: number): void => {
    let stop = end
    if (stop > start && buf[stop - 1] === CARRIAGE_RETURN) stop--
    if (!isBlank(buf, start, stop)) onLine(buf, start, stop)
  }

  const pushBytes = (chunk: Uint8Array, onLine: OnLineBytes): void => {
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    let start = 0
    let newline = buf.indexOf(NEWLINE, start)
    if (skipping) {
      if (newline === -1) return
      skipping = false
      start = newline + 1
      newline = buf.indexOf(NEWLINE, start)
    } else if (newline !== -1 && pendingBytes + newline > maxLineBytes) {
      oversized++
      pending = []
      pendingBytes = 0
      start = newline + 1
      newline = buf.indexOf(NEWLINE, start)
    }
    if (newline !== -1 && pendingBytes > 0) {
      pending.push(buf.subarray(0, newline))
      const joined = Buffer.concat(pending, pendingBytes + newline)
      pending = []
      pendingBytes = 0
      emit(onLine, joined, 0, joined.length)
      start = newline + 1
      newline = buf.indexOf(NEWLINE, start)
    }
    while (newline !== -1) {
      if (newline - start > maxLineBytes) oversized++
      else emit(onLine, buf, start, newline)
      start = newline + 1
      newline = buf.indexOf(NEWLINE, start)
    }
    if (pendingBytes + (buf.length - start) > maxLineBytes) {
      // The unfinished line is already too long: forget it and skip the rest of it.
      oversized++
      pending = []
      pendingBytes = 0
      skipping = true
      return
    }
    if (start < buf.length) {
      // Copy: the caller may reuse its read buffer for the next chunk.
      pending.push(Buffer.from(buf.subarray(start)))
      pendingBytes += buf.length - start
    }
  }

  return {
    push(chunk) {
      const lines: string[] = []
      pushBytes(chunk, (buf, start, end) => lines.push(buf.toString('utf8', start, end)))
      return lines
    },
    pushBytes,
    get pendingBytes() {
      return pendingBytes
    },
    get oversized() {
      return oversized
    },
    reset() {
      pending = []
      pendingBytes = 0
      skipping = false
    },
  }
}

/**
 * True when the line holds only whitespace. ASCII whitespace is checked on the bytes; a line that starts
 * with other bytes of 0x80 and up is decoded to be sure (`trim()` also strips NBSP, BOM, U+2028…).
 */
function isBlank(buf: Buffer, start: number, end: number): boolean {
  let i = start
  while (i < end) {
    const c = buf[i] as number
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0b || c === 0x0c || c === 0x0d) i++
    else if (c < 0x80) return false
    else return buf.toString('utf8', i, end).trim() === ''
  }
  return true
}
