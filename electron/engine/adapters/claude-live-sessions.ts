import { readFileSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import * as z from 'zod'
import { naviFiles, type EnginePaths } from '../core/paths.ts'
import { parseProcStartTime } from '../core/proc-stat.ts'
import type { LiveSessionRecord } from '../core/source-records.ts'
import { isPidAlive } from './process.ts'
import { readErrorText, readRegularText, SMALL_FILE_MAX_BYTES } from './safe-read.ts'
import { asEpochMs, latestPlausibleMs } from '../core/json-narrow.ts'
import { parseJson } from '../core/parse-json.ts'
import { lazySchema } from '../../../shared/schemas/lazy-schema.ts'

export interface LiveSessionDeps {
  /** Whether a process with this pid exists. Default: `process.kill(pid, 0)`, EPERM counting as alive. */
  pidExists?: (pid: number) => boolean
  /**
   * Start time (field 22 of `/proc/<pid>/stat`) of the process, or null where it cannot be read
   * (not Linux, no /proc): then the pid check alone decides. Default reads `/proc`.
   */
  procStartOf?: (pid: number) => string | null
}

export interface LiveSessionsReadResult {
  records: LiveSessionRecord[]
  /** Session files that were not valid JSON or lacked `pid`/`sessionId` (skipped). */
  corrupt: number
  /** `<path>: <message>` for the folder or a file that could not be read (other than missing). */
  errors: string[]
  /** `<path>: <what>` for files that were skipped or had values ignored (for `navi doctor`). */
  notes: string[]
  /** The `sessions/` folder exists but could not be listed (the caller may ask `claude agents --json`). */
  unreadable?: boolean
}

// Made by the (lazy) schema below, not when the module loads: every command loads the engine.
const nullableString = () => z.string().max(4096).nullable().optional().catch(null)
const nullableNumber = () => z.number().nullable().optional().catch(null)

const liveSessionFileSchema = lazySchema(() =>
  z.object({
    pid: z.number().int().positive(),
    sessionId: z.string().min(1),
    cwd: nullableString(),
    startedAt: nullableNumber(),
    procStart: z
      .union([z.string(), z.number().transform(String)])
      .nullable()
      .optional()
      .catch(null),
    name: nullableString(),
    entrypoint: nullableString(),
    status: z.enum(['idle', 'busy', 'waiting']).nullable().optional().catch(null),
    waitingFor: nullableString(),
    statusUpdatedAt: nullableNumber(),
    /** `<session>:@<window>.%<pane>` of a TUI running in tmux (2.1.330). */
    tmux: nullableString(),
  }),
)

/** The pane id (`%3`) out of a live file's `tmux` field; null for anything else. */
export function paneOfTmuxField(value: string | null | undefined): string | null {
  const match = value ? /\.(%\d{1,9})$/.exec(value) : null
  return match?.[1] ?? null
}

export function defaultProcStartOf(pid: number): string | null {
  try {
    return parseProcStartTime(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    // No /proc (macOS) or the process just ended: the start time is unknown, which callers allow for.
    return null
  }
}

/** Alive when the pid exists and, where its start time can be read, it matches `procStart`. */
export function isSessionProcessAlive(
  pid: number,
  procStart: string | null,
  deps: LiveSessionDeps = {},
): boolean {
  const pidExists = deps.pidExists ?? isPidAlive
  const procStartOf = deps.procStartOf ?? defaultProcStartOf
  if (!Number.isInteger(pid) || pid <= 0 || !pidExists(pid)) return false
  if (procStart === null) return true
  const actual = procStartOf(pid)
  // A different start time means the pid was reused by another process after a crash.
  return actual === null || actual === procStart
}

/** Reads `$CLAUDE_CONFIG_DIR/sessions/<pid>.json` of running (and stale) `claude` processes. */
export async function readLiveSessions(
  paths: EnginePaths,
  deps: LiveSessionDeps = {},
): Promise<LiveSessionsReadResult> {
  const dir = naviFiles(paths).claudeSessions
  const result: LiveSessionsReadResult = { records: [], corrupt: 0, errors: [], notes: [] }
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      result.errors.push(`${dir}: ${String(error)}`)
      result.unreadable = true
    }
    return result
  }
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const file = join(dir, name)
    let text: string
    try {
      text = await readRegularText(file, { maxBytes: SMALL_FILE_MAX_BYTES })
    } catch (error) {
      // Removed between readdir and read: the session just ended.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        result.errors.push(`${file}: ${readErrorText(error)}`)
      }
      continue
    }
    const raw = parseJson(text)
    const parsed = liveSessionFileSchema.safeParse(raw)
    const data = parsed.success ? parsed.data : null
    if (!data) {
      result.corrupt++
      result.notes.push(`${file}: not a live-session file (no pid or sessionId); skipped`)
      continue
    }
    const procStart = data.procStart ?? null
    // A time that is not a believable epoch (1e308, year 9999) is a bad field: absent, not fatal.
    const latest = latestPlausibleMs(Date.now())
    result.records.push({
      pid: data.pid,
      sessionId: data.sessionId,
      cwd: data.cwd ?? null,
      startedAt: asEpochMs(data.startedAt, latest),
      procStart,
      name: data.name ?? null,
      entrypoint: data.entrypoint ?? null,
      status: data.status ?? null,
      waitingFor: data.waitingFor ?? null,
      statusUpdatedAt: asEpochMs(data.statusUpdatedAt, latest),
      tmuxPane: paneOfTmuxField(data.tmux),
      alive: isSessionProcessAlive(data.pid, procStart, deps),
      file,
    })
    const ignored = ignoredFields(raw, result.records.at(-1))
    if (ignored.length > 0)
      result.notes.push(`${file}: ignored ${ignored.join(', ')} (not valid values)`)
  }
  return result
}

/** The optional fields a file set that did not survive validation (a number that is no time, …). */
function ignoredFields(raw: unknown, record: LiveSessionRecord | undefined): string[] {
  if (!record || raw === null || typeof raw !== 'object') return []
  const given = raw as Record<string, unknown>
  const kept: Record<string, unknown> = {
    cwd: record.cwd,
    startedAt: record.startedAt,
    name: record.name,
    status: record.status,
    waitingFor: record.waitingFor,
    statusUpdatedAt: record.statusUpdatedAt,
    procStart: record.procStart,
  }
  return Object.keys(kept).filter(
    (key) => Object.hasOwn(given, key) && given[key] !== null && kept[key] === null,
  )
}
