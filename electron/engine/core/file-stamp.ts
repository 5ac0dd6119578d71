/**
 * A stamp: the modification time (epoch ms) Navi gives a cache file it writes, and names inside it (the
 * index's header, a snapshot's seal). A file whose modification time is still the stamp it names was
 * not touched since Navi wrote it whole (atomically): any edit, by hand or by a tool, moves the time.
 * Such a file is trusted without hashing it. Hashing was the only use of `node:crypto` in a warm start,
 * ~3 ms with loading the module; anything else (no stamp, a time that moved, a file system that keeps
 * coarser times) is still checked against its SHA-256. Pure.
 */

/**
 * The stamp for a file written now: the last even second. FAT keeps times to 2 s and HFS+ to 1 s; a stamp
 * finer than its file system keeps would never be found again, and every start would hash (and write
 * again) what it had just written. An edit still moves the time: it would have to land on that very
 * instant, within the file system's grain, after Navi's write.
 */
export const newFileStamp = (now: number = Date.now()): number => Math.floor(now / 2000) * 2000

/**
 * True when a file's modification time (`stats.mtimeMs`) is the stamp its content names. Rounded:
 * seconds as a double, set and read back through the kernel's nanoseconds, land within a microsecond.
 */
export const carriesStamp = (mtimeMs: number, stamp: unknown): boolean =>
  typeof stamp === 'number' && Number.isSafeInteger(stamp) && Math.round(mtimeMs) === stamp
