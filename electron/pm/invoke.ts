/**
 * One PM run: the real `claude -p` with the inbox on stdin, least privilege (core/claude-args.ts),
 * retries of rate limits and overloads with a backoff, a hard timeout, the cached briefing as the
 * fallback, and one `usage.jsonl` line per CLI attempt (a failed attempt can cost tokens too, and
 * `ok` tells them apart). The caller runs one at a time; this module holds no state between runs.
 */
import { realpath, stat } from 'node:fs/promises'
import type {
  BriefingState,
  CachedBriefing,
  PmRunStatus,
  PmTrigger,
} from '../../shared/schemas/briefing.ts'
import { isObject } from '../engine/core/json-narrow.ts'
import { naviFiles, type EnginePaths } from '../engine/core/paths.ts'
import { runAgentProcess } from './agent-process.ts'
import { buildPmArgs, buildPmEnv, schemaArgJson } from './core/claude-args.ts'
import {
  parsePmReply,
  streamPhase,
  type PermissionDenial,
  type PmReplyUsage,
} from './core/parse-reply.ts'
import { findClaude } from './find-claude.ts'
import {
  appendUsage,
  deleteSessionId,
  readCachedBriefing,
  readSessionId,
  writeCachedBriefing,
  writeSessionId,
} from './run-state-files.ts'
import { outputJsonSchema } from './templates.ts'
import { usageLine } from './core/usage.ts'
import { PM_FILE_MAX_BYTES, readRegularText } from '../engine/adapters/safe-read.ts'

/** @default the timeout of one CLI attempt: a hung CLI is killed after 5 minutes */
export const DEFAULT_PM_TIMEOUT_MS = 5 * 60_000
/** @default the pauses before the 2nd, 3rd and 4th attempt of a rate-limited or overloaded run */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000]

export interface RunPmOptions {
  paths: EnginePaths
  /** JSON text, or a value to serialize. Sent on stdin, never in argv. */
  inbox: string | object
  trigger: PmTrigger
  /** @default 'sonnet' */
  model?: string
  /** The claude path from the settings (`NAVI_CLAUDE_BIN` wins); else PATH and install locations. */
  claudeBin?: string | null
  /** Per attempt. @default DEFAULT_PM_TIMEOUT_MS */
  timeoutMs?: number
  /** Progress for the "updating…" line; also switches the CLI to `stream-json`. */
  onStatus?: (status: PmRunStatus) => void
  /** @default DEFAULT_RETRY_DELAYS_MS (so at most 4 attempts) */
  retryDelaysMs?: readonly number[]
  /**
   * Resume the session kept in `pm/session_id` instead of a fresh one per run (docs/pm.md, "Model and
   * sessions"). A resume that fails deletes the id and the run starts afresh. @default false
   */
  resume?: boolean
  /** Filtered into the CLI's minimal environment; claude is searched with it. @default process.env */
  env?: Readonly<Record<string, string | undefined>>
  /** `CLAUDE_CODE_MAX_RETRIES` for the CLI. @default DEFAULT_CLI_MAX_RETRIES */
  cliMaxRetries?: number
  /** Called with each attempt's pid (tests check it is gone after a timeout). */
  onSpawn?: (pid: number) => void
  /** @default () => new Date() */
  now?: () => Date
}

/** One CLI invocation of a run. */
export interface PmAttempt {
  pid: number | undefined
  resumed: boolean
  exitCode: number | undefined
  timedOut: boolean
  durationMs: number
  ok: boolean
  error: string | null
  retryable: boolean
  usage: PmReplyUsage | null
  denials: PermissionDenial[]
}

export interface PmRunResult {
  /** What the faces show: the fresh briefing, or the cached one marked stale, and the error. */
  state: BriefingState
  /** True when this run produced a fresh, valid briefing. */
  ok: boolean
  attempts: PmAttempt[]
  /** Refused tool calls over all attempts (the briefing still counts when some were refused). */
  denials: PermissionDenial[]
  /** Session id of the last attempt that reported one. */
  sessionId: string | null
  /** Files that could not be written (usage log, cache, session id); the run went on. */
  warnings: string[]
}

/** Runs the PM once and returns the briefing state; never throws for CLI or API failures. */
export async function runPm(opts: RunPmOptions): Promise<PmRunResult> {
  const now = opts.now ?? (() => new Date())
  const files = naviFiles(opts.paths)
  const env = opts.env ?? process.env
  const status = (phase: PmRunStatus['phase'], detail?: string): void => {
    try {
      opts.onStatus?.({
        phase,
        trigger: opts.trigger,
        at: now().toISOString(),
        ...(detail ? { detail } : {}),
      })
    } catch {
      // A failing listener must not fail the run (it is called from the stdout stream).
    }
  }
  const attempts: PmAttempt[] = []
  const warnings: string[] = []
  let sessionId: string | null = null

  const fail = async (error: string, claudeMissing: string | null = null): Promise<PmRunResult> => {
    const cached = await readCachedBriefing(files.lastOutput)
    status('failed', error)
    return {
      state: { briefing: cached, is_stale: cached !== null, error, claude_missing: claudeMissing },
      ok: false,
      attempts,
      denials: attempts.flatMap((a) => a.denials),
      sessionId,
      warnings,
    }
  }

  status('starting')
  const claude = await findClaude({ env, setting: opts.claudeBin })
  if (!claude.found) return fail(claude.hint, claude.hint)
  const setup = await prepare(files)
  if (typeof setup === 'string') return fail(setup)

  const delays = opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
  const input = typeof opts.inbox === 'string' ? opts.inbox : JSON.stringify(opts.inbox)
  let resumeId = opts.resume ? ((await readSessionId(files.pmSessionId)) ?? undefined) : undefined
  let lastError = 'the PM did not run'
  for (let retry = 0; ;) {
    const res = await runAgentProcess({
      bin: claude.path,
      args: buildPmArgs({
        ...setup,
        model: opts.model,
        resumeId,
        stream: opts.onStatus !== undefined,
        persistSession: opts.resume === true,
      }),
      cwd: setup.pmDir,
      env: buildPmEnv(env, { cliMaxRetries: opts.cliMaxRetries }),
      input,
      timeoutMs: opts.timeoutMs ?? DEFAULT_PM_TIMEOUT_MS,
      onSpawn: opts.onSpawn,
      onLine: opts.onStatus ? statusRelay(status) : undefined,
    })
    const reply = parsePmReply(res.stdout, res.exitCode)
    sessionId = reply.sessionId ?? sessionId
    const error = res.timedOut
      ? `claude did not finish within ${String(opts.timeoutMs ?? DEFAULT_PM_TIMEOUT_MS)} ms and was killed`
      : (res.spawnError ??
        (reply.ok ? null : withStderr(reply.reason, reply.hasEnvelope ? '' : res.stderr)))
    const retryable = !reply.ok && !res.timedOut && reply.retryable
    attempts.push({
      pid: res.pid,
      resumed: resumeId !== undefined,
      exitCode: res.exitCode,
      timedOut: res.timedOut,
      durationMs: res.durationMs,
      ok: error === null,
      error,
      retryable,
      usage: reply.usage,
      denials: reply.denials,
    })
    const line = usageLine({
      at: now(),
      trigger: opts.trigger,
      usage: reply.usage,
      durationMs: res.durationMs,
      ok: error === null,
    })
    await appendUsage(files.usageLog, line).catch((e: unknown) =>
      warnings.push(`usage log: ${String(e)}`),
    )

    if (reply.ok && error === null) {
      const cached: CachedBriefing = {
        output: reply.output,
        generated_at: now().toISOString(),
        trigger: opts.trigger,
      }
      await writeCachedBriefing(files.lastOutput, cached).catch((e: unknown) =>
        warnings.push(`cache: ${String(e)}`),
      )
      if (opts.resume && reply.sessionId !== null) {
        await writeSessionId(files.pmSessionId, reply.sessionId).catch((e: unknown) =>
          warnings.push(`session id: ${String(e)}`),
        )
      }
      status('done')
      const state = { briefing: cached, is_stale: false, error: null, claude_missing: null }
      const denials = attempts.flatMap((a) => a.denials)
      return { state, ok: true, attempts, denials, sessionId, warnings }
    }
    lastError = error ?? 'unknown error'
    // An unknown, expired or other-cwd session exits 1 with no envelope (reference, section 5);
    // memory carries the continuity, so drop the id and start a fresh session (once).
    if (resumeId !== undefined && !res.timedOut && !reply.ok && !reply.hasEnvelope) {
      await deleteSessionId(files.pmSessionId).catch((e: unknown) =>
        warnings.push(`session id: ${String(e)}`),
      )
      resumeId = undefined
      status('starting', `resume failed, starting a fresh session: ${lastError}`)
      continue
    }
    const delay = delays[retry]
    if (!retryable || delay === undefined) break
    retry++
    status('starting', `retry ${String(retry)} of ${String(delays.length)} after: ${lastError}`)
    await sleep(delay)
  }
  return fail(lastError)
}

interface PreparedRun {
  pmDir: string
  memoryDir: string
  systemPromptFile: string
  schemaJson: string
}

/** Symlink-free paths (the allow rules must match what the CLI resolves) and the schema text. */
async function prepare(files: ReturnType<typeof naviFiles>): Promise<PreparedRun | string> {
  try {
    const pmDir = await realpath(files.pmDir)
    const memoryDir = await realpath(files.memoryDir)
    if (!(await stat(files.systemPrompt)).isFile()) throw new Error('not a file')
    return {
      pmDir,
      memoryDir,
      systemPromptFile: files.systemPrompt,
      schemaJson: await schemaText(files.outputSchema),
    }
  } catch (e) {
    return `the PM directory is not set up (${e instanceof Error ? e.message : String(e)})`
  }
}

/** `output-schema.json` when it holds a JSON object, else the schema built into Navi. */
async function schemaText(file: string): Promise<string> {
  // Unreadable reads as '' and falls back to the built-in schema, which is what the file holds anyway.
  const text = await readRegularText(file, { maxBytes: PM_FILE_MAX_BYTES }).catch(() => '')
  try {
    const value: unknown = JSON.parse(text)
    if (isObject(value)) return schemaArgJson(value)
  } catch {
    // missing or corrupt: fall back to the built-in schema
  }
  return schemaArgJson(outputJsonSchema())
}

/** Turns stream-json lines into status updates; the final done/failed is the invoker's call. */
function statusRelay(status: (phase: PmRunStatus['phase'], detail?: string) => void) {
  let last = ''
  return (line: string): void => {
    const p = streamPhase(line)
    if (p === null || p.phase === 'done' || p.phase === 'failed') return
    const key = `${p.phase}|${p.detail ?? ''}`
    if (key === last) return
    last = key
    status(p.phase, p.detail)
  }
}

function withStderr(reason: string, stderr: string): string {
  const tail = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 400)
  return tail === '' ? reason : `${reason}: ${tail}`
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
