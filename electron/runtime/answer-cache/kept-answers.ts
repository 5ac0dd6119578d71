/**
 * The computing half of the answer cache (answer-cache.ts holds the looking-up half, which every read-only
 * command loads): record a run, keep its answers when they may be kept, and until when the clock cannot
 * change them. Loaded by a run that computes.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { writeSmallFileSafely } from '../../engine/adapters/safe-write.ts'
import { clockHorizon } from '../../engine/core/clock-horizon.ts'
import { naviFiles, type EnginePaths } from '../../engine/core/paths.ts'
import { readDismissals } from '../../pm/dismissals-file.ts'
import type { IpcOutput } from '../../../shared/ipc-contract.ts'
import type { NaviRuntime } from '../index.ts'
import type { Recording } from './input-recorder.ts'
import {
  ANSWER_FILES_KEPT,
  ANSWERS_FORMAT,
  ANSWERS_PREFIX,
  answersFile,
  unfitToKeep,
  type AnswerEntry,
  type SavedAnswers,
} from './answer-cache.ts'

export { startRecordingInputs } from './input-recorder.ts'

/**
 * Saves a recorded run's answers (`answers[0]` its first question) in `cacheDir` when they may be kept;
 * otherwise says why not.
 */
export async function keepAnswers(
  where: { cacheDir: string; key: string },
  recording: Recording,
  answers: AnswerEntry[],
  /** When the engine derived them, and until when the clock cannot change them (answersClock). */
  clock: { computedAt: number; until: number },
  now: number = Date.now(),
): Promise<string | null> {
  const first = answers[0]
  if (!first) return 'no answers'
  const unfit = unfitToKeep(recording)
  if (unfit !== null) return unfit
  const { computedAt, until } = clock
  if (!(until > now)) return 'the clock may change them any moment'
  const saved: SavedAnswers = {
    format: ANSWERS_FORMAT,
    key: where.key,
    computedAt,
    // JSON has no Infinity.
    until: Number.isFinite(until) ? until : null,
    // Parents before what is in them: the lookup skips what is under a folder still missing.
    observed: [...recording.observed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    pids: [...recording.pids],
    answers,
  }
  mkdirSync(where.cacheDir, { recursive: true })
  const file = answersFile(where.cacheDir, first.channel, first.input)
  // Atomic, not flushed: after a crash a damaged file is only a command that computes its answer.
  // The user's alone: the answers quote prompts and replies.
  await writeSmallFileSafely(file, JSON.stringify(saved), { fsync: false, mode: 0o600 })
  dropOldAnswers(where.cacheDir, file)
  return null
}

/** Keeps the ANSWER_FILES_KEPT newest files of answers (`kept` among them), removes the rest. */
function dropOldAnswers(cacheDir: string, kept: string): void {
  const files = readdirSync(cacheDir)
    .filter((name) => name.startsWith(ANSWERS_PREFIX) && name.endsWith('.json'))
    .map((name) => join(cacheDir, name))
    .filter((path) => path !== kept)
    .map((path) => ({ path, mtimeMs: statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
  for (const { path } of files.slice(ANSWER_FILES_KEPT - 1)) rmSync(path, { force: true })
}

/**
 * When `runtime`'s engine derived `answers`, and until when the clock alone cannot change them
 * (core/clock-horizon.ts): its sessions and projects, the events listed, the snoozes the suggestions
 * were filtered by.
 */
export async function answersClock(
  runtime: NaviRuntime,
  paths: EnginePaths,
  answers: readonly AnswerEntry[],
): Promise<{ computedAt: number; until: number }> {
  const state = runtime.engine.getState()
  const events = answers.flatMap((a) =>
    a.channel === 'events:list' ? (a.output as IpcOutput<'events:list'>).events : [],
  )
  const suggested = answers.some((a) => a.channel === 'suggestions:list')
  const dismissals = suggested ? await readDismissals(naviFiles(paths).dismissed) : []
  const computedAt = Date.parse(state.generated_at)
  const until = clockHorizon({
    now: computedAt,
    sessions: runtime.engine.getSessions(),
    projects: state.projects,
    events,
    dismissedUntil: dismissals.map((d) => d.until),
  })
  return { computedAt, until }
}
