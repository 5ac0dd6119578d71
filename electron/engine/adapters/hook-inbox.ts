/**
 * Incremental reader of Navi's hook inbox, `$NAVI_HOME/hooks/events.jsonl` (written by
 * hook-spool.ts from what `resources/hooks/navi-hook.sh` spooled, and by the Node handler of earlier
 * Navis), folded into one state per session by `core/hook-fold.ts`.
 *
 * Rotation: the drain (the Node handler, before) renames a full inbox to `events.jsonl.1` and starts a
 * new one. The rotated file is read once at start (it holds the older events), and when the tail sees the inbox replaced
 * by a rotation (the `.1` file is the inode it was reading), the lines appended to it after the last
 * read are folded before the new file's. A truncated or deleted inbox only restarts the tail: the
 * states folded so far stay, since hook events of a session only ever move its state forward.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { foldHookLine } from '../core/hook-fold.ts'
import { latestPlausibleMs } from '../core/json-narrow.ts'
import { createLineSplitter } from '../core/line-splitter.ts'
import { naviFiles, type EnginePaths } from '../core/paths.ts'
import type { HookSessionState } from '../core/source-records.ts'
import { createJsonlTail } from './jsonl-tail.ts'
import { loadHookIndex, saveHookIndex } from './hook-state-index.ts'
import { isMissingFileError, readErrorText, readRegularFile } from './safe-read.ts'

/** The handler rotates at 20 MB; a rotated file far larger than that is not one of ours. */
const ROTATED_MAX_BYTES = 64 * 1024 * 1024

export interface HookInboxRead {
  /** Folded state per session id (a copy: the caller may keep it). */
  states: Map<string, HookSessionState>
  /** Lines skipped since the reader was created: not JSON, or not a hook line. */
  corrupt: number
  /** Whether this read changed any state (always set by `read`; optional so callers can build a fallback). */
  changed?: boolean
  /** `<path>: <reason>` for an inbox that could not be read this time (the states folded so far stay). */
  errors?: string[]
}

export interface HookInbox {
  readonly path: string
  /** Folds what was appended since the previous call. Never throws for a missing inbox. */
  read(): Promise<HookInboxRead>
  /** Writes the index (states and where the fold stopped) if a read changed them. Never rejects. */
  flush(): Promise<void>
}

export interface HookInboxOptions {
  /**
   * Where the states and the inbox position are kept for the next process (hook-state-index.ts).
   * @default `$NAVI_HOME/cache/hook-states.json`; null keeps nothing.
   */
  cacheFile?: string | null
}

/** Sessions whose last hook event is older than this leave the index (their projects are long gone). */
const INDEX_RETENTION_MS = 7 * 24 * 60 * 60_000

/** Where the tail was in the file it followed, to find that file again after a rotation. */
interface TailPosition {
  ino: number
  offset: number
}

const NEWLINE = 0x0a

async function inodeOf(path: string): Promise<number | null> {
  return stat(path).then(
    (s) => s.ino,
    () => null,
  )
}

/** Complete lines of `buf` from the line that contains byte `offset` on. */
function linesFrom(buf: Buffer, offset: number): string[] {
  const start = offset <= 0 ? 0 : buf.lastIndexOf(NEWLINE, Math.min(offset, buf.length) - 1) + 1
  return createLineSplitter().push(buf.subarray(start))
}

/** Creates the reader; `inboxPath` defaults to `naviFiles(paths).hookInbox`. */
export function createHookInbox(
  paths: EnginePaths,
  inboxPath = naviFiles(paths).hookInbox,
  options: HookInboxOptions = {},
): HookInbox {
  const rotatedPath = `${inboxPath}.1`
  const cacheFile =
    options.cacheFile === undefined
      ? join(naviFiles(paths).cacheDir, 'hook-states.json')
      : options.cacheFile
  let tail = createJsonlTail(inboxPath)
  const states = new Map<string, HookSessionState>()
  let corrupt = 0
  let started = false
  let position: TailPosition | null = null
  /** The index on disk is behind the states. */
  let dirty = false
  let flushError: string | null = null

  /**
   * The first read resumes from the index: where the fold stopped in the inbox it followed, or in that
   * file rotated to `.1` since (then the rest of it first). Without a usable index, everything is folded.
   */
  const start = async (errors: string[]): Promise<boolean> => {
    const loaded = cacheFile === null ? null : await loadHookIndex(cacheFile, (m) => errors.push(m))
    const index = loaded?.index ?? null
    const [inboxIno, rotatedIno] = await Promise.all([inodeOf(inboxPath), inodeOf(rotatedPath)])
    if (index !== null && (index.ino === inboxIno || index.ino === rotatedIno)) {
      // Written again with a stamp, so the next start need not hash it.
      if (!loaded?.stamped) dirty = true
      for (const state of index.states) states.set(state.sessionId, state)
      corrupt = index.corrupt
      if (index.ino === inboxIno) {
        tail = createJsonlTail(inboxPath, undefined, index)
        return false
      }
      return foldRotated(index.offset, index.ino, errors)
    }
    dirty = cacheFile !== null
    return foldRotated(0, null, errors)
  }

  const fold = (value: unknown): boolean => {
    const result = foldHookLine(states, value, latestPlausibleMs(Date.now()))
    if (result === 'corrupt') corrupt++
    return result === 'applied'
  }

  const foldTexts = (texts: string[]): boolean => {
    let changed = false
    for (const text of texts) {
      let value: unknown
      try {
        value = JSON.parse(text)
      } catch {
        corrupt++
        continue
      }
      changed = fold(value) || changed
    }
    return changed
  }

  /** Folds the rotated file from byte `from`; only when it is the file `expectIno` names, if given. */
  const foldRotated = async (
    from: number,
    expectIno: number | null,
    problems: string[],
  ): Promise<boolean> => {
    if (expectIno !== null && (await inodeOf(rotatedPath)) !== expectIno) return false
    const buf = await readRegularFile(rotatedPath, { maxBytes: ROTATED_MAX_BYTES }).catch(
      (error: unknown) => {
        if (!isMissingFileError(error)) problems.push(`${rotatedPath}: ${readErrorText(error)}`)
        return null
      },
    )
    return buf ? foldTexts(linesFrom(buf, from)) : false
  }

  return {
    path: inboxPath,
    async read() {
      let changed = false
      const errors: string[] = []
      if (flushError) errors.push(flushError)
      flushError = null
      if (!started) {
        started = true
        changed = await start(errors)
      }
      const before = position
      let result
      try {
        result = await tail.readNew()
      } catch (error) {
        // A FIFO or an unreadable inbox: report it, keep what was folded so far.
        errors.push(`${inboxPath}: ${readErrorText(error)}`)
        return { states: new Map(states), corrupt, changed, errors }
      }
      corrupt += result.corrupt
      if (result.reset && before) {
        changed = (await foldRotated(before.offset, before.ino, errors)) || changed
      }
      for (const value of result.lines) changed = fold(value) || changed
      // A rotation between readNew and this stat only loses the lines of that instant.
      const ino = await inodeOf(inboxPath)
      position = ino === null ? null : { ino, offset: tail.offset }
      dirty ||= changed || result.bytesRead > 0 || result.reset
      return { states: new Map(states), corrupt, changed, errors }
    },
    async flush() {
      const at = tail.position()
      if (cacheFile === null || !dirty || at === null) return
      dirty = false
      const oldest = Date.now() - INDEX_RETENTION_MS
      const kept = [...states.values()].filter((s) => Date.parse(s.lastEventAt) >= oldest)
      try {
        await saveHookIndex(cacheFile, { ...at, corrupt, states: kept })
      } catch (error) {
        dirty = true
        flushError = `${cacheFile}: ${readErrorText(error)}`
      }
    },
  }
}
