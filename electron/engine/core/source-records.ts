/**
 * What each source adapter reports, before the core decides anything. Plain data only: adapters fill
 * these from files and processes, pure functions in core/ turn them into sessions, projects and events.
 */
import type { TaskItem, TaskMove, TokenUsage } from '../../../shared/schemas/session.ts'
import type { TaskToolCall } from './transcript-todos.ts'
import type { CommandStreakRecord } from './command-streak.ts'

/**
 * Last conversation line of a Claude transcript, as far as status is concerned.
 * - `reply`: an assistant text block with no stop reason and no tool call pending. Most CLI versions
 *   (1.0.x to 2.1.42, and sub-agent files of 2.1.114) write the final reply of a turn this way, with no
 *   marker after it; it ends the turn once the transcript stays quiet (`session-status.ts`).
 * - `api_retry`: the CLI is retrying after an API error (`system/api_error`, 2.1.x).
 */
export type TranscriptTail =
  | { kind: 'none' }
  | { kind: 'prompt'; at: string }
  | { kind: 'tool_result'; at: string }
  | {
      kind: 'tool_pending'
      at: string
      toolName: string
      toolUseId: string
      detail: string | null
      description: string | null
    }
  | { kind: 'reply'; at: string }
  | { kind: 'turn_end'; at: string }
  | { kind: 'interrupted'; at: string }
  | {
      kind: 'api_error'
      at: string
      message: string
      /** The CLI's class of the error (`rate_limit`, `authentication_failed`, …) and the HTTP status. */
      errorClass: string | null
      status: number | null
      /** When the failing request first failed: the first retry's time, when the CLI retried it. */
      since: string
    }
  | {
      kind: 'api_retry'
      at: string
      message: string
      attempt: number
      maxRetries: number
      status: number | null
      /** The first retry of this request (a run of retries is one failure). */
      since: string
    }

/** A tool call that has no result yet. */
export interface PendingTool {
  name: string
  /** Its command, file or URL in a few words (core/tool-detail.ts). */
  detail: string | null
  /** The agent's own description of it, when it gave one. */
  description: string | null
}

/** A turn: from a prompt (or a background task's notification) to the agent's final reply. */
export interface TurnRecord {
  /** The prompt it answered; null when a background task's notification started it. */
  prompt: string | null
  startedAt: string
  /** The latest text the agent wrote in it, capped. */
  reply: string | null
  replyAt: string | null
}

export interface CompletedTurn extends TurnRecord {
  endedAt: string
  /** From the CLI's own `turn_duration` line when it wrote one, else from the times. */
  durationMs: number | null
}

/**
 * Token usage summed once per API response with bounded memory: the lines of one response are
 * consecutive, so only the most recent ids are remembered (see core/usage-tally.ts).
 */
export interface UsageTally {
  /** Sum over every response counted so far. */
  totals: TokenUsage
  /** Distinct responses counted in `totals`. */
  messages: number
  /**
   * Usage of the most recent `message.id`s only, oldest first: a Map once a fold counts into it, or
   * the index's entries as read until one does (core/usage-tally.ts `recentUsageMap`).
   */
  recent: RecentUsage
}

/** `[id, input, output, cache_read, cache_creation]`: a remembered response as the index keeps it. */
export type PersistedUsage = readonly [string, number, number, number, number]

export type RecentUsage = Map<string, TokenUsage> | readonly PersistedUsage[]

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
  /** Prompts the user sent (slash commands that reach the model included; notifications not). */
  turns: number
  /** Latest TodoWrite list, when the session used TodoWrite. */
  todos: TaskItem[] | null
  /** The TaskCreate/TaskUpdate list as the transcript tells it (used where no `tasks/` files exist). */
  transcriptTasks: TaskItem[] | null
  /** TaskCreate/TaskUpdate calls waiting for their result, by tool_use id. */
  taskCalls: Map<string, TaskToolCall>
  /** The latest moves of `transcriptTasks` and of `todos`, oldest first (core/transcript-todos.ts). */
  taskMoves: TaskMove[]
  todoMoves: TaskMove[]
  tail: TranscriptTail
  /** tool_use id → the call, for tool calls that have no tool_result yet (set by the fold). */
  pendingToolUses?: Map<string, PendingTool>
  /** A slash command whose next line tells whether it reached the model (core/transcript-prompt.ts). */
  pendingCommand: string | null
  /** The turn in progress, if any. */
  openTurn: TurnRecord | null
  /** The last turn that ended with a marker (stop reason, turn_duration, Stop hook, next prompt). */
  lastTurn: CompletedTurn | null
  turnsCompleted: number
  /** When the most recent finished turns ended (at most RECENT_TURN_ENDS, oldest first). */
  recentTurnEnds: string[]
  /** The `sessionId` the lines name: the parent session, in a sub-agent's own file. */
  ownerSessionId: string | null
  /** The cwd of sub-agent (sidechain) lines, for a sub-agent file whose main transcript is gone. */
  sidechainCwd: string | null
  /** The shell command run back to back, if the latest tool calls were one (core/command-streak.ts). */
  commandStreak: CommandStreakRecord | null
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
  /** The tmux pane the CLI says it runs in (`tmux` field, 2.1.330), e.g. `%3`. */
  tmuxPane?: string | null
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

export interface PermissionDenial {
  toolName: string | null
  detail: string | null
  reason: string | null
  at: string
}

/** What Navi's hook handler recorded for one session, folded from `$NAVI_HOME/hooks/events.jsonl`. */
export interface HookSessionState {
  sessionId: string
  /** Which CLI ran the hook (Codex runs Navi's handler too, from its hooks.json). */
  agent: 'claude' | 'codex'
  cwd: string | null
  transcriptPath: string | null
  /** Last hook event that tells the status, with its time. */
  lastEvent: string
  lastEventAt: string
  /** Permission or notification message, when the last event carries one. */
  message: string | null
  notificationType: string | null
  toolName: string | null
  /** The command, file or URL of that tool call (the handler's `tool_detail`). */
  toolDetail: string | null
  /** The agent's own description of that call (core/tool-detail.ts `toolPurpose`). */
  toolDescription: string | null
  /** The PermissionRequest's id (its spool name) and its input's digest, while it is pending. */
  requestId: string | null
  inputDigest: string | null
  /** The turn ended on an API error (StopFailure): its error class and the CLI's words; else null. */
  stopFailure: { error: string | null; message: string | null } | null
  /** The last tool call refused without asking (PermissionDenied: auto mode's classifier, dontAsk). */
  lastDenial: PermissionDenial | null
  /** The agent process (`claude`, or `codex` for its hooks.json) that ran the hook, when the handler could tell. */
  agentPid: number | null
  ended: boolean
  endReason: string | null
  startedAt: string | null
  /** Tasks the TaskCompleted hook reported finished, oldest first (core/task-moves.ts). */
  taskMoves: TaskMove[]
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
  lastUserMessage: string | null
  tokens: TokenUsage
  branch: string | null
  /** The shell command run back to back, if the latest calls were one (core/command-streak.ts). */
  commandStreak: CommandStreakRecord | null
  /** The last turn ended on an error (`task_complete` with `error`: a refused or failed API request). */
  turnError: { message: string; at: string | null } | null
  corruptLines: number
}
