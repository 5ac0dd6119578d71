/**
 * The Codex rollout format elements Navi knows (read or ignored on purpose), from runs of codex-cli
 * 0.169.0 and the corpus (0.77, Codex Desktop 0.104). The Codex format probe fails on anything else.
 */
export const CODEX_LINE_TYPES = {
  read: ['session_meta', 'turn_context', 'response_item', 'event_msg'],
  // 0.169: `token_usage_record` is per-response usage (Navi reads the cumulative `token_count` event,
  // which says the same), `world_state` the thread's environment.
  ignored: ['compacted', 'token_usage_record', 'world_state'],
}

/** `payload.type` of `event_msg` lines. */
export const CODEX_EVENT_TYPES = {
  read: [
    'task_started',
    'task_complete',
    'turn_aborted',
    'user_message',
    'agent_message',
    'token_count',
    'error',
  ],
  ignored: [
    'agent_reasoning',
    'agent_reasoning_raw_content',
    'context_compacted',
    'exec_command_begin',
    'exec_command_end',
    'patch_apply_begin',
    'patch_apply_end',
    'turn_diff',
    'stream_error',
    'error',
    'background_event',
    'mcp_tool_call_begin',
    'mcp_tool_call_end',
    'web_search_begin',
    'web_search_end',
    'plan_update',
    'thread_name_updated',
    'item_completed',
    'thread_settings_applied',
  ],
}

/** `payload.type` of `response_item` lines. */
export const CODEX_ITEM_TYPES = [
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
]
