/**
 * Tasks on disk, under `$NAVI_HOME/tasks/`: `<id>.json` is the record, rewritten atomically on every
 * change (so a restart neither loses nor duplicates a task), and `<id>.log.jsonl` its log: every line of
 * the agent's stream as it came, and Navi's own lines (`{"navi": …}`: status changes, relayed notes).
 * A record that cannot be read is skipped, counted and named, never fatal for the others.
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { taskSchema, type Task } from '../../shared/schemas/task.ts'
import { errorText } from '../../shared/log.ts'
import { naviFiles, type EnginePaths } from '../engine/core/paths.ts'
import { appendDurably, writeFileSafely } from '../engine/adapters/safe-write.ts'
import { readRegularText, SMALL_FILE_MAX_BYTES } from '../engine/adapters/safe-read.ts'

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'
const RECORD = /^(t[0-9a-z]{8})\.json$/

/** A new task id: `t` and 8 random characters of [0-9a-z]. */
export function newTaskId(): string {
  const bytes = randomBytes(8)
  return `t${[...bytes].map((b) => ID_ALPHABET[b % ID_ALPHABET.length]).join('')}`
}

export interface TaskStore {
  readonly dir: string
  save(task: Task): Promise<void>
  load(id: string): Promise<Task | null>
  /** Every readable task, newest first, and what could not be read. */
  list(): Promise<{ tasks: Task[]; problems: string[] }>
  /** Appends lines to the task's log (one write, flushed). */
  appendLog(id: string, lines: readonly string[]): Promise<void>
  logPath(id: string): string
  /** Another process asks the task's host to cancel it. */
  askCancel(id: string): Promise<void>
  cancelAsked(id: string): boolean
  clearCancel(id: string): Promise<void>
}

export function createTaskStore(paths: EnginePaths): TaskStore {
  const dir = naviFiles(paths).tasksDir
  const recordPath = (id: string) => join(dir, `${id}.json`)
  const logPath = (id: string) => join(dir, `${id}.log.jsonl`)
  const cancelPath = (id: string) => join(dir, `${id}.cancel`)
  let made = false
  const ensureDir = async () => {
    if (made) return
    await mkdir(dir, { recursive: true, mode: 0o700 })
    made = true
  }
  const read = async (id: string): Promise<Task> => {
    const text = await readRegularText(recordPath(id), { maxBytes: SMALL_FILE_MAX_BYTES })
    return taskSchema.parse(JSON.parse(text))
  }
  return {
    dir,
    logPath,
    async save(task) {
      await ensureDir()
      await writeFileSafely(recordPath(task.id), `${JSON.stringify(task, null, 2)}\n`, {
        mode: 0o600,
      })
    },
    async load(id) {
      if (!/^t[0-9a-z]{8}$/.test(id)) return null
      try {
        return await read(id)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw new Error(`task ${id}: ${errorText(error)}`)
      }
    },
    async list() {
      let names: string[] = []
      try {
        names = await readdir(dir)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { tasks: [], problems: [] }
        throw error
      }
      const tasks: Task[] = []
      const problems: string[] = []
      for (const name of names) {
        const id = RECORD.exec(name)?.[1]
        if (!id) continue
        try {
          tasks.push(await read(id))
        } catch (error) {
          problems.push(`${recordPath(id)}: ${errorText(error)}`)
        }
      }
      tasks.sort((a, b) => b.created_at.localeCompare(a.created_at))
      return { tasks, problems }
    },
    async askCancel(id) {
      await ensureDir()
      await writeFileSafely(cancelPath(id), `${new Date().toISOString()}\n`, { mode: 0o600 })
    },
    cancelAsked: (id) => existsSync(cancelPath(id)),
    clearCancel: (id) => rm(cancelPath(id), { force: true }),
    async appendLog(id, lines) {
      if (lines.length === 0) return
      await ensureDir()
      await appendDurably(logPath(id), Buffer.from(`${lines.join('\n')}\n`))
    },
  }
}

/** The task an id or a unique prefix of one names, or why none does. */
export function findTask(
  tasks: readonly Task[],
  idOrPrefix: string,
): { task: Task } | { error: string } {
  const wanted = idOrPrefix.trim().toLowerCase()
  const exact = tasks.find((t) => t.id === wanted)
  if (exact) return { task: exact }
  const matches = tasks.filter((t) => wanted.length >= 2 && t.id.startsWith(wanted))
  if (matches.length === 1 && matches[0]) return { task: matches[0] }
  if (matches.length > 1) {
    return { error: `"${idOrPrefix}" names ${String(matches.length)} tasks: give more of the id` }
  }
  return { error: `no task "${idOrPrefix}"` }
}
