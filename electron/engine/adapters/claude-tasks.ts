import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import * as z from 'zod'
import { taskStatusSchema, type TaskItem } from '../../../shared/schemas/session.ts'
import { naviFiles, type EnginePaths } from '../core/paths.ts'
import type { ClaudeTaskListRecord } from '../core/source-records.ts'
import { parseJsonAs } from '../core/parse-json.ts'
import { asCappedString } from '../core/json-narrow.ts'
import pLimit from 'p-limit'
import { openRegularFile, SMALL_FILE_MAX_BYTES, isMissingFileError } from './safe-read.ts'
import { lazySchema } from '../../../shared/schemas/lazy-schema.ts'

/** Task files read at once: a list can hold thousands. */
const READ_CONCURRENCY = 16

export interface ClaudeTaskListsReadResult {
  lists: ClaudeTaskListRecord[]
  /** Task files that were not valid JSON or lacked id/subject/a known status (skipped). */
  corrupt: number
  /** `<path>: <message>` for each folder or file that could not be read. */
  errors: string[]
}

const taskFileSchema = lazySchema(() =>
  z.object({
    id: z.union([z.string().min(1).max(200), z.number().transform(String)]),
    // A title is shown on one line: a longer subject is cut, never refused.
    subject: z.string().transform((text) => asCappedString(text, 500) ?? ''),
    status: taskStatusSchema,
  }),
)

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Numeric ids in numeric order ("2" before "10"), anything else after them by text. */
export function compareTaskIds(a: string, b: string): number {
  const na = Number(a)
  const nb = Number(b)
  const aNumeric = a.trim() !== '' && Number.isFinite(na)
  const bNumeric = b.trim() !== '' && Number.isFinite(nb)
  if (aNumeric && bNumeric) return na - nb
  if (aNumeric !== bNumeric) return aNumeric ? -1 : 1
  return a.localeCompare(b)
}

async function readTaskList(
  listDir: string,
  listId: string,
  result: ClaudeTaskListsReadResult,
): Promise<ClaudeTaskListRecord | null> {
  let names: string[]
  try {
    names = await readdir(listDir)
  } catch (error) {
    if (!isMissingFileError(error)) result.errors.push(`${listDir}: ${describe(error)}`)
    return null
  }
  // `.lock` and `.highwatermark` are bookkeeping, not tasks.
  const files = names
    .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
    .map((n) => join(listDir, n))
  const read = await pLimit(READ_CONCURRENCY).map(files, async (file) => {
    try {
      const handle = await openRegularFile(file, SMALL_FILE_MAX_BYTES)
      try {
        return { file, mtimeMs: (await handle.stat()).mtimeMs, text: await handle.readFile('utf8') }
      } finally {
        await handle.close()
      }
    } catch (error) {
      // A deleted task (TaskUpdate status "deleted") removes its file.
      if (!isMissingFileError(error)) result.errors.push(`${file}: ${describe(error)}`)
      return null
    }
  })
  const tasks: TaskItem[] = []
  let newestMtime = -1
  for (const entry of read) {
    if (!entry) continue
    const task = parseJsonAs(taskFileSchema, entry.text)
    if (!task) {
      result.corrupt++
      continue
    }
    tasks.push({ id: task.id, title: task.subject, status: task.status })
    newestMtime = Math.max(newestMtime, entry.mtimeMs)
  }
  tasks.sort((a, b) => compareTaskIds(a.id, b.id))
  return {
    listId,
    tasks,
    updatedAt: newestMtime >= 0 ? new Date(newestMtime).toISOString() : null,
  }
}

/**
 * Reads every task list under `$CLAUDE_CONFIG_DIR/tasks/<listId>/<id>.json` (TaskCreate/TaskUpdate),
 * or only the lists named in `only` (those a watcher reported). A list whose tasks were all deleted
 * is reported with no tasks and `updatedAt: null`; a list in `only` that no longer exists is absent.
 */
export async function readClaudeTaskLists(
  paths: EnginePaths,
  opts: { only?: readonly string[] } = {},
): Promise<ClaudeTaskListsReadResult> {
  const dir = naviFiles(paths).claudeTasks
  const result: ClaudeTaskListsReadResult = { lists: [], corrupt: 0, errors: [] }
  if (opts.only) {
    for (const listId of [...new Set(opts.only)].sort()) {
      const record = await readTaskList(join(dir, listId), listId, result)
      if (record) result.lists.push(record)
    }
    return result
  }
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (error) {
    if (!isMissingFileError(error)) result.errors.push(`${dir}: ${describe(error)}`)
    return result
  }
  const listIds = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
  for (const listId of listIds) {
    const record = await readTaskList(join(dir, listId), listId, result)
    if (record) result.lists.push(record)
  }
  return result
}
