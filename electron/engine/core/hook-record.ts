/**
 * A hook event as Navi keeps it: from the payload Claude Code gave the hook handler (the spool file
 * resources/hooks/navi-hook.sh wrote) to the line of the hook inbox that `hook-fold.ts` folds. Pure.
 *
 * The handler is a few shell commands that store the payload as it came (cut at 256 KiB) under a
 * header line naming the claude process that ran it; choosing what to keep happens here, in Navi: the
 * status fields, capped, and a few words about the tool call of the events that ask about one. A payload
 * cut short (a Write of a large file) is not JSON: its small leading fields are still read.
 */
import { inputDigest, isRequestId } from './answer-rules.ts'
import { toolDetail, toolPurpose } from './tool-detail.ts'

/** Top-level string fields kept as they are (capped), with their cap. */
const KEPT_FIELDS: Record<string, number> = {
  hook_event_name: 100,
  session_id: 200,
  cwd: 4096,
  transcript_path: 4096,
  tool_name: 200,
  tool_use_id: 200,
  message: 500,
  notification_type: 100,
  reason: 500,
  error: 500,
  source: 100,
  task_id: 200,
  task_subject: 500,
  agent_id: 200,
  agent_type: 200,
  prompt: 200,
}

/** Events whose tool call is worth describing: asked for, starting, or refused. */
const TOOL_DETAIL_EVENTS = new Set(['PermissionRequest', 'PreToolUse', 'PermissionDenied'])

/** The first line of a spool file: `navi-hook 1 <claude pid>` (0: not found, or no /proc). */
const HEADER = /^navi-hook 1 (\d+)\s*$/

export interface SpoolFile {
  /** The agent process (claude or codex) that ran the hook, as the handler found it among its ancestors. */
  agentPid: number | null
  payload: Record<string, unknown> | null
  /** The payload was cut (or is not JSON): only its leading fields were read. */
  truncated: boolean
}

/** Splits a spool file into its header and payload; null when it is not one the handler wrote. */
export function parseSpoolFile(text: string): SpoolFile | null {
  const newline = text.indexOf('\n')
  const header = HEADER.exec(newline === -1 ? text : text.slice(0, newline))
  if (!header) return null
  const pid = Number(header[1])
  const agentPid = Number.isSafeInteger(pid) && pid > 1 ? pid : null
  const body = newline === -1 ? '' : text.slice(newline + 1)
  try {
    const value: unknown = JSON.parse(body)
    const isRecord = value !== null && typeof value === 'object' && !Array.isArray(value)
    return {
      agentPid,
      payload: isRecord ? (value as Record<string, unknown>) : null,
      truncated: false,
    }
  } catch {
    return { agentPid, payload: salvageHead(body.slice(0, 64 * 1024)), truncated: true }
  }
}

/**
 * The small top-level fields that precede the big ones in a payload too long to keep (Claude Code
 * writes session_id, transcript_path, cwd and hook_event_name first), and the tool call's command or
 * file when it comes before the cut.
 */
function salvageHead(head: string): Record<string, unknown> {
  const bigField = head.search(/"(tool_response|tool_calls|last_assistant_message)"\s*:/)
  const text = bigField >= 0 ? head.slice(0, bigField) : head
  const payload: Record<string, unknown> = {}
  const stringAt = (key: string): string | undefined => {
    const match = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(text)
    if (!match) return undefined
    try {
      return JSON.parse(`"${match[1] ?? ''}"`) as string
    } catch {
      return undefined
    }
  }
  for (const key of Object.keys(KEPT_FIELDS)) {
    const value = stringAt(key)
    if (value !== undefined) payload[key] = value
  }
  const input = text.indexOf('"tool_input"')
  if (input >= 0) {
    const inputText = text.slice(input)
    const command =
      /"(command|file_path|notebook_path|path|url|pattern)"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(
        inputText,
      )
    if (command?.[1]) {
      try {
        payload.tool_input = { [command[1]]: JSON.parse(`"${command[2] ?? ''}"`) as string }
      } catch {
        // An escape cut in half: no detail, the rest stands.
      }
    }
  }
  return payload
}

function cap(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value
}

/**
 * The inbox line for one hook event, or null when the payload names no event or session (not a hook
 * payload). `receivedAt` is when the handler wrote it.
 */
export function hookRecord(
  spool: SpoolFile,
  receivedAt: string,
  /** The spool file's name without `.json`: a PermissionRequest's id, which an answer names. */
  requestId: string | null = null,
): Record<string, unknown> | null {
  const payload = spool.payload
  if (!payload) return null
  const record: Record<string, unknown> = {}
  for (const [key, max] of Object.entries(KEPT_FIELDS)) {
    const value = payload[key]
    if (typeof value === 'string') record[key] = cap(value, max)
    else if (typeof value === 'number' && key === 'task_id') record[key] = String(value)
  }
  if (typeof record.hook_event_name !== 'string' || typeof record.session_id !== 'string')
    return null
  // Codex runs the same handler (its hooks.json); its payloads name the rollout as the transcript.
  if (
    typeof payload.transcript_path === 'string' &&
    /\/rollout-[^/]*\.jsonl$/.test(payload.transcript_path)
  ) {
    record.agent = 'codex'
  }
  // A turn that ended on an API error: the CLI's own words about it (`Credit balance is too low`).
  if (
    record.hook_event_name === 'StopFailure' &&
    typeof payload.last_assistant_message === 'string'
  ) {
    record.failure_message = cap(payload.last_assistant_message, 300)
  }
  if (TOOL_DETAIL_EVENTS.has(record.hook_event_name)) {
    const detail = toolDetail(payload.tool_input)
    if (detail) record.tool_detail = detail
    const purpose = toolPurpose(payload.tool_input)
    if (purpose) record.tool_description = purpose
  }
  // An input cut short cannot be shown or digested whole: such a request is not answerable from Navi.
  const answerable = record.hook_event_name === 'PermissionRequest' && !spool.truncated
  return {
    ...record,
    ...(answerable && requestId && isRequestId(requestId)
      ? { request_id: requestId, input_digest: inputDigest(payload.tool_input ?? null) }
      : {}),
    ...(spool.truncated ? { truncated: true } : {}),
    received_at: receivedAt,
    claude_pid: spool.agentPid,
  }
}
