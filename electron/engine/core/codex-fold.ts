/**
 * Folds Codex rollout lines (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`) into a
 * CodexRolloutSummary, in place. Pure. Formats: agent-cli-formats.md section 14.4.
 * Lines are `{timestamp, type, payload}`; unknown kinds and fields are ignored.
 */
import type { TokenUsage } from '../../../shared/schemas/session.ts'
import type { CodexRolloutSummary } from './source-records.ts'
import { noteCall, noteResult } from './command-streak.ts'
import {
  asCappedString,
  asString,
  asTimestamp,
  asTokenCount,
  isBadCount,
  isObject,
  type JsonObject,
} from './json-narrow.ts'

/** What a summary keeps of a message: enough to recognize it, never a 100 MB paste. */
const MESSAGE_MAX = 2000
const PATH_MAX = 4096
const SHORT_MAX = 256

const ROLLOUT_THREAD_ID =
  /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(?:\.zst)?$/i

/** Context Codex injects as `user` messages before the real prompt. */
const INJECTED_USER_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '<user_shell_command>',
  '# AGENTS.md instructions',
]

/** `rollout-<local time>-<thread id>.jsonl` → the thread id, else the file name without `.jsonl`. */
export function threadIdFromRolloutPath(path: string): string {
  const match = ROLLOUT_THREAD_ID.exec(path)
  if (match?.[1]) return match[1]
  const name = path.slice(path.lastIndexOf('/') + 1)
  return name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : name
}

export function emptyCodexRolloutSummary(threadId: string, path: string): CodexRolloutSummary {
  return {
    threadId,
    path,
    cwd: null,
    source: null,
    cliVersion: null,
    startedAt: null,
    lastActivity: null,
    turns: 0,
    inTurn: false,
    lastAgentMessage: null,
    firstUserMessage: null,
    lastUserMessage: null,
    tokens: { input: 0, output: 0, cache_read: 0, cache_creation: 0, total: 0 },
    branch: null,
    commandStreak: null,
    turnError: null,
    corruptLines: 0,
  }
}

/**
 * Codex `total_token_usage` → TokenUsage. OpenAI's `input_tokens` include the cached ones, so
 * `input` is the uncached part and `total` does not count cached tokens twice.
 */
export function codexTokenUsage(usage: JsonObject): TokenUsage {
  const inputWithCache = asTokenCount(usage.input_tokens)
  const cacheRead = Math.min(asTokenCount(usage.cached_input_tokens), inputWithCache)
  const cacheCreation = asTokenCount(usage.cache_write_input_tokens)
  const output = asTokenCount(usage.output_tokens)
  const input = Math.max(0, inputWithCache - cacheRead - cacheCreation)
  return {
    input,
    output,
    cache_read: cacheRead,
    cache_creation: cacheCreation,
    total: input + output + cacheRead + cacheCreation,
  }
}

/** Updates `summary` in place with one parsed rollout line; times after `latestMs` count as absent. */
export function foldCodexLine(
  summary: CodexRolloutSummary,
  line: unknown,
  latestMs = Number.POSITIVE_INFINITY,
): void {
  if (!isObject(line)) return
  const timestamp = asTimestamp(line.timestamp, latestMs)
  // A line whose time is not believable is still used for the rest, and counted as damaged.
  if (timestamp === null && line.timestamp !== undefined) summary.corruptLines++
  if (timestamp !== null) {
    summary.startedAt ??= timestamp
    if (summary.lastActivity === null || timestamp > summary.lastActivity) {
      summary.lastActivity = timestamp
    }
  }
  const payload = line.payload
  if (!isObject(payload)) return
  switch (line.type) {
    case 'session_meta':
      foldSessionMeta(summary, payload, latestMs)
      return
    case 'turn_context':
      summary.cwd ??= asCappedString(payload.cwd, PATH_MAX)
      return
    case 'event_msg':
      foldEvent(summary, payload, timestamp)
      return
    case 'response_item':
      foldResponseItem(summary, payload, timestamp ?? summary.lastActivity ?? '')
      return
  }
}

function foldSessionMeta(summary: CodexRolloutSummary, meta: JsonObject, latestMs: number): void {
  summary.threadId = asCappedString(meta.id, SHORT_MAX) ?? summary.threadId
  summary.cwd = asCappedString(meta.cwd, PATH_MAX) ?? summary.cwd
  summary.cliVersion = asCappedString(meta.cli_version, SHORT_MAX) ?? summary.cliVersion
  summary.source = sourceName(meta.source) ?? summary.source
  const started = asTimestamp(meta.timestamp, latestMs)
  if (started !== null && (summary.startedAt === null || started < summary.startedAt)) {
    summary.startedAt = started
  }
  if (isObject(meta.git)) {
    const branch = asCappedString(meta.git.branch, SHORT_MAX)
    if (branch) summary.branch = branch
  }
}

/** `"exec"`, or for object sources such as `{"subagent": …}` the object's key. */
function sourceName(source: unknown): string | null {
  if (typeof source === 'string') return asCappedString(source, SHORT_MAX)
  if (!isObject(source)) return null
  return asCappedString(Object.keys(source)[0], SHORT_MAX)
}

function foldEvent(summary: CodexRolloutSummary, event: JsonObject, at: string | null): void {
  switch (event.type) {
    case 'task_started':
      summary.turns++
      summary.inTurn = true
      summary.turnError = null
      return
    case 'task_complete':
      summary.inTurn = false
      // 0.169 ends a turn whose API request failed with the error (`unexpected status 401 …`).
      if (isObject(event.error)) {
        const message = asCappedString(event.error.message, MESSAGE_MAX) ?? 'the turn failed'
        summary.turnError = { message, at }
      }
      summary.lastAgentMessage =
        asCappedString(event.last_agent_message, MESSAGE_MAX) ?? summary.lastAgentMessage
      return
    case 'turn_aborted':
      summary.inTurn = false
      return
    case 'token_count':
      if (isObject(event.info) && isObject(event.info.total_token_usage)) {
        const usage = event.info.total_token_usage
        const counts = [
          'input_tokens',
          'cached_input_tokens',
          'cache_write_input_tokens',
          'output_tokens',
        ]
        if (counts.some((key) => isBadCount(usage[key]))) summary.corruptLines++
        summary.tokens = codexTokenUsage(usage)
      }
      return
    case 'user_message':
      noteUserMessage(summary, asString(event.message))
      return
    case 'agent_message':
      summary.lastAgentMessage =
        asCappedString(event.message, MESSAGE_MAX) ?? summary.lastAgentMessage
      return
  }
}

function foldResponseItem(summary: CodexRolloutSummary, item: JsonObject, at: string): void {
  if (item.type === 'function_call') {
    const id = asString(item.call_id)
    if (id !== null) noteCall(summary, shellCommandOf(item), id, at)
    return
  }
  if (item.type === 'function_call_output') {
    const id = asString(item.call_id)
    if (id !== null) noteResult(summary, id, commandFailed(item.output))
    return
  }
  if (item.type !== 'message' || !Array.isArray(item.content)) return
  if (item.role === 'user') {
    noteUserMessage(summary, joinText(item.content, 'input_text'))
  } else if (item.role === 'assistant') {
    summary.lastAgentMessage =
      asCappedString(joinText(item.content, 'output_text'), MESSAGE_MAX) ?? summary.lastAgentMessage
  }
}

function joinText(content: unknown[], type: string): string | null {
  let text: string | null = null
  for (const part of content) {
    if (!isObject(part) || part.type !== type || typeof part.text !== 'string') continue
    text = text === null ? part.text : `${text}\n${part.text}`
  }
  return text
}

/** The first prompt names the session; the last one is what it is working on now. */
function noteUserMessage(summary: CodexRolloutSummary, text: string | null): void {
  if (text === null) return
  const trimmed = text.trimStart()
  if (trimmed === '' || INJECTED_USER_PREFIXES.some((prefix) => trimmed.startsWith(prefix))) return
  const message = asCappedString(text, MESSAGE_MAX)
  summary.firstUserMessage ??= message
  summary.lastUserMessage = message
  // The user spoke: what the agent runs next is not the same loop.
  summary.commandStreak = null
}

/** Codex's shell tools: `exec_command` (0.16x) and `shell` (older), whose arguments name the command. */
const SHELL_CALLS = new Set(['exec_command', 'shell'])

/** The command of a shell function call (`cmd` text or `command` argv), or null for any other call. */
function shellCommandOf(call: JsonObject): string | null {
  if (typeof call.name !== 'string' || !SHELL_CALLS.has(call.name)) return null
  let args: unknown
  try {
    args = typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments
  } catch {
    return null
  }
  if (!isObject(args)) return null
  if (typeof args.cmd === 'string') return args.cmd
  if (Array.isArray(args.command) && args.command.every((part) => typeof part === 'string')) {
    return args.command.join(' ')
  }
  return null
}

const EXIT_CODE = /Process exited with code (-?\d+)|Exit code: (-?\d+)/

/** Whether a shell call's output says it failed; null when it does not say. */
function commandFailed(output: unknown): boolean | null {
  const text =
    typeof output === 'string' ? output : isObject(output) ? asString(output.output) : null
  const match = text === null ? null : EXIT_CODE.exec(text.slice(0, 4096))
  const code = match ? Number(match[1] ?? match[2]) : null
  return code === null ? null : code !== 0
}
