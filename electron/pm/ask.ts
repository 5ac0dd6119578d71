/**
 * A question to the PM (`navi ask`, the contract's `pm:ask`): the real `claude -p` with the same least
 * privilege as a briefing run (core/claude-args.ts: Read/Write/Edit limited to the PM's folder and memory,
 * no user settings, hooks or MCP), its own system prompt (core/ask-prompt.ts) and answer schema, the
 * question with the last few exchanges, the recent events and the projects on stdin. The exchange is
 * kept in `pm/asks.jsonl` so a follow-up makes sense; usage is logged like a run's. Never throws.
 */
import { realpath } from 'node:fs/promises'
import {
  pmAnswerSchema,
  pmExchangeSchema,
  type PmAskResult,
  type PmExchange,
} from '../../shared/schemas/ask.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { ProjectSnapshot } from '../../shared/schemas/project.ts'
import { naviFiles, type EnginePaths } from '../engine/core/paths.ts'
import { parseJsonAs } from '../engine/core/parse-json.ts'
import {
  isMissingFileError,
  PM_FILE_MAX_BYTES,
  readRegularText,
} from '../engine/adapters/safe-read.ts'
import { writeFileSafely } from '../engine/adapters/safe-write.ts'
import { runAgentProcess } from './agent-process.ts'
import { buildAskSystemPrompt } from './core/ask-prompt.ts'
import { buildPmArgs, buildPmEnv, schemaArgJson } from './core/claude-args.ts'
import { createAnswerStream } from './core/answer-stream.ts'
import { buildInbox } from './core/inbox.ts'
import { parseClaudeReply } from './core/parse-reply.ts'
import { findClaude } from './find-claude.ts'
import { appendUsage } from './run-state-files.ts'
import { usageLine } from './core/usage.ts'
import { ensurePmLayout } from './storage.ts'
import * as z from 'zod'
import { errorText, silentLog, type Log } from '../../shared/log.ts'

/** Exchanges a question carries (oldest first): enough for "and yesterday?", not a whole chat. */
export const ASK_HISTORY_SENT = 3
/** Exchanges kept in `asks.jsonl`. */
const ASK_HISTORY_KEPT = 20
/** @default one attempt of a question may take this long (it reads memory, then answers) */
export const DEFAULT_ASK_TIMEOUT_MS = 3 * 60_000

export interface AskPmOptions {
  paths: EnginePaths
  question: string
  events: readonly EngineEvent[]
  projects: readonly ProjectSnapshot[]
  model?: string
  claudeBin?: string | null
  env?: Readonly<Record<string, string | undefined>>
  timeoutMs?: number
  /** @default () => new Date() */
  now?: () => Date
  /** Where files that could not be written are told (the runtime's `pm` log). @default nowhere */
  log?: Log
  /** The answer's text so far, each time it grows while the PM writes it. */
  onProgress?: (text: string) => void
}

export async function askPm(opts: AskPmOptions): Promise<PmAskResult> {
  const now = opts.now ?? (() => new Date())
  const log = opts.log ?? silentLog
  const files = naviFiles(opts.paths)
  const env = opts.env ?? process.env
  const claude = await findClaude({ env, setting: opts.claudeBin })
  if (!claude.found) return { answer: null, error: claude.hint }
  let pmDir: string
  let memoryDir: string
  try {
    await ensurePmLayout(opts.paths)
    pmDir = await realpath(files.pmDir)
    memoryDir = await realpath(files.memoryDir)
    await writeFileSafely(files.askPrompt, buildAskSystemPrompt({ pmDir, memoryDir }))
  } catch (error) {
    return { answer: null, error: `the PM directory is not set up (${errorText(error)})` }
  }
  const history = await readAskHistory(files.askHistory, log)
  const inbox = {
    question: opts.question,
    previous_exchanges: history.slice(-ASK_HISTORY_SENT),
    ...buildInbox({
      now: now().getTime(),
      trigger: 'ask',
      events: opts.events,
      projects: opts.projects,
    }),
  }
  const res = await runAgentProcess({
    bin: claude.path,
    args: buildPmArgs({
      schemaJson: schemaArgJson(
        z.toJSONSchema(pmAnswerSchema, { target: 'draft-7', io: 'input' }) as Record<
          string,
          unknown
        >,
      ),
      systemPromptFile: files.askPrompt,
      model: opts.model,
      pmDir,
      memoryDir,
      // Streamed with its deltas, so the answer shows as it is written (core/answer-stream.ts).
      stream: true,
      partialMessages: true,
    }),
    cwd: pmDir,
    env: buildPmEnv(env),
    log,
    input: JSON.stringify(inbox),
    timeoutMs: opts.timeoutMs ?? DEFAULT_ASK_TIMEOUT_MS,
    onLine: progressRelay(opts.onProgress),
  })
  const reply = parseClaudeReply(res.stdout, res.exitCode, pmAnswerSchema, 'answer')
  const error = res.timedOut
    ? 'claude did not answer in time and was killed'
    : (res.spawnError ?? (reply.ok ? null : reply.reason))
  const line = usageLine({
    at: now(),
    trigger: 'ask',
    usage: reply.usage,
    durationMs: res.durationMs,
    ok: error === null,
  })
  await appendUsage(files.usageLog, line).catch((e: unknown) =>
    log.warn(`usage log not written: ${errorText(e)}`),
  )
  if (!reply.ok || error !== null) return { answer: null, error: error ?? 'no answer' }
  const exchange = {
    question: opts.question,
    answer: reply.output.answer,
    asked_at: now().toISOString(),
  }
  await writeAskHistory(files.askHistory, [...history, exchange].slice(-ASK_HISTORY_KEPT)).catch(
    (e: unknown) =>
      log.warn(
        `${files.askHistory} not written (a follow-up will miss this answer): ${errorText(e)}`,
      ),
  )
  return { answer: reply.output, error: null }
}

/** The kept exchanges, oldest first; lines that are not one are skipped. */
export async function readAskHistory(file: string, log: Log = silentLog): Promise<PmExchange[]> {
  const text = await readRegularText(file, { maxBytes: PM_FILE_MAX_BYTES }).catch((e: unknown) => {
    // None yet is the first question; anything else loses only the context of a follow-up.
    if (!isMissingFileError(e))
      log.warn(`${file} not read (no previous exchanges sent): ${errorText(e)}`)
    return ''
  })
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parseJsonAs(pmExchangeSchema, line))
    .filter((exchange): exchange is PmExchange => exchange !== null)
}

/** Replaces the history atomically (it is short: rewriting beats appending and trimming). */
async function writeAskHistory(file: string, exchanges: PmExchange[]): Promise<void> {
  await writeFileSafely(file, exchanges.map((e) => `${JSON.stringify(e)}\n`).join(''))
}

/** Feeds the CLI's lines to the answer stream and tells each longer answer text; none without a listener. */
function progressRelay(
  onProgress: ((text: string) => void) | undefined,
): ((line: string) => void) | undefined {
  if (!onProgress) return undefined
  const stream = createAnswerStream()
  return (line) => {
    const text = stream.push(line)
    if (text !== null) onProgress(text)
  }
}
