/**
 * `$NAVI_HOME/pm/digests.jsonl`: the daily digests (core/digests.ts), one JSON line each, rewritten whole
 * and atomically on each update. A line that is not a digest is skipped, counted and told to the log; the
 * rest are kept.
 */
import { readFile } from 'node:fs/promises'
import * as z from 'zod'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import { errorText, silentLog, type Log } from '../../shared/log.ts'
import { writeFileSafely } from '../engine/adapters/safe-write.ts'
import { digestEvents, localDay, mergeDigests, type DayDigest } from './core/digests.ts'

const count = z.number().int().min(0)
const digestSchema = z.object({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  project: z.string().min(1),
  commits: count,
  tasks_done: count,
  waits: count,
  stalls: count,
  turns: count,
  // Digests written before tokens were counted have none.
  tokens: count.default(0),
})

export async function readDigests(file: string, log: Log = silentLog): Promise<DayDigest[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.warn(`${file}: ${errorText(error)}`)
    return []
  }
  const digests: DayDigest[] = []
  let corrupt = 0
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      const parsed = digestSchema.safeParse(JSON.parse(line))
      if (parsed.success) digests.push(parsed.data)
      else corrupt++
    } catch {
      corrupt++
    }
  }
  if (corrupt > 0)
    log.warn(`${file}: ${String(corrupt)} line(s) that are not daily digests skipped`)
  return digests
}

/** Folds the event log into the digests file; resolves with the digests now stored (newest first). */
export async function updateDigests(
  file: string,
  events: readonly EngineEvent[],
  now: number,
  log: Log = silentLog,
): Promise<DayDigest[]> {
  const stored = await readDigests(file, log)
  const merged = mergeDigests(stored, digestEvents(events), localDay(now))
  const text = merged.map((d) => JSON.stringify(d)).join('\n')
  await writeFileSafely(file, text === '' ? '' : `${text}\n`)
  return merged
}

/**
 * Keeps the digests file current for a PM: `keep()` before each run (it resolves with the digests) and
 * hourly while started, so a quiet PM still keeps every day's counts. Never throws: a failure is logged.
 */
export function createDigestKeeper(opts: {
  file: string
  events: () => Promise<readonly EngineEvent[]>
  clock: () => number
  log: Log
}): { keep(): Promise<DayDigest[]>; start(): void; stop(): void } {
  let timer: ReturnType<typeof setInterval> | null = null
  const keep = async (): Promise<DayDigest[]> => {
    try {
      return await updateDigests(opts.file, await opts.events(), opts.clock(), opts.log)
    } catch (error) {
      opts.log.warn(`daily digests not updated: ${errorText(error)}`)
      return []
    }
  }
  return {
    keep,
    start() {
      timer ??= setInterval(() => void keep(), 3_600_000)
      timer.unref()
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = null
    },
  }
}
