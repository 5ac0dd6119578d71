/**
 * What a one-shot command's engine read, wrote and started, seen from outside the engine: while the
 * recorder runs, every function of `node:fs` and `node:fs/promises` goes through it, as does
 * `process.kill`; a run during which `node:child_process` or `node:worker_threads` was loaded (or had been
 * before) may have started something. The answer cache (answer-cache.ts) keeps an answer only when the
 * run that computed it read files alone, wrote nothing and started nothing, and then knows the stamp of
 * every path it read.
 *
 * Why wrap the modules rather than ask each adapter what it read: thirty adapters read files, and a cache
 * that believed a list kept by hand would serve a stale answer the day someone adds a read and forgets
 * the list. Here a read is seen wherever it happens, and a function the recorder does not know (a new
 * Node API, `fs.watch`) marks the run as one whose answer is not kept: unknown means no.
 */
import fs, { type BigIntStats, type Stats } from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import { isAbsolute } from 'node:path'
import { fileURLToPath } from 'node:url'
import { FD_READS, INERT, OPENS, opensToRead, READS, WRITES } from './fs-call-kinds.ts'
import {
  sameStamp,
  stampOf,
  stampOfStats,
  strengthOf,
  type PathStamp,
  type StampStrength,
} from './path-stamp.ts'

const STRENGTH: Record<StampStrength, number> = { exists: 0, folder: 1, full: 2 }

/** What a recorded run did, by kind. */
export interface Recording {
  /** Every path looked at (stat, read, listed, opened to read), with its stamp when first looked at. */
  observed: Map<string, PathStamp>
  /** Paths written, renamed, removed or made (or opened to write), and fd writes (as `fd`). */
  written: string[]
  /** What made the run's answer unfit to keep: a process started, a signal sent, an unknown call. */
  unfit: string[]
  /** Pids asked about with signal 0, and whether they were alive. */
  pids: Map<number, boolean>
  /** When recording began (epoch ms). */
  startedAt: number
}

export interface InputRecorder {
  /** Restores every wrapped function and returns what was seen. */
  stop(): Recording
}

type AnyFunction = (...args: unknown[]) => unknown

/**
 * Starts recording. Only one recorder at a time: a second start throws (the wrapped functions would
 * wrap the first recorder's).
 */
export function startRecordingInputs(clock: () => number = Date.now): InputRecorder {
  if (active) throw new Error('the input recorder is already running')
  const recording: Recording = {
    observed: new Map(),
    written: [],
    unfit: [],
    pids: new Map(),
    startedAt: clock(),
  }
  const restores: Array<() => void> = []
  let observing = false
  /** Runs `take` with the wrapped functions passing straight through (its own stat is not a read). */
  const unobserved = <T>(take: () => T): T => {
    observing = true
    try {
      return take()
    } finally {
      observing = false
    }
  }
  /**
   * Records what a read learned of `path`: the first stamp of each path, made stronger when a later read
   * learns more (a folder stat'ed, then listed). A stronger stamp that contradicts the weaker one (gone
   * since it was seen there) means the run read two states of one path: not to be kept.
   */
  const learn = (path: string, stamp: PathStamp): void => {
    const before = recording.observed.get(path)
    if (before === undefined) recording.observed.set(path, stamp)
    else if (STRENGTH[strengthOf(stamp)] > STRENGTH[strengthOf(before)]) {
      if (!sameStamp(before, stamp)) recording.unfit.push(`read twice, changed between: ${path}`)
      recording.observed.set(path, stamp)
    }
  }
  /** A read of `target` that learns all of it: its stamp taken now, before the read. */
  const observe = (target: unknown): void => {
    const path = pathOf(target)
    if (path === null) return
    // A relative path names another file from another folder: the answer would hold for this one only.
    if (!isAbsolute(path)) recording.unfit.push(`a relative path read: ${path}`)
    else {
      const before = recording.observed.get(path)
      if (before === undefined || strengthOf(before) !== 'full')
        learn(
          path,
          unobserved(() => stampOf(path)),
        )
    }
  }
  /** `statSync` and `existsSync`, most of the engine's calls: the stamp from their own result. */
  const wrapResult = (
    owner: Record<string, unknown>,
    name: 'statSync' | 'existsSync',
    stampOfResult: (result: unknown, path: string) => PathStamp,
  ) => {
    const original = owner[name] as (...args: unknown[]) => unknown
    owner[name] = function (this: unknown, ...args: unknown[]): unknown {
      if (observing) return original.apply(this, args)
      const path = pathOf(args[0])
      if (path === null) return original.apply(this, args)
      if (!isAbsolute(path)) {
        recording.unfit.push(`a relative path read: ${path}`)
        return original.apply(this, args)
      }
      try {
        const result = original.apply(this, args)
        learn(path, stampOfResult(result, path))
        return result
      } catch (error) {
        learn(path, (error as NodeJS.ErrnoException).code ?? 'error')
        throw error
      }
    }
    restores.push(() => {
      owner[name] = original
    })
  }

  const wrap = (
    owner: Record<string, unknown>,
    name: string,
    before: (args: unknown[]) => void,
  ) => {
    const original = owner[name] as AnyFunction
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      if (!observing) before(args)
      return original.apply(this, args)
    }
    owner[name] = wrapped
    restores.push(() => {
      owner[name] = original
    })
  }

  for (const owner of [fs, fs.promises] as unknown as Array<Record<string, unknown>>) {
    for (const name of Object.keys(owner)) {
      if (typeof owner[name] !== 'function' || INERT.has(name)) continue
      // Classes (ReadStream, WriteStream…): Navi makes its streams with the functions, which are wrapped.
      if (/^[A-Z]/.test(name)) continue
      if (name === 'statSync')
        wrapResult(
          owner,
          name,
          (result, path) =>
            stampOfStats(result as Stats | BigIntStats | undefined) ??
            unobserved(() => stampOf(path)),
        )
      else if (name === 'existsSync')
        wrapResult(owner, name, (result) => (result ? 'exists' : 'ENOENT'))
      else if (READS.has(name)) wrap(owner, name, (args) => observe(args[0]))
      else if (OPENS.has(name))
        wrap(owner, name, (args) => {
          if (opensToRead(args[1])) observe(args[0])
          else recording.written.push(pathOf(args[0]) ?? `${name}(?)`)
        })
      else if (FD_READS.has(name)) continue
      else if (WRITES.has(name))
        wrap(owner, name, (args) => {
          // The command's own output and messages (stdout, stderr) change no file it reads.
          if (args[0] === 1 || args[0] === 2) return
          recording.written.push(pathOf(args[0]) ?? 'fd')
        })
      else wrap(owner, name, () => recording.unfit.push(`fs.${name}`))
    }
  }

  const originalKill = process.kill
  const kill = (pid: number, signal?: string | number): true =>
    originalKill.call(process, pid, signal)
  process.kill = (pid: number, signal?: string | number): true => {
    if (signal !== 0) {
      recording.unfit.push(`a signal sent to ${String(pid)}`)
      return kill(pid, signal)
    }
    try {
      kill(pid, 0)
      recording.pids.set(pid, true)
      return true
    } catch (error) {
      // EPERM: alive, someone else's. Anything else (ESRCH): gone.
      recording.pids.set(pid, (error as NodeJS.ErrnoException).code === 'EPERM')
      throw error
    }
  }
  restores.push(() => {
    process.kill = originalKill
  })
  syncBuiltinESMExports()
  // Loaded already: a process could start unseen (loading it to watch it would cost every run 5 ms).
  const loadedBefore = startsProcesses()
  for (const name of loadedBefore ?? []) recording.unfit.push(`${name} loaded before recording`)
  active = true

  return {
    stop() {
      for (const restore of restores.reverse()) restore()
      syncBuiltinESMExports()
      active = false
      // A module that starts processes loaded while recording: the run may have started one, and such a
      // run's answer is not kept.
      const loadedAfter = startsProcesses()
      if (loadedAfter === null) recording.unfit.push('cannot tell whether a process was started')
      else
        for (const name of loadedAfter)
          if (!loadedBefore?.has(name)) recording.unfit.push(`${name} loaded`)
      return recording
    },
  }
}

let active = false

/**
 * The built-in modules that start processes or threads, loaded by now. null where this Node does not tell
 * (`process.moduleLoadList`, Node's list of the built-ins it loaded, is not there).
 */
function startsProcesses(): Set<string> | null {
  const list = (process as unknown as { moduleLoadList?: unknown }).moduleLoadList
  if (!Array.isArray(list)) return null
  const loaded = new Set<string>()
  for (const entry of list as string[])
    if (entry === 'NativeModule child_process' || entry === 'NativeModule worker_threads')
      loaded.add(entry.slice('NativeModule '.length))
  return loaded
}

/** The path of a path argument (string, Buffer, file URL); null for a descriptor. */
function pathOf(target: unknown): string | null {
  if (typeof target === 'string') return target
  if (Buffer.isBuffer(target)) return target.toString()
  if (target instanceof URL) return fileURLToPath(target)
  return null
}
