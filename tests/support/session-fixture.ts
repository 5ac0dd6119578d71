/** A plain `Session` for pure unit tests: neutral defaults, the test names what matters. */
import type { Session } from '../../shared/schemas/session.ts'

export function makeSession(over: Partial<Session> & Pick<Session, 'id'>): Session {
  return {
    agent: 'claude',
    name: over.id,
    cwd: '/p',
    project_dir: null,
    branch: 'main',
    status: 'idle',
    status_reason: null,
    status_since: null,
    status_source: 'live',
    started_at: null,
    last_activity: null,
    tokens: { input: 0, output: 0, cache_read: 0, cache_creation: 0, total: 0 },
    subagent_tokens: { input: 0, output: 0, cache_read: 0, cache_creation: 0, total: 0 },
    last_prompt: null,
    subagents: 0,
    turns: 0,
    turns_completed: 0,
    last_turn: null,
    recent_turn_ends: [],
    last_denial: null,
    pid: null,
    tmux_pane: null,
    tmux_socket: null,
    transcript_path: null,
    task_lists: [],
    pending_request: null,
    api_failure: null,
    command_streak: null,
    trouble: null,
    ...over,
  }
}
