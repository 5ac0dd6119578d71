/** The task lists of one Claude session, with the moves that drive its task events. Pure. */
import type { TaskItem, TaskList, TaskStatus } from '../../../shared/schemas/session.ts'
import type { ClaudeTaskListRecord, HookSessionState, TranscriptSummary } from './source-records.ts'
import { mergeMoves } from './task-moves.ts'

export interface ClaudeTaskListInput {
  sessionId: string
  sessionName: string
  /** The CLI's `tasks/<session>/` files, when it kept them. */
  record: ClaudeTaskListRecord | undefined
  transcript: TranscriptSummary | null
  hook: HookSessionState | null
  now: number
}

/**
 * How long task files may run ahead of the transcript before their statuses are believed on their own.
 * The CLI writes a task's file, then the transcript line that tells the move (with its time); a look
 * between the two would otherwise report the step at the look's time instead of the agent's. The bound
 * covers files whose moves never reach this transcript (a sub-agent's, another session's).
 */
export const TRANSCRIPT_CATCH_UP_MS = 5_000

export function claudeTaskLists(input: ClaudeTaskListInput): TaskList[] {
  const { sessionId, sessionName, record, transcript, hook, now } = input
  const lists: TaskList[] = []
  // TaskUpdate lines and TaskCompleted hooks tell the same completions; merged, each counts once.
  const taskMoves = mergeMoves(transcript?.taskMoves ?? [], hook?.taskMoves ?? [])
  const base = { id: `tasks:${sessionId}`, title: sessionName, session_id: sessionId }
  // The CLI's own task files when it kept them; else the same list rebuilt from the transcript's calls.
  const fromTranscript = transcript?.transcriptTasks ?? []
  if (!record && fromTranscript.length > 0) {
    lists.push({
      ...base,
      source: 'claude_tasks',
      tasks: fromTranscript,
      ...(transcript?.lastActivity ? { updated_at: transcript.lastActivity } : {}),
      moves: taskMoves,
    })
  }
  if (record && record.tasks.length > 0) {
    lists.push({
      ...base,
      source: 'claude_tasks',
      tasks: transcriptBehind(record, transcript, now)
        ? heldAtTranscript(record.tasks, fromTranscript)
        : record.tasks,
      ...(record.updatedAt ? { updated_at: record.updatedAt } : {}),
      moves: taskMoves,
    })
  }
  if (transcript?.todos && transcript.todos.length > 0) {
    lists.push({
      id: `todos:${sessionId}`,
      title: sessionName,
      source: 'todo_write',
      session_id: sessionId,
      tasks: transcript.todos,
      ...(transcript.lastActivity ? { updated_at: transcript.lastActivity } : {}),
      moves: transcript.todoMoves,
    })
  }
  return lists
}

/** The task files changed after the transcript's last line, moments ago: its move lines are on their way. */
function transcriptBehind(
  record: ClaudeTaskListRecord,
  transcript: TranscriptSummary | null,
  now: number,
): boolean {
  if (!record.updatedAt || !transcript?.lastActivity || !transcript.transcriptTasks?.length)
    return false
  const filesAt = Date.parse(record.updatedAt)
  return filesAt > Date.parse(transcript.lastActivity) && now - filesAt < TRANSCRIPT_CATCH_UP_MS
}

const STATUS_RANK: Record<TaskStatus, number> = { pending: 0, in_progress: 1, completed: 2 }

/** Each task the transcript knows keeps the transcript's status where the files are further along. */
function heldAtTranscript(files: TaskItem[], fromTranscript: TaskItem[]): TaskItem[] {
  const told = new Map(fromTranscript.map((t) => [t.id, t.status]))
  return files.map((task) => {
    const status = told.get(task.id)
    return status !== undefined && STATUS_RANK[status] < STATUS_RANK[task.status]
      ? { ...task, status }
      : task
  })
}
