/**
 * What the PM offers the runtime: how it is made, what it answers, what it tells its listeners. Made by
 * `createPm` (index.ts).
 */
import type { BriefingState, PmRunStatus } from '../../shared/schemas/briefing.ts'
import type { PmAskResult } from '../../shared/schemas/ask.ts'
import type { PmSettings } from '../../shared/schemas/config.ts'
import type { Log } from '../../shared/log.ts'
import type { EnginePaths } from '../engine/core/paths.ts'
import type { Engine } from '../engine/index.ts'
import type { PmRunResult } from './invoke.ts'
import type { PmLoopStatus } from './pm-loop.ts'

export interface PmOptions {
  paths: EnginePaths
  engine: Engine
  settings: PmSettings
  /** @default Date.now */
  clock?: () => number
  /**
   * Read before each run, so a model or claude path changed in Settings applies to the next run without a
   * restart (the batch window and the interval follow `reconfigure`). @default the latest `settings`
   */
  reloadSettings?: () => Promise<PmSettings>
  /** Passed (filtered) to the CLI; tests point it at a scripted API. @default process.env */
  env?: Readonly<Record<string, string | undefined>>
  /** Where failures go (the runtime's `pm` log). @default nowhere */
  log?: Log
}

export interface Pm {
  /** Creates the layout and starts running on triggers from the engine. */
  start(): Promise<void>
  stop(): Promise<void>
  /** One on-demand run now (after the one in progress, if any), with the events since the last run. */
  runNow(): Promise<BriefingState>
  /** The last briefing (fresh or cached) with its staleness. */
  getBriefing(): Promise<BriefingState>
  /** Answers a question from the day's events, the projects and the PM's memory (pm/ask.ts). */
  ask(question: string): Promise<PmAskResult>
  onStatus(listener: (status: PmRunStatus) => void): () => void
  /**
   * Each new briefing as the faces show it (dismissed items left out); `result` is null when it is the same
   * briefing told again because the user dismissed or snoozed one of its items.
   */
  onBriefing(listener: (state: BriefingState, result: PmRunResult | null) => void): () => void
  /** The answer to a question as it is being written (shown, never kept). */
  onAnswerProgress(listener: (progress: { question: string; text: string }) => void): () => void
  /**
   * Hides an attention item of the briefing: until `until` (a snooze), or for as long as the PM lists it
   * (null). Kept in `pm/dismissed.json`, so it survives a restart.
   */
  dismissAttention(item: { project: string; title: string }, until: string | null): Promise<void>
  /**
   * Settings changed while running: the batch window and the interval apply to the next scheduling
   * decision, model, claude path and timeout to the next run.
   */
  reconfigure(settings: PmSettings): void
  /** How the PM schedules now; null before `start()`. */
  schedule(): PmLoopStatus | null
}
