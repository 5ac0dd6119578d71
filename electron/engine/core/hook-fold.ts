/**
 * Folds lines of Navi's hook inbox (`$NAVI_HOME/hooks/events.jsonl`, written by
 * the spool drain from what `resources/hooks/navi-hook.sh` spooled) into one {@link HookSessionState} per
 * session. Pure.
 *
 * What each hook event means for the session (payloads: agent-cli-formats.md §11.2). `lastEvent` and
 * `lastEventAt` always name the event that decided the current meaning:
 * - `SessionStart`: the session runs (sets `startedAt`; also reopens a resumed, ended session). A
 *   `compact` start of a known session (auto-compaction happens mid-turn) changes nothing.
 * - `UserPromptSubmit`, `PreToolUse`, `PostToolUse`, `PostToolUseFailure`: working. Each refreshes
 *   `lastEventAt`, so a long silence while "working" can be told apart (Esc fires no Stop).
 * - `PermissionRequest`: needs permission; `message` = "Permission needed: <tool> (<command/file>)";
 *   its `request_id` and `input_digest` are what an answer from Navi must name (core/answer-rules.ts).
 * - `Notification` `permission_prompt`: needs permission with the notification's message, unless a
 *   PermissionRequest already said so (its message names the tool, so it is kept).
 *   `idle_prompt`: waiting for input. Other notification types change nothing.
 *   `agent_needs_input` (2.1.330's auto mode opened its own dialog): needs permission for the tool call in
 *   flight, worded like a PermissionRequest; with no call in flight, waiting for input.
 * - `PermissionDenied` (auto mode's classifier or dontAsk refused a call without asking; the agent goes
 *   on): working, and the denial is kept (`lastDenial`) so that it becomes an event.
 * - `Stop`: the turn finished. `StopFailure`: the turn ended on an API error (idle, with the error class
 *   and the CLI's words about it, kept in `stopFailure` for the trouble rules).
 *   `SessionEnd`: ended, `endReason` = the payload's reason.
 * - `TaskCompleted`: a task move (`taskMoves`, for the task events); the status is left as it was.
 * Answering a permission dialog fires no hook of its own: the next working event (the granted
 * tool's PostToolUse, a PreToolUse of another tool, a new prompt) means it was answered. A PostToolUse
 * of another tool is a parallel call finishing and does not clear it; nor does a PreToolUse of the same
 * tool: PreToolUse runs in the background, so under load the waiting call's own PreToolUse can land
 * after its PermissionRequest (a denied call retried as the same tool is cleared by its PostToolUse). Tool events of a sub-agent (`agent_id`)
 * after the main turn finished are background work and leave the finished state alone.
 * After SessionEnd only a SessionStart changes the state. Other events are ignored.
 * Tool hooks run in the background and may be appended late: a line stamped (at hook start) before
 * the event that decided the state is ignored, unless it is older by more than
 * {@link LATE_LINE_WINDOW_MS}, which only a clock set back explains.
 */
import * as z from 'zod'
import { asTimestamp } from './json-narrow.ts'
import type { HookSessionState } from './source-records.ts'
import { appendMoves } from './task-moves.ts'
import { lazySchema } from '../../../shared/schemas/lazy-schema.ts'

/** The handler caps what it writes; a longer value was not written by it and is cut here too. */
const capped = (max: number) => z.string().transform((value) => value.slice(0, max))

const hookLineSchema = lazySchema(() =>
  z.object({
    hook_event_name: z.string().min(1).max(100),
    session_id: z.string().min(1).max(200),
    received_at: z.string().min(1).max(64),
    cwd: capped(4096).nullish(),
    transcript_path: capped(4096).nullish(),
    tool_name: capped(200).nullish(),
    tool_detail: capped(200).nullish(),
    tool_description: capped(300).nullish(),
    message: capped(500).nullish(),
    notification_type: capped(100).nullish(),
    reason: capped(500).nullish(),
    error: capped(500).nullish(),
    source: capped(100).nullish(),
    agent_id: capped(200).nullish(),
    /** The agent's process (the name is older than Codex's hooks: a codex pid for Codex's lines). */
    claude_pid: z.number().int().positive().nullish(),
    request_id: capped(64).nullish(),
    input_digest: capped(64).nullish(),
    failure_message: capped(300).nullish(),
    agent: z.enum(['claude', 'codex']).nullish(),
    task_id: capped(200).nullish(),
    task_subject: capped(500).nullish(),
  }),
)
/** One line of the hook inbox, as far as status is concerned. */
export type HookLine = z.infer<typeof hookLineSchema>

/** What a line did: changed a state, was a valid line with no effect, or is not a hook line. */
export type HookFoldResult = 'applied' | 'ignored' | 'corrupt'

const WORKING_EVENTS: ReadonlySet<string> = new Set([
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
])
const MAX_DETAIL = 120
/** How much older than the current state a line may be and still count as merely late. */
export const LATE_LINE_WINDOW_MS = 60_000

function isLate(line: HookLine, prev: HookSessionState | undefined): boolean {
  if (!prev) return false
  const behind = Date.parse(prev.lastEventAt) - Date.parse(line.received_at)
  return behind > 0 && behind <= LATE_LINE_WINDOW_MS
}

type Change = Partial<HookSessionState> | null

function emptyState(line: HookLine): HookSessionState {
  return {
    sessionId: line.session_id,
    agent: line.agent ?? 'claude',
    cwd: null,
    transcriptPath: null,
    lastEvent: line.hook_event_name,
    lastEventAt: line.received_at,
    message: null,
    notificationType: null,
    toolName: null,
    toolDetail: null,
    toolDescription: null,
    lastDenial: null,
    agentPid: null,
    ended: false,
    endReason: null,
    startedAt: null,
    taskMoves: [],
    requestId: null,
    inputDigest: null,
    stopFailure: null,
  }
}

/**
 * TaskCompleted says which task closed and when; it says nothing about the session's status, so it only
 * adds a move. Known sessions only: a session's state starts with its SessionStart or first prompt.
 * (TaskCreated is left alone: a new task is pending, and Navi reports tasks from the moment they start.)
 */
function foldTaskCompleted(
  states: Map<string, HookSessionState>,
  line: HookLine,
  state: HookSessionState | undefined,
): HookFoldResult {
  if (!state || !line.task_id) return 'ignored'
  const move = {
    task_id: line.task_id,
    title: line.task_subject ?? line.task_id,
    status: 'completed' as const,
    at: line.received_at,
  }
  states.set(line.session_id, { ...state, taskMoves: appendMoves(state.taskMoves, [move]) })
  return 'applied'
}

/** `Permission needed: Bash (touch /tmp/x)`. */
export function permissionMessage(toolName: string | null, detail: string | null): string {
  const tool = toolName ?? 'a tool'
  if (!detail) return `Permission needed: ${tool}`
  const short = detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL - 1)}…` : detail
  return `Permission needed: ${tool} (${short})`
}

function isWaitingOnPermission(state: HookSessionState | undefined): boolean {
  if (!state) return false
  return (
    state.lastEvent === 'PermissionRequest' ||
    (state.lastEvent === 'Notification' &&
      (state.notificationType === 'permission_prompt' ||
        (state.notificationType === 'agent_needs_input' && state.toolName !== null)))
  )
}

function isTurnFinished(state: HookSessionState | undefined): boolean {
  if (!state) return false
  return (
    state.lastEvent === 'Stop' ||
    state.lastEvent === 'StopFailure' ||
    (state.lastEvent === 'Notification' && state.notificationType === 'idle_prompt')
  )
}

function decide(line: HookLine, prev: HookSessionState | undefined): Change {
  const event = line.hook_event_name
  const status = {
    message: null,
    notificationType: null,
    ended: false,
    endReason: null,
    requestId: null,
    inputDigest: null,
    stopFailure: null,
  }
  const tool = {
    toolName: line.tool_name ?? null,
    toolDetail: line.tool_detail ?? null,
    toolDescription: line.tool_description ?? null,
  }
  const noTool = { toolName: null, toolDetail: null, toolDescription: null }
  if (prev?.ended && event !== 'SessionStart') return null
  if (event === 'SessionStart') {
    // A compaction restarts the session mid-turn: the turn goes on, nothing to tell.
    if (line.source === 'compact' && prev) return null
    const startedAt = prev && !prev.ended && prev.startedAt ? prev.startedAt : line.received_at
    return { ...status, startedAt, ...noTool }
  }
  if (WORKING_EVENTS.has(event)) {
    if (line.agent_id && isTurnFinished(prev)) return null
    const isPostTool = event === 'PostToolUse' || event === 'PostToolUseFailure'
    const otherToolFinished = isPostTool && prev?.toolName && prev.toolName !== line.tool_name
    const sameToolStarting =
      event === 'PreToolUse' && prev?.toolName && prev.toolName === line.tool_name
    if (isWaitingOnPermission(prev) && (otherToolFinished || sameToolStarting)) return null
    // A PostToolUse carries no detail: the call it finishes keeps the one its PreToolUse gave.
    const keepDetail = event !== 'PreToolUse' && prev?.toolName === line.tool_name
    return {
      ...status,
      ...tool,
      toolDetail: keepDetail ? (prev?.toolDetail ?? null) : tool.toolDetail,
      toolDescription: keepDetail ? (prev?.toolDescription ?? null) : tool.toolDescription,
    }
  }
  if (event === 'PermissionRequest') {
    return {
      ...status,
      message: permissionMessage(tool.toolName, tool.toolDetail),
      ...tool,
      requestId: line.request_id ?? null,
      inputDigest: line.input_digest ?? null,
    }
  }
  if (event === 'PermissionDenied') {
    const denial = {
      toolName: tool.toolName,
      detail: tool.toolDetail,
      reason: line.reason ?? null,
      at: line.received_at,
    }
    return { ...status, ...noTool, lastDenial: denial }
  }
  if (event === 'Notification') {
    const type = line.notification_type ?? null
    if (type === 'permission_prompt') {
      if (prev?.lastEvent === 'PermissionRequest') return null
      return { ...status, message: line.message ?? null, notificationType: type }
    }
    if (type === 'idle_prompt') {
      return { ...status, message: line.message ?? null, notificationType: type, toolName: null }
    }
    if (type === 'agent_needs_input') {
      if (isWaitingOnPermission(prev)) return null
      const toolName = prev?.toolName ?? null
      const message = toolName
        ? permissionMessage(toolName, prev?.toolDetail ?? null)
        : (line.message ?? null)
      return { ...status, message, notificationType: type }
    }
    return null
  }
  if (event === 'Stop') return { ...status, ...noTool }
  if (event === 'StopFailure') {
    const error = line.error ?? null
    const words = line.failure_message ?? null
    const message = `turn failed${error ? `: ${error}` : ''}${words ? ` (${words})` : ''}`
    return { ...status, message, ...noTool, stopFailure: { error, message: words } }
  }
  if (event === 'SessionEnd') return { ...status, ended: true, endReason: line.reason ?? null }
  return null
}

/**
 * Applies one parsed inbox line to `states` (mutated in place: the map is the fold's accumulator).
 * @returns `corrupt` when the value is not a hook line (the caller counts those), `ignored` for an
 *   event that tells nothing about status, else `applied`.
 */
export function foldHookLine(
  states: Map<string, HookSessionState>,
  line: unknown,
  latestMs = Number.POSITIVE_INFINITY,
): HookFoldResult {
  const parsed = hookLineSchema.safeParse(line)
  if (!parsed.success) return 'corrupt'
  // A line whose time is not a believable time cannot be ordered against the others.
  const receivedAt = asTimestamp(parsed.data.received_at, latestMs)
  if (receivedAt === null) return 'corrupt'
  const hookLine = { ...parsed.data, received_at: receivedAt }
  const prev = states.get(hookLine.session_id)
  if (hookLine.hook_event_name === 'TaskCompleted') return foldTaskCompleted(states, hookLine, prev)
  const change = isLate(hookLine, prev) ? null : decide(hookLine, prev)
  if (!change) return 'ignored'
  const base = prev ?? emptyState(hookLine)
  states.set(hookLine.session_id, {
    ...base,
    ...change,
    cwd: hookLine.cwd ?? base.cwd,
    transcriptPath: hookLine.transcript_path ?? base.transcriptPath,
    agentPid: hookLine.claude_pid ?? base.agentPid,
    lastEvent: hookLine.hook_event_name,
    lastEventAt: hookLine.received_at,
  })
  return 'applied'
}
