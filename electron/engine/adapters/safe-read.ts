/**
 * Reading a file Navi did not write itself (or that anyone could have replaced): it must be a regular
 * file, and it is read only up to a cap. A FIFO would block `open` or `read` for ever and wedge every
 * command and the watching engine; `/dev/zero` or a symlink to it would never end; a 2 GB config would
 * take the process down. So the file is opened non-blocking (a FIFO opens at once, without a writer),
 * checked with `fstat` on that very descriptor (no race between check and read), and refused unless it is
 * a regular file no larger than the cap. Symlinks are followed: dotfile managers link config files, and
 * the check applies to what the link points at.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'
import { open, stat, type FileHandle } from 'node:fs/promises'
import { errorText } from '../../../shared/log.ts'

/** A file Navi refuses to read, with an errno-like code so callers can tell it from a missing file. */
export class UnreadableFileError extends Error {
  override name = 'UnreadableFileError'
  constructor(
    readonly path: string,
    /** `ENOTREG`: not a regular file (FIFO, device, socket, directory); `EFBIG`: over the cap. */
    readonly code: 'ENOTREG' | 'EFBIG',
    message: string,
  ) {
    super(message)
  }
}

/** Read-only, and non-blocking where the platform has it (Windows has no FIFOs to fear). */
export const SAFE_OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

/** Small JSON and YAML files: settings, live-session files, task files, config.yaml. @default 1 MiB */
export const SMALL_FILE_MAX_BYTES = 1024 * 1024

export interface SafeReadOptions {
  /** Larger files are refused (`EFBIG`). */
  maxBytes: number
  /**
   * A buffer of at least `bytes` to read into (the answer is a view of it), for a caller that keeps one
   * for the same file; otherwise one is allocated.
   */
  into?: (bytes: number) => Buffer
  /** Told the stats of the file read, as `fstat` gave them on the descriptor read from. */
  stats?: (stats: Stats) => void
}

/** What kind of entry `stats` describes, in words for an error message. */
export function entryKindName(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO'
  if (stats.isCharacterDevice()) return 'a character device'
  if (stats.isBlockDevice()) return 'a block device'
  if (stats.isSocket()) return 'a socket'
  if (stats.isDirectory()) return 'a directory'
  return 'not a regular file'
}

/** Throws unless `stats` is a regular file within the cap. */
export function assertReadable(path: string, stats: Stats, maxBytes: number): void {
  if (!stats.isFile()) {
    throw new UnreadableFileError(
      path,
      'ENOTREG',
      `is ${entryKindName(stats)}, not a regular file; skipped`,
    )
  }
  if (stats.size > maxBytes) {
    throw new UnreadableFileError(
      path,
      'EFBIG',
      `is ${stats.size} bytes, over the ${maxBytes}-byte limit for this file; skipped`,
    )
  }
}

/**
 * Opens `path` for reading without ever blocking, and returns the handle only when it is a regular file
 * within `maxBytes` (pass Infinity for files that are read in chunks). The caller closes it.
 */
export async function openRegularFile(path: string, maxBytes = Infinity): Promise<FileHandle> {
  const handle = await open(path, SAFE_OPEN_FLAGS)
  try {
    assertReadable(path, await handle.stat(), maxBytes)
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

/** What a chunked reader needs of an open file, whether it was opened with or without blocking. */
export interface ChunkReader {
  stat(): Promise<Stats> | Stats
  read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }> | { bytesRead: number }
  close(): Promise<void> | void
}

/**
 * `openRegularFile` for a thread that may block (a fold worker): reads go straight to the file instead
 * of through the thread pool, which left a worker idle for every chunk of a cold index.
 */
export function openRegularFileSync(path: string): ChunkReader {
  const fd = openSync(path, SAFE_OPEN_FLAGS)
  try {
    assertReadable(path, fstatSync(fd), Infinity)
  } catch (error) {
    closeSync(fd)
    throw error
  }
  return {
    stat: () => fstatSync(fd),
    read: (buffer, offset, length, position) => ({
      bytesRead: readSync(fd, buffer, offset, length, position),
    }),
    close: () => closeSync(fd),
  }
}

/** The whole file, if it is a regular file of at most `maxBytes`. Errors: ENOENT as from `open`, ENOTREG, EFBIG. */
export async function readRegularFile(path: string, opts: SafeReadOptions): Promise<Buffer> {
  const handle = await openRegularFile(path, opts.maxBytes)
  try {
    const stats = await handle.stat()
    opts.stats?.(stats)
    const size = stats.size
    // One byte more than the cap: a file that grew past it since the stat is refused too.
    const length = Math.min(size, opts.maxBytes) + 1
    const buffer = opts.into ? opts.into(length).subarray(0, length) : Buffer.allocUnsafe(length)
    let filled = 0
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    if (filled > opts.maxBytes) throw grewPastCap(path, opts.maxBytes)
    return buffer.subarray(0, filled)
  } finally {
    await handle.close()
  }
}

/** A file that was within its cap at `fstat` but had more bytes when read. */
function grewPastCap(path: string, maxBytes: number): UnreadableFileError {
  return new UnreadableFileError(path, 'EFBIG', `grew past the ${maxBytes}-byte limit; skipped`)
}

/** `readRegularFile` decoded as UTF-8. */
export async function readRegularText(path: string, opts: SafeReadOptions): Promise<string> {
  return (await readRegularFile(path, opts)).toString('utf8')
}

/**
 * The synchronous `readRegularFile`: for the few callers that cannot wait (repository discovery), and for
 * a file read once at start whose trips through the thread pool (open, stat, reads, close: six for the
 * transcript index) would leave the thread idle between them.
 */
export function readRegularFileSync(path: string, opts: SafeReadOptions): Buffer {
  const fd = openSync(path, SAFE_OPEN_FLAGS)
  try {
    const stats = fstatSync(fd)
    assertReadable(path, stats, opts.maxBytes)
    opts.stats?.(stats)
    // One byte more than the cap: a file that grew past it since the stat is refused too.
    const length = Math.min(stats.size, opts.maxBytes) + 1
    const buffer = opts.into ? opts.into(length).subarray(0, length) : Buffer.allocUnsafe(length)
    let filled = 0
    while (filled < buffer.length) {
      const bytesRead = readSync(fd, buffer, filled, buffer.length - filled, filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    if (filled > opts.maxBytes) throw grewPastCap(path, opts.maxBytes)
    return buffer.subarray(0, filled)
  } finally {
    closeSync(fd)
  }
}

/** `readRegularFileSync` decoded as UTF-8. */
export function readRegularTextSync(path: string, opts: SafeReadOptions): string {
  return readRegularFileSync(path, opts).toString('utf8')
}

/** True for the errors of a file that is simply not there (or a path through a non-directory). */
export function isMissingFileError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/** A short reason for any read error, for the `<path>: <reason>` lines of `navi doctor`. */
export const readErrorText = errorText

/** Write-only append, created if missing, non-blocking (a FIFO without a reader fails at once with ENXIO). */
const SAFE_APPEND_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0)

/**
 * Opens `path` for appending, only when it is (or is created as) a regular file: appending to a FIFO
 * blocks until someone reads it, and appending to a device writes who knows where. The caller closes it.
 */
export async function openRegularForAppend(path: string, mode = 0o600): Promise<FileHandle> {
  let handle: FileHandle
  try {
    handle = await open(path, SAFE_APPEND_FLAGS, mode)
  } catch (error) {
    // ENXIO: a FIFO nobody reads (the non-blocking open refused to wait). Say what it is.
    if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error
    const stats = await stat(path)
    throw new UnreadableFileError(
      path,
      'ENOTREG',
      `is ${entryKindName(stats)}, not a regular file; nothing written`,
    )
  }
  try {
    assertReadable(path, await handle.stat(), Infinity)
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

/** The PM's own files (briefing cache, notes, usage log, output schema). @default 16 MiB */
export const PM_FILE_MAX_BYTES = 16 * 1024 * 1024

/** Bytes `from` to `to` of a regular file (fewer when it is shorter). */
export async function readRegularRange(path: string, from: number, to: number): Promise<Buffer> {
  if (to <= from) return Buffer.alloc(0)
  const handle = await openRegularFile(path)
  try {
    const buffer = Buffer.alloc(to - from)
    let read = 0
    while (read < buffer.length) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, from + read)
      if (bytesRead === 0) break
      read += bytesRead
    }
    return buffer.subarray(0, read)
  } finally {
    await handle.close()
  }
}
