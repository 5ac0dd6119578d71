/**
 * What each source adapter reports, before the core decides anything. Plain data only: adapters fill
 * these from files and processes, pure functions in core/ turn them into sessions, projects and events.
 */
import type { TaskItem, TokenUsage } from '../../../shared/schemas/session.ts'

/** Last conversation line of a Claude transcript, as far as status is concerned. */
export type TranscriptTail =
  | { kind: 'none' }
  | { kind: 'prompt'; at: string }
  | { kind: 'tool_result'; at: string }
  | { kind: 'tool_pending'; at: string; toolName: string; toolUseId: string }
  | { kind: 'turn_end'; at: string }
  | { kind: 'interrupted'; at: string }
  | { kind: 'api_error'; at: string; message: string }

/**
 * Token usage summed once per API response with bounded memory: the lines of one response are
 * consecutive, so only the most recent ids are remembered (see core/usage-tally.ts).
 */
export interface UsageTally {
  /** Sum over every response counted so far. */
  totals: TokenUsage
  /** Distinct responses counted in `totals`. */
  messages: number
  /** Usage of the most recent `message.id`s only, oldest first. */
  recent: Map<string, TokenUsage>
}

/** Folded state of one Claude transcript (`projects/<enc>/<session>.jsonl`), updated line by line. */
export interface TranscriptSummary {
  sessionId: string
  path: string
  cwd: string | null
  branch: string | null
  version: string | null
  entrypoint: string | null
  firstActivity: string | null
  lastActivity: string | null
  /** Usage summed once per `message.id` (one API response is split into one line per block). */
  usage: UsageTally
  lastPrompt: string | null
  title: string | null
  customTitle: string | null
  subagentIds: Set<string>
  turns: number
  /** Latest TodoWrite list, when the session used TodoWrite. */
  todos: TaskItem[] | null
  tail: TranscriptTail
  /** tool_use id → tool name of tool calls that have no tool_result yet (set by the fold). */
  pendingToolUses?: Map<string, string>
  corruptLines: number
}

/** `$CLAUDE_CONFIG_DIR/sessions/<pid>.json` plus the liveness check of its pid. */
export interface LiveSessionRecord {
  pid: number
  sessionId: string
  cwd: string | null
  startedAt: number | null
  procStart: string | null
  name: string | null
  entrypoint: string | null
  status: 'idle' | 'busy' | 'waiting' | null
  waitingFor: string | null
  statusUpdatedAt: number | null
  /** pid exists and (where checkable) its start time matches `procStart`. */
  alive: boolean
  file: string
}

/** `$CLAUDE_CONFIG_DIR/tasks/<listId>/*.json`. */
export interface ClaudeTaskListRecord {
  listId: string
  tasks: TaskItem[]
  updatedAt: string | null
}

/** What Navi's hook handler recorded for one session, folded from `$NAVI_HOME/hooks/events.jsonl`. */
export interface HookSessionState {
  sessionId: string
  cwd: string | null
  transcriptPath: string | null
  /** Last hook event that tells the status, with its time. */
  lastEvent: string
  lastEventAt: string
  /** Permission or notification message, when the last event carries one. */
  message: string | null
  notificationType: string | null
  toolName: string | null
  /** The `claude` process that ran the hook, when the handler could tell. */
  claudePid: number | null
  ended: boolean
  endReason: string | null
  startedAt: string | null
}

/** Folded state of one Codex rollout (`sessions/YYYY/MM/DD/rollout-*.jsonl`). */
export interface CodexRolloutSummary {
  threadId: string
  path: string
  cwd: string | null
  source: string | null
  cliVersion: string | null
  startedAt: string | null
  lastActivity: string | null
  turns: number
  inTurn: boolean
  lastAgentMessage: string | null
  firstUserMessage: string | null
  tokens: TokenUsage
  branch: string | null
  corruptLines: number
}
