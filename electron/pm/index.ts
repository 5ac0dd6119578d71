/**
 * The PM: turns engine events into briefings. Owns the run loop (batching, one run at a time) and,
 * around each run, the memory work: the system prompt with the valve's notes, a snapshot of memory
 * before the run, the budgets enforced after it. `createPm` is Node-only, like the engine.
 */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import * as z from 'zod'
import type { BriefingState, PmRunStatus, PmTrigger } from '../../shared/schemas/briefing.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import { errorText, silentLog, type Log } from '../../shared/log.ts'
import { naviFiles } from '../engine/core/paths.ts'
import { buildInbox, serializeInbox } from './core/inbox.ts'
import { runPm, type PmRunResult } from './invoke.ts'
import { askPm } from './ask.ts'
import { withDismissal } from './core/dismissals.ts'
import { stillListed } from './core/suggestion-rules.ts'
import { digestLine } from './core/digests.ts'
import { createDigestKeeper } from './digests-file.ts'
import {
  presentBriefing,
  pruneDismissalsFile,
  readDismissals,
  writeDismissals,
} from './dismissals-file.ts'
import { enforceMemoryBudgets } from './enforce-memory-budgets.ts'
import { snapshotMemory } from './memory-versions.ts'
import { createPmLoop, type PmLoop } from './pm-loop.ts'
import type { Pm, PmOptions } from './pm-api.ts'
import { readCachedBriefing } from './run-state-files.ts'
import { ensurePmLayout, writeSystemPrompt } from './storage.ts'
import { parseJsonAs } from '../engine/core/parse-json.ts'
import {
  isMissingFileError,
  PM_FILE_MAX_BYTES,
  readRegularText,
} from '../engine/adapters/safe-read.ts'
import { writeFileSafely } from '../engine/adapters/safe-write.ts'

/** The safety valve's notes for the next run; none when there are none or they cannot be read (logged). */
async function readNotes(file: string, log: Log): Promise<string[]> {
  const text = await readRegularText(file, { maxBytes: PM_FILE_MAX_BYTES }).catch(
    (error: unknown) => {
      if (!isMissingFileError(error))
        log.warn(`the valve's notes cannot be read: ${errorText(error)}`)
      return '[]'
    },
  )
  return parseJsonAs(z.array(z.string()), text) ?? []
}

export type { Pm, PmOptions } from './pm-api.ts'

export function createPm(opts: PmOptions): Pm {
  const clock = opts.clock ?? Date.now
  const log = opts.log ?? silentLog
  const files = naviFiles(opts.paths)
  const statusListeners = new Set<(status: PmRunStatus) => void>()
  const briefingListeners = new Set<(state: BriefingState, result: PmRunResult | null) => void>()
  const answerListeners = new Set<(progress: { question: string; text: string }) => void>()
  let last: BriefingState | null = null
  let settings = opts.settings
  // The safety valve's notes reach the PM in the next run's prompt, which may be another process.
  const notesFile = join(files.pmDir, 'valve-notes.json')
  let loop: PmLoop | null = null
  let unsubscribe: (() => void) | null = null
  let layout: Promise<unknown> | null = null
  const ensureLayout = () => (layout ??= ensurePmLayout(opts.paths))

  // The event log folded into the daily digests before its events leave the 24 h log.
  const digests = createDigestKeeper({
    file: files.digests,
    events: () => opts.engine.listEvents({}),
    clock,
    log,
  })

  const emitStatus = (status: PmRunStatus) =>
    statusListeners.forEach((listener) => listener(status))

  /** Memory snapshot, system prompt and inbox for one run; throws when the PM's folder cannot be made ready. */
  const prepare = async (trigger: PmTrigger, events: readonly EngineEvent[]): Promise<string> => {
    try {
      await ensureLayout()
    } catch (error) {
      layout = null // a folder fixed later must be tried again, not the old failure returned
      throw error
    }
    await writeSystemPrompt(opts.paths, { notes: await readNotes(notesFile, log) })
    await snapshotMemory(opts.paths)
    const inbox = buildInbox({
      now: clock(),
      trigger,
      events,
      projects: opts.engine.getState().projects,
      digestLines: (await digests.keep()).map(digestLine),
    })
    try {
      settings = (await opts.reloadSettings?.()) ?? settings
    } catch (error) {
      log.warn(`reading the PM settings failed (${errorText(error)}); the previous ones apply`)
    }
    return serializeInbox(inbox)
  }

  /** A run that failed before claude could answer: a failed status and a stale briefing with the reason. */
  const failed = async (trigger: PmTrigger, error: unknown): Promise<PmRunResult> => {
    const reason = errorText(error)
    log.error(`PM run (${trigger}) failed before claude answered: ${reason}`)
    emitStatus({ phase: 'failed', trigger, at: new Date(clock()).toISOString(), detail: reason })
    const cached = await readCachedBriefing(files.lastOutput).catch((readError: unknown) => {
      log.warn(`the cached briefing cannot be read: ${errorText(readError)}`)
      return null
    })
    return {
      state: {
        briefing: cached,
        is_stale: cached !== null,
        error: `The PM run failed: ${reason}`,
        claude_missing: null,
      },
      ok: false,
      attempts: [],
      denials: [],
      sessionId: null,
      warnings: [],
    }
  }

  /** The safety valve after a run; its notes reach the next run's prompt. A failure here loses no briefing. */
  const keepMemoryInBudget = async () => {
    try {
      const { notes, errors } = await enforceMemoryBudgets(opts.paths)
      for (const { file, message } of errors) log.warn(`memory budget: ${file}: ${message}`)
      if (notes.length > 0) await writeFileSafely(notesFile, JSON.stringify(notes))
      else await rm(notesFile, { force: true })
    } catch (error) {
      log.error(`keeping the PM's memory within its budget failed: ${errorText(error)}`)
    }
  }

  const run = async (trigger: PmTrigger, events: readonly EngineEvent[]): Promise<boolean> => {
    let result: PmRunResult
    try {
      const inbox = await prepare(trigger, events)
      result = await runPm({
        paths: opts.paths,
        inbox,
        trigger,
        model: settings.model,
        claudeBin: settings.claudePath,
        timeoutMs: settings.timeoutMs,
        resume: settings.resume,
        onStatus: emitStatus,
        ...(opts.env ? { env: opts.env } : {}),
      })
      for (const warning of result.warnings) log.warn(warning)
      if (!result.ok && result.state.error) log.warn(`PM run (${trigger}): ${result.state.error}`)
      await keepMemoryInBudget()
    } catch (error) {
      result = await failed(trigger, error)
    }
    last = result.state
    // A new briefing: dismissals of items it no longer lists are dropped (they are news if they come back).
    if (result.ok)
      await pruneDismissals(
        stillListed(result.state.briefing?.output, opts.engine.getState().projects),
      )
    const shown = await present(result.state)
    briefingListeners.forEach((listener) => listener(shown, result))
    return result.ok
  }

  /** A briefing without the attention items the user dismissed or snoozed. */
  const present = async (state: BriefingState): Promise<BriefingState> =>
    presentBriefing(state, await readDismissals(files.dismissed, log), clock())
  const pruneDismissals = (items: readonly { project: string; title: string }[]) =>
    pruneDismissalsFile(files.dismissed, items, clock(), log)

  const lastRunAt = async (): Promise<number | null> => {
    const cached = await readCachedBriefing(files.lastOutput)
    return cached ? Date.parse(cached.generated_at) : null
  }

  return {
    async start() {
      // A PM folder that cannot be made now leaves the PM waiting, not the app unstarted: each run tries
      // again, and fails visibly while it still cannot.
      await ensureLayout().catch((error: unknown) => {
        layout = null
        log.error(`the PM's folder cannot be prepared: ${errorText(error)}`)
      })
      loop = createPmLoop({
        run,
        clock,
        batchWindowMs: settings.batchWindowMs,
        minIntervalMs: settings.minIntervalMs,
        lastRunAt: await lastRunAt(),
        // `run` turns its own failures into a failed status; what still throws is a bug, and is logged.
        onError: (error) => log.error(`PM loop: ${errorText(error)}`),
      })
      unsubscribe = opts.engine.subscribe((events) => loop?.push(events))
      digests.start()
    },
    async stop() {
      digests.stop()
      unsubscribe?.()
      await loop?.stop()
    },
    async runNow() {
      if (loop) {
        await loop.requestNow()
        return this.getBriefing()
      }
      // One-shot (navi brief): the events logged since the last run ride along.
      const since = await lastRunAt()
      const events = await opts.engine.listEvents(
        since === null ? {} : { sinceMs: clock() - since },
      )
      await run(since === null ? 'initialization' : 'on_demand', events)
      return this.getBriefing()
    },
    async ask(question) {
      try {
        settings = (await opts.reloadSettings?.()) ?? settings
      } catch (error) {
        log.warn(`reading the PM settings failed (${errorText(error)}); the previous ones apply`)
      }
      const result = await askPm({
        paths: opts.paths,
        question,
        // The day's log: a question may be about anything Navi saw today, not only since the last run.
        events: await opts.engine.listEvents({}),
        projects: opts.engine.getState().projects,
        model: settings.model,
        claudeBin: settings.claudePath,
        timeoutMs: settings.timeoutMs,
        log,
        onProgress: (text) => answerListeners.forEach((listener) => listener({ question, text })),
        ...(opts.env ? { env: opts.env } : {}),
      })
      if (result.error) log.warn(`PM question failed: ${result.error}`)
      return result
    },
    async getBriefing() {
      if (last) return present(last)
      const cached = await readCachedBriefing(files.lastOutput)
      return present({ briefing: cached, is_stale: false, error: null, claude_missing: null })
    },
    async dismissAttention(item, until) {
      const dismissals = await readDismissals(files.dismissed, log)
      await writeDismissals(files.dismissed, withDismissal(dismissals, item, until))
      const shown = await this.getBriefing()
      briefingListeners.forEach((listener) => listener(shown, null))
    },
    schedule: () => loop?.status() ?? null,
    reconfigure(next) {
      settings = next
      loop?.reconfigure({ batchWindowMs: next.batchWindowMs, minIntervalMs: next.minIntervalMs })
    },
    onStatus(listener) {
      statusListeners.add(listener)
      return () => statusListeners.delete(listener)
    },
    onAnswerProgress(listener) {
      answerListeners.add(listener)
      return () => answerListeners.delete(listener)
    },
    onBriefing(listener) {
      briefingListeners.add(listener)
      return () => briefingListeners.delete(listener)
    },
  }
}
