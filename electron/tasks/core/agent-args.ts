/**
 * The argument vector of a delegated task's agent run. Pure. The task's text never appears here: it is
 * the prompt, written to the agent's stdin, so no text (shell metacharacters, a leading `-`, "ignore your
 * instructions") can become a flag, and nothing in it changes the permission mode.
 *
 * Why `claude -p --output-format stream-json --verbose` rather than `claude --bg`: the print run streams
 * structured events Navi reads as they come (the session, the agent's words, the result with its usage and
 * cost), ends with an exit status, and resumes with `--resume`; a background session is for a person who
 * attaches to it later, and would give Navi only its transcript to follow.
 */
import type { Task } from '../../../shared/schemas/task.ts'
import { relaySystemPrompt } from './relay.ts'

export interface RunPlan {
  /** The session to start (`--session-id`, chosen by Navi) or to resume (`--resume`). */
  sessionId: string
  resume: boolean
  /** A planning run: `--permission-mode plan`, whatever the task's mode, so nothing is changed. */
  planning: boolean
}

export function claudeTaskArgs(task: Task, run: RunPlan): string[] {
  const mode = run.planning ? 'plan' : task.permission_mode
  return [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    '--append-system-prompt',
    relaySystemPrompt({ planning: run.planning }),
    ...(run.resume ? ['--resume', run.sessionId] : ['--session-id', run.sessionId]),
    ...(task.model ? ['--model', task.model] : []),
    ...(mode ? ['--permission-mode', mode] : []),
    ...(task.allowed_tools.length > 0 ? ['--allowedTools', task.allowed_tools.join(',')] : []),
    // Only when the user chose it for this very task, and never while planning.
    ...(task.skip_permissions && !run.planning ? ['--dangerously-skip-permissions'] : []),
  ]
}
