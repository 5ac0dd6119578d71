/**
 * A path's stamp: what says it is still the file (or folder) it was. A file that is rewritten, grown,
 * replaced or touched gets another stamp; a folder gains or loses an entry and gets another mtime.
 * `ctime` is in it because Navi sets some files' mtime back to a stamp its content names
 * (core/file-stamp.ts), and nobody can set a ctime.
 */
import { statSync, type BigIntStats, type Stats } from 'node:fs'

/** `[dev, ino, size, mtimeMs, ctimeMs]`, or the error code of a path that cannot be stat'ed. */
export type PathStamp = readonly [number, number, number, number, number] | string

export function stampOf(path: string): PathStamp {
  try {
    // A missing path is common (a repository looked for, a file not there yet): no exception for it.
    const stats = statSync(path, { throwIfNoEntry: false })
    return stats ? [stats.dev, stats.ino, stats.size, stats.mtimeMs, stats.ctimeMs] : 'ENOENT'
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'error'
  }
}

/**
 * The stamp of a stat's result, as stampOf would take it; undefined: `throwIfNoEntry: false` found none.
 * null for BigInt stats (whole milliseconds: the caller stats again).
 */
export function stampOfStats(stats: Stats | BigIntStats | undefined): PathStamp | null {
  if (stats === undefined) return 'ENOENT'
  if (typeof stats.mtimeMs === 'bigint') return null
  const s = stats as Stats
  return [s.dev, s.ino, s.size, s.mtimeMs, s.ctimeMs]
}

export function sameStamp(a: PathStamp, b: PathStamp): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3] && a[4] === b[4]
}

/**
 * Whether the stamp was changed less than `marginMs` before `at` (or after it): a write in the same tick
 * of the file system's clock as the read would leave the same times (racy-git's "racily clean"), so such
 * a path cannot vouch for what was read.
 */
export function changedNear(stamp: PathStamp, at: number, marginMs: number): boolean {
  if (typeof stamp === 'string') return false
  return stamp[3] > at - marginMs || stamp[4] > at - marginMs
}
