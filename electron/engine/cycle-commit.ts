/**
 * The step of a cycle (cycle.ts) that makes its findings durable: the events logged, the repositories'
 * told heads moved, the snapshots saved (or left behind on purpose for a while).
 */
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { ProjectSnapshot } from '../../shared/schemas/project.ts'
import { errorText as messageOf } from '../../shared/log.ts'
import pLimit from 'p-limit'
import { sameJson } from './core/same-json.ts'
import type { CycleInput } from './cycle.ts'

/** The longest a changed snapshot waits in memory before its file is written (CycleInput's `behind`). */
export const SNAPSHOT_SAVE_DELAY_MS = 10_000
/**
 * Snapshots written at the same time: a first cycle saves one per project, and one after the other each
 * waited on its own trips through the thread pool (50 projects: most of a cold start's last 70 ms).
 */
const SAVES_AT_ONCE = 8

/**
 * The one step that makes a cycle's findings durable, in this order: append the events to the log; only
 * then count their commits as seen (the repositories' previous heads move) and the new snapshots as the
 * previous ones. When the append fails, nothing moves, so the next cycle derives the same events (same ids)
 * and logs them then. A snapshot file that cannot be written after a successful append is kept in memory
 * and saved again by the next cycle: the events are logged, so a restart re-deriving them from an older
 * snapshot only finds ids the log already has.
 */
export async function commitCycle(
  input: CycleInput,
  current: ProjectSnapshot[],
  events: EngineEvent[],
  errors: string[],
): Promise<{
  logged: boolean
  written: EngineEvent[]
  snapshots: Map<string, ProjectSnapshot>
  unsaved: Set<string>
  behind: Map<string, number>
}> {
  const snapshots = new Map(input.prev)
  const unsaved = new Set(input.unsaved)
  const behind = new Map(input.behind)
  let written: EngineEvent[]
  try {
    written = await input.log.append(events)
  } catch (error) {
    // Worded the same every time, so a face that echoes new errors says it once, not every retry.
    errors.push(`event log: ${messageOf(error)}; events are kept and logged once it is writable`)
    return { logged: false, written: [], snapshots, unsaved, behind }
  }
  for (const snapshot of current) {
    if (snapshot.git && snapshot.git.error === null) {
      input.repos.commit(snapshot.project_dir, snapshot.git.branch_heads)
    }
  }
  try {
    await input.log.pruneIfDue(input.now)
  } catch (error) {
    errors.push(`event log: pruning failed (${messageOf(error)}); retried later`)
  }
  let failedSaves = 0
  let firstFailure = ''
  const defer = input.deferSaves && written.length === 0
  const saving = pLimit(SAVES_AT_ONCE)
  const saves: Promise<void>[] = []
  const save = (snapshot: ProjectSnapshot) => async () => {
    const dir = snapshot.project_dir
    try {
      await input.store.save(snapshot)
      unsaved.delete(dir)
    } catch (error) {
      unsaved.add(dir)
      failedSaves++
      firstFailure ||= messageOf(error)
    }
  }
  const seen = new Set<string>()
  for (const snapshot of current) {
    const dir = snapshot.project_dir
    seen.add(dir)
    const isChanged = changed(input.prev.get(dir), snapshot)
    if (isChanged && defer && !unsaved.has(dir) && !behind.has(dir)) behind.set(dir, input.now)
    const since = behind.get(dir)
    const due =
      unsaved.has(dir) ||
      (since === undefined ? isChanged : input.now - since >= SNAPSHOT_SAVE_DELAY_MS || !defer)
    if (due) {
      behind.delete(dir)
      saves.push(saving(save(snapshot)))
    }
    snapshots.set(dir, snapshot)
  }
  // A project no cycle sees any more (its sessions gone) keeps its snapshot: one whose file is behind (an
  // unsealed file of an older Navi, a failed save) is written from memory, or the cycle stays pending and
  // the engine retries it for good.
  for (const dir of [...unsaved].filter((d) => !seen.has(d))) {
    const kept = input.prev.get(dir)
    if (kept) saves.push(saving(save(kept)))
    else unsaved.delete(dir)
  }
  await Promise.all(saves)
  if (failedSaves > 0) {
    errors.push(`snapshots: ${failedSaves} could not be saved (${firstFailure}); retrying`)
  }
  return { logged: true, written, snapshots, unsaved, behind }
}

/** Saves only what changed, so an idle engine writes nothing. */
function changed(prev: ProjectSnapshot | undefined, next: ProjectSnapshot): boolean {
  if (!prev) return true
  // A snapshot kept from the cycle before (cycle-memo.ts) is the very object.
  if (prev === next) return false
  return !sameJson({ ...prev, captured_at: '' }, { ...next, captured_at: '' })
}
