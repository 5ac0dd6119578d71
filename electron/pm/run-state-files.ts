/**
 * The small files a PM run reads and writes under `$NAVI_HOME/pm/`: the cached briefing
 * (`last-output.json`, written atomically), the usage log (`usage.jsonl`, appended) and the
 * resumable session id (`session_id`). Reads never throw: a missing or corrupt file reads as null.
 */
import { mkdir, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import {
  cachedBriefingSchema,
  pmUsageSchema,
  type CachedBriefing,
  type PmUsage,
} from '../../shared/schemas/briefing.ts'
import { parseJsonAs } from '../engine/core/parse-json.ts'
import {
  openRegularForAppend,
  PM_FILE_MAX_BYTES,
  readRegularText,
} from '../engine/adapters/safe-read.ts'
import { writeFileSafely } from '../engine/adapters/safe-write.ts'

/** The cached briefing, or null when the file is missing or not a valid `CachedBriefing`. */
export async function readCachedBriefing(file: string): Promise<CachedBriefing | null> {
  // Only a fallback: a file that cannot be read is replaced, or reported, by the next run's write.
  const text = await readRegularText(file, { maxBytes: PM_FILE_MAX_BYTES }).catch(() => null)
  return text === null ? null : parseJsonAs(cachedBriefingSchema, text)
}

/** Replaces `last-output.json` atomically: a reader sees the old or the new briefing, never half. */
export async function writeCachedBriefing(file: string, cached: CachedBriefing): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFileSafely(file, `${JSON.stringify(cachedBriefingSchema.parse(cached), null, 2)}\n`)
}

/** Appends one line to `usage.jsonl`. */
export async function appendUsage(file: string, usage: PmUsage): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const handle = await openRegularForAppend(file)
  try {
    await handle.appendFile(`${JSON.stringify(pmUsageSchema.parse(usage))}\n`)
  } finally {
    await handle.close()
  }
}

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The kept PM session id, or null when there is none or it is not a UUID. */
export async function readSessionId(file: string): Promise<string | null> {
  // No usable id just means a fresh session; a successful run writes the id again.
  const text = await readRegularText(file, { maxBytes: PM_FILE_MAX_BYTES }).catch(() => null)
  const id = text?.trim() ?? ''
  return SESSION_ID.test(id) ? id : null
}

export async function writeSessionId(file: string, id: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFileSafely(file, `${id}\n`)
}

export async function deleteSessionId(file: string): Promise<void> {
  await rm(file, { force: true })
}
