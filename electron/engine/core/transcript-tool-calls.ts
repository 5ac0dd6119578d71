/**
 * The tool calls of a Claude transcript, as its summary keeps them (transcript-fold.ts folds the lines): a
 * `tool_use` block starts a call that waits for its result (the session's "tool pending" status), a
 * `tool_result` block ends it, and along the way sub-agents, task-tool calls and TodoWrite lists are noted.
 * Pure, in place.
 */
import type { PendingTool, TranscriptSummary, TranscriptTail } from './source-records.ts'
import { applyTaskToolResult, foldTodos, taskToolCall } from './transcript-todos.ts'
import { toolDetail, toolPurpose } from './tool-detail.ts'
import { noteToolResult, noteToolUse } from './command-streak.ts'
import { asCappedString, asString, isObject, type JsonObject } from './json-narrow.ts'

/** Tool names whose tool_use starts a sub-agent (`Task` before it was renamed `Agent`). */
const SUBAGENT_TOOLS = new Set(['Agent', 'Task'])
/** A tool's name as kept: real names are short, a hostile line's is not kept whole. */
const TOOL_NAME_MAX = 256

/** The calls still waiting for their results, oldest first. */
export function pendingOf(summary: TranscriptSummary): Map<string, PendingTool> {
  summary.pendingToolUses ??= new Map()
  return summary.pendingToolUses
}

/** The most recently started tool call that is still waiting for its result, if any. */
export function pendingTail(summary: TranscriptSummary, at: string): TranscriptTail | null {
  let last: [string, PendingTool] | null = null
  for (const entry of pendingOf(summary)) last = entry
  if (last === null) return null
  const [toolUseId, tool] = last
  return {
    kind: 'tool_pending',
    at,
    toolUseId,
    toolName: tool.name,
    detail: tool.detail,
    description: tool.description ?? null,
  }
}

/** A `tool_use` block of an assistant line: the call now pending (the tail it makes), or null. */
export function foldToolUse(
  summary: TranscriptSummary,
  block: JsonObject,
  at: string,
): TranscriptTail | null {
  const id = asString(block.id)
  const name = asCappedString(block.name, TOOL_NAME_MAX) ?? ''
  if (id === null) return null
  const detail = toolDetail(block.input)
  const description = toolPurpose(block.input)
  pendingOf(summary).set(id, { name, detail, description })
  noteToolUse(summary, name, id, block.input, at)
  if (SUBAGENT_TOOLS.has(name)) summary.subagentIds.add(id)
  if (name === 'TodoWrite' && isObject(block.input)) foldTodos(summary, block.input.todos, at)
  const taskCall = taskToolCall(name, block.input)
  if (taskCall) summary.taskCalls.set(id, taskCall)
  return { kind: 'tool_pending', at, toolUseId: id, toolName: name, detail, description }
}

/** A `tool_result` block of the user line `line`: its call ends, and what the result names is kept. */
export function foldToolResult(
  summary: TranscriptSummary,
  line: JsonObject,
  toolUseId: string | null,
  isError: boolean,
  at: string,
): void {
  if (toolUseId !== null) pendingOf(summary).delete(toolUseId)
  noteToolResult(summary, toolUseId, isError)
  const taskCall = toolUseId === null ? undefined : summary.taskCalls.get(toolUseId)
  if (taskCall && toolUseId !== null) {
    summary.taskCalls.delete(toolUseId)
    applyTaskToolResult(summary, taskCall, line.toolUseResult, isError, at)
  }
  const result = line.toolUseResult
  const agentId = isObject(result) ? asString(result.agentId) : null
  if (agentId === null) return
  // One sub-agent, one id: its tool_use id is replaced by the agent id once the result names it.
  if (toolUseId !== null) summary.subagentIds.delete(toolUseId)
  summary.subagentIds.add(agentId)
}
