/**
 * Turns the hook handler's spool (`$NAVI_HOME/hooks/spool/*.json`, one file per hook event, written by
 * resources/hooks/navi-hook.sh) into lines of the hook inbox (`hooks/events.jsonl`), which every Navi
 * process tails (hook-inbox.ts). Any Navi may drain, several at once: a file is claimed by renaming it
 * first, so each event becomes one line; its line is appended before the file is removed, so a crash in
 * between repeats a line (hook-fold takes that in its stride) and never loses one.
 *
 * The handler is a few shell commands, so what the Node handler did at hook time happens here: the fields
 * are chosen and capped (core/hook-record.ts).
 */
import { readdirSync, renameSync, statSync, unlinkSync, type Stats } from 'node:fs'
import { basename, join } from 'node:path'
import { errorText } from '../../../shared/log.ts'
import { hookRecord, parseSpoolFile } from '../core/hook-record.ts'
import { isPidAlive } from './process.ts'
import { appendDurably } from './safe-write.ts'
import { readRegularTextSync } from './safe-read.ts'

/** The handler keeps at most 256 KiB of a payload; a spool file much larger is not one of its. */
const SPOOL_FILE_MAX_BYTES = 512 * 1024
/** The inbox is rotated to `events.jsonl.1` past this, as the Node handler did. */
export const INBOX_ROTATE_BYTES = 20 * 1024 * 1024
/** A handler still writing is done within this; an older temp file was left by one that was killed. */
const ABANDONED_AFTER_MS = 60_000
/** At most this many events per drain: the rest wait for the next cycle. */
const MAX_PER_DRAIN = 5000

export interface SpoolDrain {
  /** Events appended to the inbox. */
  appended: number
  /** Spool files that were not hook events (removed) and why, for `navi doctor`. */
  skipped: number
  errors: string[]
}

/** Claims, reads, appends and removes what the handler spooled; never throws. */
export async function drainHookSpool(
  spoolDir: string,
  inboxPath: string,
  now = Date.now(),
): Promise<SpoolDrain> {
  const drain: SpoolDrain = { appended: 0, skipped: 0, errors: [] }
  let names: string[]
  try {
    names = readdirSync(spoolDir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      drain.errors.push(`${spoolDir}: ${errorText(error)}`)
    return drain
  }
  const claimed: { file: string; id: string; mtimeMs: number; text: string }[] = []
  for (const name of names) {
    if (claimed.length >= MAX_PER_DRAIN) break
    const path = join(spoolDir, name)
    if (name.startsWith('.new.')) {
      removeIfAbandoned(path, now)
      continue
    }
    const claim = claimName(name)
    if (claim === null) continue
    const file = join(spoolDir, claim)
    try {
      renameSync(path, file)
    } catch {
      // Another Navi claimed it first (or it was removed): theirs to append.
      continue
    }
    try {
      const { text, stats } = readSpoolFile(file)
      claimed.push({
        file,
        id: claim.slice(0, claim.indexOf('.json')),
        mtimeMs: stats.mtimeMs,
        text,
      })
    } catch (error) {
      drain.errors.push(`${file}: ${errorText(error)}; removed`)
      removeQuietly(file)
    }
  }
  if (claimed.length === 0) return drain
  // In the order the hooks ran (a file's time is when its handler wrote it).
  claimed.sort((a, b) => a.mtimeMs - b.mtimeMs || a.file.localeCompare(b.file))
  const lines: string[] = []
  for (const { text, mtimeMs, id } of claimed) {
    const spool = parseSpoolFile(text)
    const at = new Date(Math.round(mtimeMs)).toISOString()
    const record = spool ? hookRecord(spool, at, id) : null
    if (record) lines.push(JSON.stringify(record))
    else drain.skipped++
  }
  try {
    if (lines.length > 0) {
      rotateIfLarge(inboxPath)
      await appendDurably(inboxPath, Buffer.from(`${lines.join('\n')}\n`, 'utf8'))
    }
  } catch (error) {
    // Left claimed: this Navi tries them again while it runs, another one once this one is gone.
    drain.errors.push(`${inboxPath}: ${errorText(error)}; ${claimed.length} hook event(s) kept`)
    for (const { file } of claimed) unclaim(file)
    return drain
  }
  drain.appended = lines.length
  for (const { file } of claimed) removeQuietly(file)
  return drain
}

const CLAIM = /^(.+\.json)\.claimed\.(\d+)$/

/** `<event>.json` → `<event>.json.claimed.<pid>`; a file claimed by a Navi that died is claimed again. */
function claimName(name: string): string | null {
  if (name.endsWith('.json') && !name.startsWith('.')) return `${name}.claimed.${process.pid}`
  const claimed = CLAIM.exec(name)
  if (claimed?.[1] && Number(claimed[2]) !== process.pid && !isPidAlive(Number(claimed[2])))
    return `${claimed[1]}.claimed.${process.pid}`
  return null
}

/** Puts a claimed file back for the next drain. */
function unclaim(file: string): void {
  const claimed = CLAIM.exec(basename(file))
  if (!claimed?.[1]) return
  try {
    renameSync(file, join(file, '..', claimed[1]))
  } catch {
    // Gone already: nothing to put back.
  }
}

/** A temp file of a handler that was killed mid-write: removed once it is old enough to be sure. */
function removeIfAbandoned(path: string, now: number): void {
  const stats = statSync(path, { throwIfNoEntry: false })
  if (stats && now - stats.mtimeMs > ABANDONED_AFTER_MS) removeQuietly(path)
}

function readSpoolFile(file: string): { text: string; stats: Stats } {
  const stats = statSync(file)
  // Regular files only, within the cap: a FIFO put in the spool is refused, never waited on.
  return { text: readRegularTextSync(file, { maxBytes: SPOOL_FILE_MAX_BYTES }), stats }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file)
  } catch {
    // Already gone (another Navi, a cleanup): the same outcome.
  }
}

function rotateIfLarge(inbox: string): void {
  const stats = statSync(inbox, { throwIfNoEntry: false })
  if (stats?.isFile() && stats.size > INBOX_ROTATE_BYTES) renameSync(inbox, `${inbox}.1`)
}
