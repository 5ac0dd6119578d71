/**
 * What the task lifecycle reducer (lifecycle.ts) takes and gives: the inputs a task's run produces, the
 * effects the service carries out, one step of both, and relaying a note to the user. Pure.
 */
import { clipText } from '../../../shared/text.ts'
import type { Task, TaskNote } from '../../../shared/schemas/task.ts'
import type { AgentStreamEvent } from './claude-stream.ts'

/** Notes a task keeps (the oldest go first). */
const MAX_NOTES = 50

/** What one agent run has said so far (not persisted: a run is one process). */
export interface RunState {
  /** The latest `[NOTIFY]`, not relayed yet. */
  pendingNote: string | null
  /** The agent's last words in this run (Codex's turn end carries none). */
  lastText: string | null
  /** The run's `[CLARIFY]` question, if it asked one. */
  question: string | null
  result: { ok: boolean; text: string } | null
}

export const freshRun = (): RunState => ({
  pendingNote: null,
  lastText: null,
  question: null,
  result: null,
})

export type TaskInput =
  | { type: 'spawned'; pid: number }
  | { type: 'stream'; event: AgentStreamEvent }
  | {
      type: 'exited'
      exitCode: number | null
      signal: string | null
      /** The safety timeout ended it (the message says after how long). */
      timedOut: string | null
      cancelled: boolean
      spawnError: string | null
      /** The end of stderr, for a failure's reason. */
      stderrTail: string
    }
  | { type: 'reply'; text: string }
  | { type: 'cancel' }

export type TaskEffect =
  /** Tell the user (a notification where there is a face for it, and the event log). */
  | { kind: 'notify'; title: string; body: string }
  /** Start the agent: the first run, or resume its session with `prompt`. */
  | { kind: 'run'; prompt: string; resume: boolean; planning: boolean }
  /** End the running process group (SIGTERM, then SIGKILL). */
  | { kind: 'kill' }

export interface Step {
  task: Task
  run: RunState
  effects: TaskEffect[]
  /** Set when the input does not apply (a reply to a task that does not wait); nothing changed. */
  refused?: string
}

/** A task's name in a notification title: its text, short and inert. */
export function taskLabel(task: Task): string {
  return clipText(task.text, 60)
}

/** The step with `body` kept among the task's notes and relayed to the user under `title`. */
export function relay(step: Step, title: string, body: string, now: string): Step {
  const note: TaskNote = { at: now, text: body }
  return {
    ...step,
    task: { ...step.task, notes: [...step.task.notes, note].slice(-MAX_NOTES) },
    effects: [...step.effects, { kind: 'notify', title, body }],
  }
}
