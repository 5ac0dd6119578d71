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
    // `--model=…` in one word: a value can never be read as a flag of its own.
    ...(task.model ? [`--model=${task.model}`] : []),
    ...(mode ? ['--permission-mode', mode] : []),
    ...(task.allowed_tools.length > 0 ? ['--allowedTools', task.allowed_tools.join(',')] : []),
    // Only when the user chose it for this very task, and never while planning.
    ...(task.skip_permissions && !run.planning ? ['--dangerously-skip-permissions'] : []),
  ]
}

/**
 * `codex exec --json` for a task: the conventions as `developer_instructions` (a TOML string), the
 * prompt on stdin (`-`), `resume <thread>` for a later run. The permission mode maps onto Codex's sandbox
 * and approvals: planning and `plan` → read-only; `acceptEdits` → workspace-write; `dontAsk` → approvals
 * never; `auto` → `--approve-for-me`; skipping every check (chosen for this task) → the bypass. No mode:
 * the user's config.toml (exec's own default is read-only, approvals never). The directory is the one the
 * user or the resolver chose, so Codex's git-repository check is not asked again.
 */
export function codexTaskArgs(
  task: Task,
  run: { threadId: string | null; planning: boolean },
): string[] {
  const mode = run.planning ? 'plan' : task.permission_mode
  const skip = (task.skip_permissions || mode === 'bypassPermissions') && !run.planning
  const sandbox = skip
    ? ['--dangerously-bypass-approvals-and-sandbox']
    : mode === 'plan'
      ? ['--sandbox', 'read-only']
      : mode === 'acceptEdits'
        ? ['--sandbox', 'workspace-write']
        : mode === 'dontAsk'
          ? ['-c', 'approval_policy="never"']
          : mode === 'auto'
            ? ['--approve-for-me']
            : []
  return [
    'exec',
    '--json',
    '--skip-git-repo-check',
    '-c',
    `developer_instructions=${JSON.stringify(relaySystemPrompt({ planning: run.planning }))}`,
    ...(task.model ? [`--model=${task.model}`] : []),
    ...sandbox,
    ...(run.threadId ? ['resume', run.threadId] : []),
    '-',
  ]
}
