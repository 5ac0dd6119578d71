/**
 * Incremental splitting of byte chunks into complete lines. Pure: bytes in, strings out.
 *
 * A line is only decoded once its `\n` has arrived, so a multi-byte UTF-8 character cut between two
 * chunks is never mangled, and a half-written last line stays pending until it is complete.
 */

const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d

export interface LineSplitter {
  /** Splits `chunk` (appended after everything pushed before) and returns the lines it completed. */
  push(chunk: Uint8Array): string[]
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
export function createLineSplitter(): LineSplitter {
  let pending: Buffer[] = []
  let pendingBytes = 0

  const emit = (lines: string[], buf: Buffer, start: number, end: number): void => {
    let stop = end
    if (stop > start && buf[stop - 1] === CARRIAGE_RETURN) stop--
    if (stop <= start) return
    const text = buf.toString('utf8', start, stop)
    if (text.trim() !== '') lines.push(text)
  }

  return {
    push(chunk) {
      const buf = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
      const lines: string[] = []
      let start = 0
      let newline = buf.indexOf(NEWLINE, start)
      if (newline !== -1 && pendingBytes > 0) {
        pending.push(buf.subarray(0, newline))
        const joined = Buffer.concat(pending, pendingBytes + newline)
        pending = []
        pendingBytes = 0
        emit(lines, joined, 0, joined.length)
        start = newline + 1
        newline = buf.indexOf(NEWLINE, start)
      }
      while (newline !== -1) {
        emit(lines, buf, start, newline)
        start = newline + 1
        newline = buf.indexOf(NEWLINE, start)
      }
      if (start < buf.length) {
        // Copy: the caller may reuse its read buffer for the next chunk.
        pending.push(Buffer.from(buf.subarray(start)))
        pendingBytes += buf.length - start
      }
      return lines
    },
    get pendingBytes() {
      return pendingBytes
    },
    reset() {
      pending = []
      pendingBytes = 0
    },
  }
}
