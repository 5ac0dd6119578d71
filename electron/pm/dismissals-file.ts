/**
 * `$NAVI_HOME/pm/dismissed.json`: the attention items the user dismissed or snoozed
 * (pm/core/dismissals.ts), and the briefing as the faces show it, without them.
 */
import * as z from 'zod'
import type { BriefingState } from '../../shared/schemas/briefing.ts'
import { lazySchema } from '../../shared/schemas/lazy-schema.ts'
import { errorText, silentLog, type Log } from '../../shared/log.ts'
import { parseJsonAs } from '../engine/core/parse-json.ts'
import {
  isMissingFileError,
  PM_FILE_MAX_BYTES,
  readRegularText,
} from '../engine/adapters/safe-read.ts'
import { writeFileSafely } from '../engine/adapters/safe-write.ts'
import { keptDismissals, visibleItems, type Dismissal } from './core/dismissals.ts'

const dismissedFileSchema = lazySchema(() =>
  z.object({
    dismissals: z.array(z.object({ key: z.string(), until: z.string().nullable() })),
  }),
)

/** The dismissals; none when there is no file, or (said in the log) when it is not one Navi wrote. */
export async function readDismissals(file: string, log: Log = silentLog): Promise<Dismissal[]> {
  let text: string
  try {
    text = await readRegularText(file, { maxBytes: PM_FILE_MAX_BYTES })
  } catch (error) {
    if (!isMissingFileError(error))
      log.warn(`${file} not read (nothing is dismissed): ${errorText(error)}`)
    return []
  }
  const parsed = parseJsonAs(dismissedFileSchema, text)
  if (!parsed)
    log.warn(`${file} is not a list of dismissals; nothing is dismissed until it is rewritten`)
  return parsed?.dismissals ?? []
}

/** Replaces the file atomically. */
export async function writeDismissals(
  file: string,
  dismissals: readonly Dismissal[],
): Promise<void> {
  await writeFileSafely(file, `${JSON.stringify({ dismissals }, null, 2)}\n`)
}

/** `state` as the faces show it: the attention items dismissed or snoozed at `now` left out. */
export function presentBriefing(
  state: BriefingState,
  dismissals: readonly Dismissal[],
  now: number,
): BriefingState {
  const briefing = state.briefing
  if (!briefing || dismissals.length === 0) return state
  const shown = visibleItems(briefing.output.attention_items, dismissals, now)
  if (shown.length === briefing.output.attention_items.length) return state
  return {
    ...state,
    briefing: { ...briefing, output: { ...briefing.output, attention_items: shown } },
  }
}

/** After a new briefing: drops the dismissals of items it no longer lists, and snoozes that ended. */
export async function pruneDismissalsFile(
  file: string,
  items: readonly { project: string; title: string }[],
  now: number,
  log: Log = silentLog,
): Promise<void> {
  const dismissals = await readDismissals(file, log)
  const kept = keptDismissals(dismissals, items, now)
  if (kept.length === dismissals.length) return
  await writeDismissals(file, kept).catch((error: unknown) =>
    log.warn(`${file} not pruned: ${errorText(error)}`),
  )
}
