/**
 * Every format element the Claude Code releases Navi is tested on were seen to write, each classed as read
 * by Navi or ignored on purpose. The format probe (tests/integration/claude-format-probe.test.ts) fails on
 * anything not listed here, so a new line type, live-file field or hook event is looked at (and this list
 * updated, with what Navi does about it) instead of being misread in silence. Sources: runs of 2.1.197 and
 * 2.1.330 and the corpus of real files (1.0.24 to 2.1.114).
 */

/** Top-level `type` of transcript lines. */
export const TRANSCRIPT_LINE_TYPES = {
  read: [
    'user',
    'assistant',
    'system',
    'attachment',
    'summary',
    'ai-title',
    'custom-title',
    'last-prompt',
  ],
  ignored: [
    'queue-operation',
    'file-history-snapshot',
    'progress',
    'permission-mode',
    'mode',
    // 2.1.330: request shapes and bodies (skipped unparsed), cost and bookkeeping lines.
    'api-request-shape',
    'api-request-blob',
    'api-request',
    'atis-latch',
    'tools-used',
    'cost-state',
    'agent-name',
    'pr-link',
  ],
}

/** `attachment.type` of attachment lines: none carries what Navi shows (cwd, branch and time are read). */
export const ATTACHMENT_TYPES = [
  'environment',
  'model',
  'date',
  'session_context',
  'remote_session_change',
  'prompt_snapshot',
  'deferred_tools_delta',
  'agent_listing_delta',
  'skill_listing',
  'auto_mode',
  'hook_success',
  'hook_additional_context',
  'hook_non_blocking_error',
  'task_reminder',
  'todo_reminder',
  'plan_mode',
  'edited_text_file',
  'mcp_instructions_delta',
  'queued_command',
  'nested_memory',
  'critical_system_reminder',
  'companion_intro',
  'command_permissions',
]

/** Keys of `sessions/<pid>.json`: the ones Navi reads, and the rest. */
export const LIVE_FILE_KEYS = {
  read: [
    'pid',
    'sessionId',
    'cwd',
    'startedAt',
    'procStart',
    'name',
    'entrypoint',
    'status',
    'waitingFor',
    'statusUpdatedAt',
  ],
  ignored: [
    'version',
    'peerProtocol',
    'peerFeatures',
    'kind',
    'nameSource',
    'nameSince',
    'pidDomain',
    'asksForConvertedSkills',
    'messagingSocketPath',
    'updatedAt',
    // The tmux pane (2.1.330); Navi finds the pane through the process tree, which also covers 2.1.197.
    'tmux',
  ],
}

/** Keys of one entry of `claude agents --json`. */
export const AGENTS_JSON_KEYS = [
  'pid',
  'cwd',
  'kind',
  'startedAt',
  'sessionId',
  'name',
  'status',
  'waitingFor',
]
