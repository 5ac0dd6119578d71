/** The task lists of one Claude session, with the moves that drive its task events. Pure. */
import type { TaskList } from '../../../shared/schemas/session.ts'
import type { ClaudeTaskListRecord, HookSessionState, TranscriptSummary } from './records.ts'
import { mergeMoves } from './task-moves.ts'

export interface ClaudeTaskListInput {
  sessionId: string
  sessionName: string
  /** The CLI's `tasks/<session>/` files, when it kept them. */
  record: ClaudeTaskListRecord | undefined
  transcript: TranscriptSummary | null
  hook: HookSessionState | null
}

export function claudeTaskLists(input: ClaudeTaskListInput): TaskList[] {
  const { sessionId, sessionName, record, transcript, hook } = input
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
      tasks: record.tasks,
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
