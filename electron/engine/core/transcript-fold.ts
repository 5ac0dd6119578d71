/**
 * Folds Claude Code transcript lines (`projects/<enc>/<session>.jsonl`) into a TranscriptSummary,
 * one parsed line at a time, in place. Pure. Formats: agent-cli-formats.md section 8.
 *
 * Lines are narrowed by hand rather than with zod: this runs over every line of every transcript
 * (1 GB corpora) and only reads a handful of fields. Unknown types and fields are ignored.
 */
import type { TranscriptSummary, TranscriptTail } from './source-records.ts'
import { emptyUsageTally, recordUsage } from './usage-tally.ts'
import { classifyUserLine, isExpansion } from './transcript-prompt.ts'
import { foldTodos } from './transcript-todos.ts'
import { foldToolResult, foldToolUse, pendingOf, pendingTail } from './transcript-tool-calls.ts'
import { apiErrorMessage, isStopHookLine } from './transcript-system-lines.ts'
import { abandonTurn, closeTurn, openTurn, recordReply } from './transcript-turns.ts'
import {
  asCappedString,
  asHttpStatus,
  asString,
  asTimestamp,
  isObject,
  type JsonObject,
} from './json-narrow.ts'

/** What a summary keeps of a prompt or a title: enough to recognize it, never a 100 MB paste. */
const LAST_PROMPT_MAX = 2000
const TITLE_MAX = 200
const PATH_MAX = 4096
const SHORT_MAX = 256

export function emptyTranscriptSummary(sessionId: string, path: string): TranscriptSummary {
  return {
    sessionId,
    path,
    cwd: null,
    branch: null,
    version: null,
    entrypoint: null,
    firstActivity: null,
    lastActivity: null,
    usage: emptyUsageTally(),
    lastPrompt: null,
    title: null,
    customTitle: null,
    subagentIds: new Set(),
    turns: 0,
    todos: null,
    transcriptTasks: null,
    taskCalls: new Map(),
    taskMoves: [],
    todoMoves: [],
    tail: { kind: 'none' },
    pendingToolUses: new Map(),
    pendingCommand: null,
    openTurn: null,
    lastTurn: null,
    turnsCompleted: 0,
    recentTurnEnds: [],
    ownerSessionId: null,
    sidechainCwd: null,
    commandStreak: null,
    corruptLines: 0,
  }
}

/**
 * Updates `summary` in place with one parsed transcript line. Anything unexpected is ignored; a bad field
 * (a time that is not one or lies after `latestMs`, a token count that is not a count) counts as absent.
 */
export function foldTranscriptLine(
  summary: TranscriptSummary,
  line: unknown,
  latestMs = Number.POSITIVE_INFINITY,
): void {
  if (!isObject(line)) return
  const timestamp = asTimestamp(line.timestamp, latestMs)
  // A line whose time or usage is not believable is still used for the rest, and counted as damaged.
  if (timestamp === null && line.timestamp !== undefined) summary.corruptLines++
  if (timestamp !== null) {
    if (summary.firstActivity === null) summary.firstActivity = timestamp
    if (summary.lastActivity === null || timestamp > summary.lastActivity) {
      summary.lastActivity = timestamp
    }
  }
  switch (line.type) {
    case 'user':
    case 'assistant':
    case 'system':
    case 'attachment':
      foldConversationLine(summary, line, timestamp ?? summary.lastActivity ?? '')
      return
    case 'last-prompt': {
      const prompt = asCappedString(line.lastPrompt, LAST_PROMPT_MAX)
      if (prompt) summary.lastPrompt = prompt
      return
    }
    // Generated titles: 1.0.x/2.0.x `summary` lines, 2.1.x `ai-title` lines; the newest wins.
    case 'summary':
      summary.title = asCappedString(line.summary, TITLE_MAX) ?? summary.title
      return
    case 'ai-title':
      summary.title = asCappedString(line.aiTitle, TITLE_MAX) ?? summary.title
      return
    case 'custom-title':
      summary.customTitle = asCappedString(line.customTitle, TITLE_MAX) ?? summary.customTitle
      return
  }
}

function foldConversationLine(summary: TranscriptSummary, line: JsonObject, at: string): void {
  if (line.type === 'assistant') recordUsage(summary, line.message)
  summary.ownerSessionId ??= asCappedString(line.sessionId, SHORT_MAX)
  // Sub-agent lines count as spend and activity but say nothing about the main conversation.
  if (line.isSidechain === true) {
    summary.sidechainCwd ??= asCappedString(line.cwd, PATH_MAX)
    return
  }
  summary.cwd ??= asCappedString(line.cwd, PATH_MAX)
  // `""` outside a git repository (1.0.98, 2.1.17): no branch, not an empty one.
  const branch = asCappedString(line.gitBranch, SHORT_MAX)
  if (branch !== null) summary.branch = branch === '' ? null : branch
  summary.version = asCappedString(line.version, SHORT_MAX) ?? summary.version
  summary.entrypoint = asCappedString(line.entrypoint, SHORT_MAX) ?? summary.entrypoint
  if (line.type === 'user') foldUserLine(summary, line, at)
  else if (line.type === 'assistant') foldAssistantLine(summary, line, at)
  else if (line.type === 'system') foldSystemLine(summary, line, at)
}

function foldUserLine(summary: TranscriptSummary, line: JsonObject, at: string): void {
  if (line.isCompactSummary === true) return
  if (line.isMeta === true) {
    // A custom command or skill expanded for the model: the command before it was a prompt. Caveats
    // and reminders are meta lines too, but expand nothing.
    if (summary.pendingCommand !== null && isExpansion(line)) {
      startPrompt(summary, summary.pendingCommand, at)
    }
    return
  }
  const content = isObject(line.message) ? line.message.content : undefined
  const texts: string[] = []
  let sawToolResult = false
  let sawOtherBlock = false
  if (typeof content === 'string') {
    texts.push(content)
  } else if (Array.isArray(content)) {
    for (const block of content) {
      if (!isObject(block)) continue
      if (block.type === 'tool_result') {
        sawToolResult = true
        foldToolResult(summary, line, asString(block.tool_use_id), block.is_error === true, at)
      } else if (block.type === 'text' && typeof block.text === 'string') {
        texts.push(block.text)
      } else {
        sawOtherBlock = true
      }
    }
  }
  if (sawToolResult) {
    foldTodos(summary, isObject(line.toolUseResult) ? line.toolUseResult.newTodos : undefined, at)
    summary.tail = pendingTail(summary, at) ?? { kind: 'tool_result', at }
    return
  }
  if (texts.length === 0 && !sawOtherBlock) return
  const kind = classifyUserLine(line, texts)
  summary.pendingCommand = null
  switch (kind.kind) {
    case 'interrupted':
      pendingOf(summary).clear()
      abandonTurn(summary)
      summary.tail = { kind: 'interrupted', at }
      return
    case 'local_output':
      // A local slash command (/compact, /model…) has finished: the session waits for the user.
      summary.tail = { kind: 'turn_end', at }
      return
    case 'command':
      summary.pendingCommand = asCappedString(kind.text, LAST_PROMPT_MAX)
      return
    case 'ignored':
      return
    case 'notification':
      // A background task finished and the agent goes on by itself: a turn, but not a prompt.
      pendingOf(summary).clear()
      openTurn(summary, null, at)
      summary.tail = { kind: 'prompt', at }
      return
    case 'prompt':
      startPrompt(summary, kind.text, at)
  }
}

function startPrompt(summary: TranscriptSummary, text: string | null, at: string): void {
  summary.pendingCommand = null
  summary.turns++
  const prompt = text === null ? null : asCappedString(text, LAST_PROMPT_MAX)
  if (prompt !== null) summary.lastPrompt = prompt
  // The 2.1.197 TUI can write a prompt's line after the first response to it (a tool call waiting for
  // permission): that prompt started the turn in flight, which goes on.
  if (summary.tail.kind !== 'none' && Date.parse(at) < Date.parse(summary.tail.at)) {
    const turn = summary.openTurn
    summary.openTurn = {
      prompt,
      startedAt: at,
      reply: turn?.reply ?? null,
      replyAt: turn?.replyAt ?? null,
    }
    return
  }
  pendingOf(summary).clear()
  openTurn(summary, prompt, at)
  summary.tail = { kind: 'prompt', at }
  // The user spoke: what the agent runs next is not the same loop.
  summary.commandStreak = null
}

function foldAssistantLine(summary: TranscriptSummary, line: JsonObject, at: string): void {
  // A custom command answered without an expansion line is still a prompt that reached the model.
  if (summary.pendingCommand !== null) startPrompt(summary, summary.pendingCommand, at)
  const message = isObject(line.message) ? line.message : {}
  const content = Array.isArray(message.content) ? message.content : []
  if (line.isApiErrorMessage === true) {
    const first = content.find(isObject)
    pendingOf(summary).clear()
    abandonTurn(summary)
    summary.tail = {
      kind: 'api_error',
      at,
      message: (first && asCappedString(first.text, TITLE_MAX)) ?? '',
      errorClass: asCappedString(line.error, TITLE_MAX),
      status: asHttpStatus(line.apiErrorStatus),
      since: summary.tail.kind === 'api_retry' ? summary.tail.since : at,
    }
    return
  }
  let newest: TranscriptTail | null = null
  let sawText = false
  for (const block of content) {
    if (!isObject(block)) continue
    if (block.type === 'text' && typeof block.text === 'string') {
      recordReply(summary, block.text, at)
      sawText = true
    }
    if (block.type === 'tool_use') newest = foldToolUse(summary, block, at) ?? newest
  }
  if (newest !== null) {
    summary.tail = newest
    return
  }
  const stopReason = asString(message.stop_reason)
  if (stopReason === 'tool_use') {
    // The text block of a response whose tool_use block follows on the next line.
    summary.tail = pendingTail(summary, at) ?? summary.tail
  } else if (stopReason !== null) {
    pendingOf(summary).clear()
    closeTurn(summary, at)
    summary.tail = { kind: 'turn_end', at }
  } else if (sawText && pendingOf(summary).size === 0) {
    summary.tail = { kind: 'reply', at }
  }
}

function foldSystemLine(summary: TranscriptSummary, line: JsonObject, at: string): void {
  if (line.subtype === 'turn_duration') {
    // Written only at the end of a completed turn, so it ends the turn even without a stop_reason.
    pendingOf(summary).clear()
    const measured = typeof line.durationMs === 'number' ? line.durationMs : undefined
    closeTurn(summary, summary.openTurn ? at : (summary.lastTurn?.endedAt ?? at), measured)
    // A turn that ended on an API error stays that error (the 2.1.197 TUI writes its duration after it).
    if (summary.tail.kind !== 'api_error') summary.tail = { kind: 'turn_end', at }
  } else if (line.subtype === 'stop_hook_summary' || isStopHookLine(line)) {
    // Stop hooks run when a turn ends, after the agent's reply; anything else is not this turn's end.
    const replied = summary.tail.kind === 'reply' || summary.tail.kind === 'turn_end'
    if (!replied || pendingOf(summary).size > 0) return
    closeTurn(summary, at)
    summary.tail = { kind: 'turn_end', at }
  } else if (line.subtype === 'api_error') {
    const attempt = typeof line.retryAttempt === 'number' ? line.retryAttempt : 0
    const maxRetries = typeof line.maxRetries === 'number' ? line.maxRetries : 0
    summary.tail = {
      kind: 'api_retry',
      at,
      message: apiErrorMessage(line.error),
      attempt,
      maxRetries,
      status: isObject(line.error) ? asHttpStatus(line.error.status) : null,
      since: summary.tail.kind === 'api_retry' ? summary.tail.since : at,
    }
  }
}
