/**
 * What a kind of JSONL file brings to a JsonlFileSet (jsonl-file-set.ts): how its lines fold into a
 * summary, and how that summary is written to and read back from the index a new process resumes from.
 */
import type { LineParser } from './jsonl-tail.ts'

/** How one kind of JSONL file is folded into a summary. */
export interface JsonlFolder<S extends { corruptLines: number }> {
  create(path: string): S
  fold(summary: S, line: unknown): void
  /** How a line's bytes become the value `fold` reads. @default JSON.parse of the whole line */
  parseLine?: LineParser
  /** Lines whose bytes say the fold ignores them, dropped unparsed. */
  skipLine?: (buf: Buffer, start: number, end: number) => boolean
}

/** How summaries are persisted, so that a new process resumes each file at its last offset. */
export interface JsonlSummaryCodec<S> {
  /** Changes whenever the fold or the encoding does: an index of another version is ignored. */
  version: number
  encode(summary: S): unknown
  /** Null when `data` is not a summary of `path`: that file is then folded from byte 0. */
  decode(data: unknown, path: string): S | null
  /**
   * `decode` for data known to be exactly what `encode` wrote (its index's hash matched): no validation,
   * which is most of what decoding costs. @default decode
   */
  revive?(data: unknown, path: string): S | null
}

/**
 * An indexed summary: revived as it is when its index is Navi's own (hash matched), validated otherwise
 * or when reviving it throws (an index someone forged to match its hash).
 */
export function decodeIndexed<S>(
  codec: JsonlSummaryCodec<S>,
  data: unknown,
  path: string,
  trusted: boolean,
): S | null {
  if (trusted && codec.revive) {
    try {
      return codec.revive(data, path)
    } catch {
      // Not what encode wrote after all: the validating decode says what it is (usually: nothing).
    }
  }
  return codec.decode(data, path)
}
