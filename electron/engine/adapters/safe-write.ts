/**
 * Every file Navi writes is written atomically (write-file-atomic: a temp file renamed into place) and
 * only ever over a regular file. write-file-atomic writes through a symlink to its target, which is right
 * for a dotfile manager's link to a real file, and wrong for anything else: a link to `/dev/zero` (or to
 * a FIFO, a socket, a directory) would have its target replaced by a plain file (as root, `/dev/zero`
 * itself). Such a path is refused with a clear error instead; a missing file is created.
 */
import { statSync, utimesSync, type Stats } from 'node:fs'
import { stat, utimes } from 'node:fs/promises'
import type writeFileAtomic from 'write-file-atomic'
import {
  entryKindName,
  isMissingFileError,
  openRegularForAppend,
  UnreadableFileError,
} from './safe-read.ts'

type SafeWriteOptions = writeFileAtomic.Options & {
  /**
   * The modification time (epoch ms) to give the file once it is in place: a stamp its content names
   * (core/file-stamp.ts). Set after the rename; a reader in between, or a file system that refuses it,
   * only finds a time that is not the stamp, and checks the content's hash instead.
   */
  stampMs?: number
}

export async function writeFileSafely(
  path: string,
  data: string | Buffer,
  options: SafeWriteOptions = {},
): Promise<void> {
  const target = await stat(path).catch((error: unknown) => {
    if (isMissingFileError(error)) return null
    throw error
  })
  refuseIrregular(path, target)
  const { stampMs, ...atomic } = options
  const write = await atomicWriter()
  await write(path, data, atomic)
  if (stampMs !== undefined) await utimes(path, stampMs / 1000, stampMs / 1000).catch(stampRefused)
}

/**
 * `writeFileSafely` with blocking calls, for a small file among many (a cycle's snapshots): from the page
 * cache each call takes microseconds, while the same write through the thread pool is a dozen trips
 * (stat, realpath, open, write, close, rename…) with a wait on each.
 */
export async function writeSmallFileSafely(
  path: string,
  data: string | Buffer,
  options: SafeWriteOptions = {},
): Promise<void> {
  let target: Stats | undefined
  try {
    target = statSync(path)
  } catch (error) {
    if (!isMissingFileError(error)) throw error
  }
  refuseIrregular(path, target ?? null)
  const { stampMs, ...atomic } = options
  const write = await atomicWriter()
  write.sync(path, data, atomic)
  if (stampMs === undefined) return
  try {
    utimesSync(path, stampMs / 1000, stampMs / 1000)
  } catch (error) {
    stampRefused(error)
  }
}

/**
 * A stamp that could not be set (refused, a read-only mount, the file replaced and gone since) costs the
 * next reader a hash, nothing else: the file is written. Any other error is thrown.
 */
function stampRefused(error: unknown): void {
  const code = (error as NodeJS.ErrnoException | null)?.code
  if (code === 'EPERM' || code === 'EACCES' || code === 'EROFS' || code === 'ENOENT') return
  throw error
}

function refuseIrregular(path: string, target: Stats | null): void {
  if (target && !target.isFile()) {
    throw new UnreadableFileError(
      path,
      'ENOTREG',
      `is ${entryKindName(target)}, not a regular file; Navi will not write over it`,
    )
  }
}

/** Loaded at the first write: it loads `worker_threads`, which a command that writes nothing never needs. */
async function atomicWriter(): Promise<typeof writeFileAtomic> {
  return (await import('write-file-atomic')).default
}

/** One O_APPEND write of the whole buffer to a regular file, flushed to disk; resolves with the bytes written. */
export async function appendDurably(path: string, data: Buffer): Promise<number> {
  const handle = await openRegularForAppend(path)
  try {
    let written = 0
    while (written < data.length) {
      const { bytesWritten } = await handle.write(data, written, data.length - written)
      written += bytesWritten
    }
    await handle.datasync()
    return written
  } finally {
    await handle.close()
  }
}
