/**
 * A cross-process lock on a file (proper-lockfile: a `<file>.lock` directory whose mtime its holder keeps
 * fresh), for the event log's appends and prunes. Bounded: a live writer holds it for milliseconds, so
 * after about 5 s of waiting it is reported, never waited on for ever; and a lock no live writer could
 * hold is removed first.
 */
import { lstat, mkdir, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { openRegularForAppend } from './safe-read.ts'

/** Runs `task` holding the lock on `file` (created empty if missing); a lock older than `staleMs` is taken over. */
export async function withFileLock<T>(
  file: string,
  staleMs: number,
  task: () => Promise<T>,
): Promise<T> {
  const lockPath = `${file}.lock`
  await mkdir(dirname(file), { recursive: true })
  await (await openRegularForAppend(file)).close()
  await removeImpossibleLock(lockPath, staleMs)
  // Loaded at the first lock: it loads `assert` and signal handlers, which a command that writes no
  // event never needs.
  const { default: lockfile } = await import('proper-lockfile')
  let release: () => Promise<void>
  try {
    release = await lockfile.lock(file, {
      stale: staleMs,
      realpath: false,
      retries: { retries: 60, minTimeout: 5, maxTimeout: 100, factor: 1.3, randomize: true },
      // The default throws from a timer and kills the process; losing the lock mid-append is survivable.
      onCompromised: () => undefined,
    })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error
    throw new Error(
      `${file} is locked by another process (${lockPath}); the events are kept and written when it is ` +
        `free. If no other Navi is running, remove ${lockPath}.`,
    )
  }
  try {
    return await task()
  } finally {
    // A lock not released goes stale and the next writer takes it over; the task's outcome stands.
    await release().catch(() => undefined)
  }
}

/**
 * A lock no live writer could hold is removed before locking, or every writer would wait on it for
 * ever: one that is not a directory (proper-lockfile's locks are directories), or one dated further in
 * the future than the stale window (a live holder refreshes its lock's mtime to its own "now" every few
 * seconds, so only a clock jump or a hand leaves that).
 */
async function removeImpossibleLock(lockPath: string, staleMs: number): Promise<void> {
  // No lock there (the usual case): nothing to remove; real trouble surfaces when locking.
  const lock = await lstat(lockPath).catch(() => null)
  // The file system's clock, not the log's injectable one: mtimes are real times.
  if (lock && (!lock.isDirectory() || lock.mtimeMs > Date.now() + staleMs)) {
    await rm(lockPath, { recursive: true, force: true })
  }
}
