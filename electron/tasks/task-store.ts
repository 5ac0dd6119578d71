/**
 * Tasks on disk, under `$NAVI_HOME/tasks/`: `<id>.json` is the record, rewritten atomically on every
 * change (so a restart neither loses nor duplicates a task), and `<id>.log.jsonl` its log: every line of
 * the agent's stream as it came, and Navi's own lines (`{"navi": …}`: status changes, relayed notes).
 * A record that cannot be read is skipped, counted and named, never fatal for the others.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, open, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { taskSchema, type Task } from '../../shared/schemas/task.ts'
import { errorText } from '../../shared/log.ts'
import { naviFiles, type EnginePaths } from '../engine/core/paths.ts'
import { appendDurably, writeFileSafely } from '../engine/adapters/safe-write.ts'
import { isPidAlive } from '../engine/adapters/process.ts'
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
  /** `navi run --detach` hands the task to a running Navi that hosts tasks (tray, `navi serve`). */
  markHandoff(id: string): Promise<void>
  /** The ids handed off since the last call (their markers are removed). */
  takeHandoffs(): Promise<string[]>
  /**
   * Takes a task no Navi runs for this process (an exclusive `<id>.claim` file with its pid): false when a
   * live Navi took it first, so two hosts never both run it. A dead claimer's claim is taken over.
   */
  claim(id: string, pid: number): Promise<boolean>
  /** A Navi that hosts tasks says so (its pid), and stops saying so. */
  claimHost(pid: number): Promise<void>
  releaseHost(pid: number): Promise<void>
  /** The pid of the Navi that hosts handed-off tasks, when one says so and lives. */
  hostPid(): number | null
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
  const handoffPath = (id: string) => join(dir, `${id}.handoff`)
  const hostFile = join(dir, 'host')
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
    async markHandoff(id) {
      await ensureDir()
      await writeFileSafely(handoffPath(id), '', { mode: 0o600 })
    },
    async takeHandoffs() {
      let names: string[]
      try {
        names = await readdir(dir)
      } catch {
        return []
      }
      const ids = names.flatMap((n) => /^(t[0-9a-z]{8})\.handoff$/.exec(n)?.[1] ?? [])
      await Promise.all(ids.map((id) => rm(handoffPath(id), { force: true })))
      return ids
    },
    async claim(id, pid) {
      await ensureDir()
      const path = join(dir, `${id}.claim`)
      try {
        const handle = await open(path, 'wx', 0o600)
        await handle.writeFile(`${String(pid)}\n`)
        await handle.close()
        return true
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      const holder = readPid(path)
      if (holder === pid) return true
      if (holder !== null && isPidAlive(holder)) return false
      await writeFileSafely(path, `${String(pid)}\n`, { mode: 0o600 })
      return true
    },
    async claimHost(pid) {
      await ensureDir()
      await writeFileSafely(hostFile, `${String(pid)}\n`, { mode: 0o600 })
    },
    async releaseHost(pid) {
      if (readPid(hostFile) === pid) await rm(hostFile, { force: true })
    },
    hostPid() {
      const pid = readPid(hostFile)
      return pid !== null && isPidAlive(pid) ? pid : null
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

function readPid(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim())
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null
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
