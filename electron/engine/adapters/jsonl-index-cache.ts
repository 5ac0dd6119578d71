/**
 * The on-disk index of a JsonlFileSet: per file, its identity, the offset folded up to and the
 * encoded summary, so that a restarted Navi resumes each file instead of re-reading it. It is an
 * optimization only: a missing, corrupt or foreign index reads as empty (start cold).
 *
 * Layout (`navi-jsonl-index/3`): a header line `{format, summaryVersion, sha256, stamp}`, then one line
 * per file (its identity, then its summary), whose SHA-256 the header holds, with the modification time
 * the file was given (its stamp, core/file-stamp.ts). An index still carrying its stamp, or whose lines
 * match its hash, is exactly what a Navi wrote, and is used as it is; validating every summary of it with
 * zod was most of what a start with nothing new cost (500 sessions: ~30 ms). Anything else (a hash that
 * does not match, an index of an older layout) is validated entry by entry, and a bad entry is only that
 * file read again.
 *
 * One line per file so that a file unchanged since the index was written is written again as the very
 * text it was read as: one transcript grown under a `navi status` while agents work had all 500 summaries
 * encoded again (~8 ms of the command). The older layouts (`/2`: the files as one JSON array; `/1`: one
 * object) are still read.
 */
import { isAscii } from 'node:buffer'
import { sha256Hex } from '../core/digest.ts'
import { carriesStamp, newFileStamp } from '../core/file-stamp.ts'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import * as z from 'zod'
import { isMissingFileError, readErrorText, readRegularFileSync } from './safe-read.ts'
import { writeFileSafely } from './safe-write.ts'
import { asciiJsonText } from '../core/ascii-json.ts'
import { lazySchema } from '../../../shared/schemas/lazy-schema.ts'
import { withBuffer } from './jsonl-index-buffer.ts'

/** An index larger than this is not read (cold start instead). @default 512 MiB */
const INDEX_MAX_BYTES = 512 * 1024 * 1024

/** The layout of the index file itself; the summaries inside carry their own version. */
const INDEX_FORMAT = 'navi-jsonl-index/3'
/** The layout before: the files as one JSON array after the header. Still read. */
const INDEX_FORMAT_2 = 'navi-jsonl-index/2'
/** The layout before that: one JSON object, always validated. Still read. */
const INDEX_FORMAT_1 = 'navi-jsonl-index/1'
/** What precedes the summary on each line (`writeIndex` puts it last): never inside a JSON string. */
const SUMMARY_KEY = ',"summary":'

/** One file as it was when the index was written. */
export interface IndexedFile {
  path: string
  dev: number
  ino: number
  /** Size and mtime of the last stat: when both (and dev/ino) still match, the file is not opened. */
  size: number
  mtimeMs: number
  /** End of the last complete line folded into `summary`. */
  offset: number
  /** The folder's encoding of the summary; decoded only when the file is listed again. */
  summary: unknown
}

/**
 * One file as `saveJsonlIndex` writes it: its summary already encoded as ASCII JSON text (`asciiJsonText`),
 * which a fold worker makes, or a file set keeps between saves of an unchanged file.
 */
export type IndexedFileText = Omit<IndexedFile, 'summary'> & { summaryJson: string }

/** The files of an index, and whether they are exactly what a Navi wrote (their hash matched). */
export interface LoadedIndex {
  files: Map<string, IndexedFile>
  /**
   * Each file's summary as the text the index holds, by path, where that text can be written again as it
   * is (a trusted index of this layout): an unchanged file costs no encoding at the next save.
   */
  summaryTexts: Map<string, string>
  trusted: boolean
  /**
   * It still carried its stamp: believed without hashing. An index that did not (an older Navi's, one
   * touched since) is worth writing again, or every start hashes it.
   */
  stamped: boolean
}

const indexedFileSchema = lazySchema(() =>
  z.object({
    path: z.string(),
    dev: z.number(),
    ino: z.number(),
    size: z.number(),
    mtimeMs: z.number(),
    offset: z.number().int().nonnegative(),
    summary: z.unknown(),
  }),
)

const headerSchema = lazySchema(() =>
  z.object({
    format: z.enum([INDEX_FORMAT, INDEX_FORMAT_2]),
    summaryVersion: z.number(),
    sha256: z.string(),
    /** The file's modification time as written (core/file-stamp.ts); absent from older indexes. */
    stamp: z.number().optional(),
  }),
)

const indexV1Schema = lazySchema(() =>
  z.object({
    format: z.literal(INDEX_FORMAT_1),
    summaryVersion: z.number(),
    files: z.array(z.unknown()),
  }),
)

const NEWLINE = 0x0a

/**
 * The files of the index at `file`, by path, when it was written with `summaryVersion`. Anything
 * else (missing, unreadable, not JSON, other version) is an empty index; a bad entry is skipped.
 */
export async function loadJsonlIndex(
  file: string,
  summaryVersion: number,
  onProblem: (message: string) => void = () => undefined,
): Promise<LoadedIndex> {
  return withBuffer(file, (bufferOf) => readIndex(file, summaryVersion, onProblem, bufferOf))
}

async function readIndex(
  file: string,
  summaryVersion: number,
  onProblem: (message: string) => void,
  bufferOf: (bytes: number) => Buffer,
): Promise<LoadedIndex> {
  const empty: LoadedIndex = {
    files: new Map(),
    summaryTexts: new Map(),
    trusted: false,
    stamped: false,
  }
  let bytes: Buffer
  let mtimeMs = Number.NaN
  try {
    // Read at once: it is read once per process, and the thread pool's six trips idled the start.
    bytes = readRegularFileSync(file, {
      maxBytes: INDEX_MAX_BYTES,
      into: bufferOf,
      stats: (stats) => (mtimeMs = stats.mtimeMs),
    })
  } catch (error) {
    // Missing is the normal first start; anything else is worth a line: the next start is cold.
    if (!isMissingFileError(error))
      onProblem(`${file}: ${readErrorText(error)}; indexing from scratch`)
    return empty
  }
  const split = bytes.indexOf(NEWLINE)
  try {
    const head: unknown = JSON.parse(bytes.toString('utf8', 0, split === -1 ? bytes.length : split))
    const header = headerSchema.safeParse(head)
    if (header.success) {
      if (header.data.summaryVersion !== summaryVersion) return empty
      // Untouched since written (its stamp), or hashed as bytes, as written: no copy of the text to encode.
      const body = bytes.subarray(split + 1)
      const stamped = carriesStamp(mtimeMs, header.data.stamp)
      const trusted = stamped || sha256Hex(body) === header.data.sha256
      // What a Navi writes is ASCII (writeIndex; older ones wrote UTF-8). ASCII decoded as Latin-1 is the
      // same text, without UTF-8's checks, and past a megabyte Node keeps it outside the JavaScript heap.
      const ascii = isAscii(body)
      const text = body.toString(ascii ? 'latin1' : 'utf8')
      if (header.data.format === INDEX_FORMAT_2)
        return { ...empty, files: collect(JSON.parse(text), trusted), trusted, stamped }
      // Texts kept only as ASCII, as they are written again (writeIndex writes Latin-1).
      return { ...collectLines(text, trusted, trusted && ascii), trusted, stamped }
    }
    const v1 = indexV1Schema.safeParse(head)
    if (!v1.success || v1.data.summaryVersion !== summaryVersion) return empty
    return { ...empty, files: collect(v1.data.files, false) }
  } catch (error) {
    onProblem(`${file}: ${readErrorText(error)}; indexing from scratch`)
    return empty
  }
}

/** The entries by path; those of an index not known to be Navi's own are validated one by one. */
function collect(entries: unknown, trusted: boolean): Map<string, IndexedFile> {
  const files = new Map<string, IndexedFile>()
  if (!Array.isArray(entries)) return files
  for (const entry of entries) addEntry(files, entry, trusted)
  return files
}

function addEntry(files: Map<string, IndexedFile>, entry: unknown, trusted: boolean): void {
  if (trusted) {
    const file = entry as IndexedFile
    files.set(file.path, file)
    return
  }
  const parsed = indexedFileSchema.safeParse(entry)
  if (parsed.success) files.set(parsed.data.path, { ...parsed.data, summary: parsed.data.summary })
}

/**
 * The entries of the line layout; with `keepTexts` (a trusted index, all ASCII) also each summary's text
 * (its line after the identity: `writeIndex` writes it last), kept to be written again while the file is
 * unchanged.
 */
function collectLines(
  text: string,
  trusted: boolean,
  keepTexts: boolean,
): Pick<LoadedIndex, 'files' | 'summaryTexts'> {
  const files = new Map<string, IndexedFile>()
  const summaryTexts = new Map<string, string>()
  let at = 0
  while (at < text.length) {
    let end = text.indexOf('\n', at)
    if (end === -1) end = text.length
    const line = text.slice(at, end)
    at = end + 1
    if (line === '') continue
    let entry: unknown
    try {
      entry = JSON.parse(line)
    } catch {
      // Not what a Navi wrote (it would be trusted): only this file is read again.
      continue
    }
    addEntry(files, entry, trusted)
    const key = line.indexOf(SUMMARY_KEY)
    if (keepTexts && key !== -1 && line.endsWith('}'))
      summaryTexts.set((entry as IndexedFile).path, line.slice(key + SUMMARY_KEY.length, -1))
  }
  return { files, summaryTexts }
}

/**
 * Replaces the index at `file` atomically (a crash leaves the old index or the new one). Not synced to
 * the disk: it is a cache, and losing it to a power cut costs one cold start, not a fact.
 */
export async function saveJsonlIndex(
  file: string,
  summaryVersion: number,
  files: readonly (IndexedFile | IndexedFileText)[],
): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await withBuffer(file, (bufferOf) => writeIndex(file, summaryVersion, files, bufferOf))
}

async function writeIndex(
  file: string,
  summaryVersion: number,
  files: readonly (IndexedFile | IndexedFileText)[],
  bufferOf: (bytes: number) => Buffer,
): Promise<void> {
  // The same bytes as `asciiJson(JSON.stringify(files))`, made one file at a time. ASCII: one `…` in a
  // prompt made the whole index a two-byte string at every start (decoded three times slower, held in
  // twice the memory). One file at a time: the whole array as one string, and its escaped copies, were
  // 25 MB of garbage and 15 ms per save at 500 sessions, every 30 s of a running engine.
  // The header is written last, in front of the body: room is left for it.
  const headerRoom = 160
  let buffer = bufferOf(headerRoom + 2)
  let end = headerRoom
  const add = (text: string) => {
    if (buffer.length < end + text.length) buffer = bufferOf(end + text.length)
    end += buffer.write(text, end, 'latin1')
  }
  for (const indexed of files) {
    // One line per file: its identity's fields in their order, the summary last (collectLines).
    if ('summaryJson' in indexed) {
      const { summaryJson, ...identity } = indexed
      add(`${asciiJsonText(identity).slice(0, -1)}${SUMMARY_KEY}${summaryJson}}\n`)
    } else {
      const { summary, ...identity } = indexed
      add(`${asciiJsonText(identity).slice(0, -1)}${SUMMARY_KEY}${asciiJsonText(summary)}}\n`)
    }
  }
  const body = buffer.subarray(headerRoom, end)
  const sha256 = sha256Hex(body)
  const stamp = newFileStamp()
  const header = `${JSON.stringify({ format: INDEX_FORMAT, summaryVersion, sha256, stamp })}\n`
  const start = headerRoom - header.length
  if (start < 0) throw new Error(`index header longer than ${String(headerRoom)} bytes`)
  buffer.write(header, start, 'latin1')
  await writeFileSafely(file, buffer.subarray(start, end), { fsync: false, stampMs: stamp })
}
