/**
 * A one-shot command's answers kept for the next command that asks the same, while nothing they were
 * computed from changed. `navi status` over 500 sessions computes its answer in ~60 ms of a ~170 ms run
 * (load the engine, read the index, stat every transcript, assemble, group, snapshot); checking that
 * none of the ~1,000 paths it read changed costs a few milliseconds.
 *
 * An answer is kept only from a run that read files alone (no process started, nothing written: a run
 * that wrote events or snapshots leaves the next run to compute again and keep that), with the stamp of
 * every path it read (input-recorder.ts), the pids it found alive, and the instant the clock alone could
 * change it (core/clock-horizon.ts). It is shown again only when every stamp and pid is as it was and
 * that instant has not come: what the engine would compute then is what it computed.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { sameStamp, stampOf, changedNear, type PathStamp } from './path-stamp.ts'
import type { Recording } from './input-recorder.ts'
import { fnv1a } from '../../../shared/name-hash.ts'

export const ANSWERS_FORMAT = 'navi-answers/1'

/**
 * A path changed this close before its read (or during the run) cannot vouch for what was read: file
 * system clocks tick in nanoseconds to two seconds (FAT; one on HFS+), and a second write in the same tick
 * leaves the same stamp. Generous: such a path's next run keeps the answer.
 */
export const RACY_MARGIN_MS = 2000

/** One read-only channel's answer to one input. */
export interface AnswerEntry {
  channel: string
  input: unknown
  output: unknown
}

export interface SavedAnswers {
  format: typeof ANSWERS_FORMAT
  /** The build and the environment that computed them (answerKey). */
  key: string
  /** When the engine derived them (epoch ms). */
  computedAt: number
  /** The first instant the clock alone may change them (epoch ms); null: never. */
  until: number | null
  observed: Array<[string, PathStamp]>
  pids: Array<[number, boolean]>
  answers: AnswerEntry[]
}

/** Environment that decides what the engine reads and how (its folders, git's and tmux's settings). */
const KEYED_ENV = /^(NAVI_|CLAUDE_|CODEX_|GIT_|TMUX|XDG_)|^HOME$/
/** What says where answers and code come from, not what the answers are. */
const UNKEYED_ENV = new Set(['NAVI_ANSWER_CACHE_TRACE', 'NAVI_NO_CODE_CACHE'])

/**
 * Files of answers kept at most: one per first question, and a question with a time in it (`events
 * --since 2h`) is another question each time.
 */
export const ANSWER_FILES_KEPT = 8

/** Answers of one build under one environment: another build or another home computes its own. */
export function answerKey(build: string, env: NodeJS.ProcessEnv): string {
  const keyed = Object.keys(env)
    .filter((name) => KEYED_ENV.test(name) && !UNKEYED_ENV.has(name))
    .sort()
    .map((name) => [name, env[name]])
  return JSON.stringify([build, typeof process.getuid === 'function' ? process.getuid() : 0, keyed])
}

/** The file of the answers whose first question is `channel` with `input`. */
export function answersFile(cacheDir: string, channel: string, input: unknown): string {
  const name = `${channel.replace(/[^a-z]+/g, '-')}-${fnv1a(JSON.stringify(input ?? null))}`
  return join(cacheDir, `${ANSWERS_PREFIX}${name}.json`)
}

export const ANSWERS_PREFIX = 'answers-'

export type Freshness = { fresh: true; saved: SavedAnswers } | { fresh: false; reason: string }

/**
 * The saved answers in `file` if they still hold at `now`: same key, before their horizon (and not
 * before they were computed: a clock set back proves nothing), every path's stamp and every pid's life
 * as then.
 */
export function freshAnswers(
  file: string,
  key: string,
  now: number,
  isAlive: (pid: number) => boolean = pidAlive,
): Freshness {
  let saved: SavedAnswers
  try {
    saved = JSON.parse(readFileSync(file, 'utf8')) as SavedAnswers
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { fresh: false, reason: 'none' }
    return { fresh: false, reason: `unreadable: ${(error as Error).message}` }
  }
  if (saved?.format !== ANSWERS_FORMAT || saved.key !== key) return { fresh: false, reason: 'key' }
  if (!Array.isArray(saved.observed) || !Array.isArray(saved.pids) || !Array.isArray(saved.answers))
    return { fresh: false, reason: 'damaged' }
  const until = saved.until ?? Number.POSITIVE_INFINITY
  if (!(now >= saved.computedAt && now < until)) return { fresh: false, reason: 'clock' }
  // Saved parents first (keepAnswers sorts them): a path still missing under a folder still missing
  // needs no stat of its own (a walk up from a cwd that is gone asks a dozen of them).
  const missing = new Set<string>()
  for (const [path, stamp] of saved.observed) {
    if (stamp === 'ENOENT' && underMissing(path, missing)) continue
    if (!sameStamp(stamp, stampOf(path))) return { fresh: false, reason: `changed: ${path}` }
    if (stamp === 'ENOENT') missing.add(path)
  }
  for (const [pid, alive] of saved.pids)
    if (isAlive(pid) !== alive) return { fresh: false, reason: `pid ${String(pid)}` }
  return { fresh: true, saved }
}

/**
 * Why a recorded run's answers cannot be kept, or null when they can: it wrote or started something, or
 * a path it read had changed just before it was read. A path that changed after its stamp was taken
 * (during the run or later) is caught by the next lookup: its stamp is not the saved one.
 */
export function unfitToKeep(recording: Recording, marginMs = RACY_MARGIN_MS): string | null {
  if (recording.unfit.length > 0) return recording.unfit[0] ?? 'unfit'
  if (recording.written.length > 0) return `wrote ${recording.written[0] ?? ''}`
  for (const [path, stamp] of recording.observed)
    if (changedNear(stamp, recording.startedAt, marginMs)) return `changed just before: ${path}`
  return null
}

/** Whether a process lives (EPERM: it does, another user's). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Whether the folder holding `path` is in `missing`. That folder only: a walk up from a cwd that is gone
 * asks every level, so each missing path's folder comes before it (sorted) when it is missing too.
 */
function underMissing(path: string, missing: ReadonlySet<string>): boolean {
  return missing.size > 0 && missing.has(dirname(path))
}
