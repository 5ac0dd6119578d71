/**
 * A path's stamp: what says it is still what a command read. A file that is rewritten, grown, replaced or
 * touched gets another stamp; a folder that gains or loses an entry gets another mtime. `ctime` is in it
 * because Navi sets some files' mtime back to a stamp its content names (core/file-stamp.ts), and nobody
 * can set a ctime.
 *
 * Some reads learn less, and their stamps say less, so that what did not matter does not count as a
 * change: `existsSync` learns that a path is there (a project folder, a `.git`), and a stat of a folder
 * its kind and device (the walk up to a repository: git-repo-root.ts). Such a folder's mtime moves with
 * every file made beside a user's work, which would throw every kept answer away for nothing; a folder
 * whose entries matter is listed, and a listing keeps the whole stamp.
 */
import { statSync, type BigIntStats, type Stats } from 'node:fs'

/**
 * `[dev, ino, size, mtimeMs, ctimeMs]`; a folder known by its device and inode alone, `[dev, ino, -1,
 * -1, -1]`; `'exists'` for a path known only to be there; or the error code of a path that cannot be
 * stat'ed (`ENOENT`).
 */
export type PathStamp = readonly [number, number, number, number, number] | string

/** What a read learned: that the path is there, what folder it is, or all of it. */
export type StampStrength = 'exists' | 'folder' | 'full'

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
 * The stamp of a stat's result, as stampOf would take it, a folder's by its device and inode;
 * undefined: `throwIfNoEntry: false` found none. null for BigInt stats (whole milliseconds: the caller
 * stats again).
 */
export function stampOfStats(stats: Stats | BigIntStats | undefined): PathStamp | null {
  if (stats === undefined) return 'ENOENT'
  if (typeof stats.mtimeMs === 'bigint') return null
  const s = stats as Stats
  if (s.isDirectory()) return [s.dev, s.ino, -1, -1, -1]
  return [s.dev, s.ino, s.size, s.mtimeMs, s.ctimeMs]
}

/** How much a stamp says. */
export function strengthOf(stamp: PathStamp): StampStrength {
  if (stamp === 'exists') return 'exists'
  if (typeof stamp !== 'string' && stamp[2] === -1) return 'folder'
  return 'full'
}

/** Whether `now` (a full stamp, as stampOf takes it) is still what `saved` says. */
export function sameStamp(saved: PathStamp, now: PathStamp): boolean {
  if (saved === 'exists') return typeof now !== 'string'
  if (typeof saved === 'string' || typeof now === 'string') return saved === now
  // A folder by its device and inode: the same inode is the same folder.
  if (saved[2] === -1) return saved[0] === now[0] && saved[1] === now[1]
  return (
    saved[0] === now[0] &&
    saved[1] === now[1] &&
    saved[2] === now[2] &&
    saved[3] === now[3] &&
    saved[4] === now[4]
  )
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
