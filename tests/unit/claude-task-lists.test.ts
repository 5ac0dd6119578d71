/**
 * `claudeTaskLists`: which statuses a session's task list shows when the CLI's task files and its transcript
 * disagree. The files are written first and the transcript line that tells the move (and its time) right
 * after, so for a moment the files are ahead.
 */
import { describe, expect, it } from 'vitest'
import {
  claudeTaskLists,
  TRANSCRIPT_CATCH_UP_MS,
} from '../../electron/engine/core/claude-task-lists.ts'
import type { ClaudeTaskListRecord } from '../../electron/engine/core/source-records.ts'
import {
  emptyTranscriptSummary,
  foldTranscriptLine,
} from '../../electron/engine/core/transcript-fold.ts'

const NOW = Date.parse('2026-11-24T12:00:00Z')
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString()

/** A transcript that created task 1 and started it; its last line is `lastLineMsAgo` old. */
function transcriptUpToStart(lastLineMsAgo: number) {
  const summary = emptyTranscriptSummary('s1', '/c/projects/-p/s1.jsonl')
  const call = (id: string, name: string, input: object, msAgo: number) => ({
    type: 'assistant',
    timestamp: at(msAgo),
    message: {
      id: `m-${id}`,
      role: 'assistant',
      content: [{ type: 'tool_use', id, name, input }],
      stop_reason: 'tool_use',
    },
  })
  const result = (id: string, toolUseResult: object, msAgo: number) => ({
    type: 'user',
    timestamp: at(msAgo),
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
    toolUseResult,
  })
  const lines = [
    call('t1', 'TaskCreate', { subject: 'Docs' }, lastLineMsAgo + 3000),
    result('t1', { task: { id: '1', subject: 'Docs' } }, lastLineMsAgo + 2000),
    call('t2', 'TaskUpdate', { taskId: '1', status: 'in_progress' }, lastLineMsAgo + 1000),
    result('t2', { success: true, statusChange: { from: 'pending', to: 'in_progress' } }, lastLineMsAgo),
  ]
  for (const line of lines) foldTranscriptLine(summary, { sessionId: 's1', cwd: '/p', ...line }, NOW)
  return summary
}

const filesSay = (status: 'completed', msAgo: number): ClaudeTaskListRecord => ({
  listId: 's1',
  tasks: [
    { id: '1', title: 'Docs', status },
    { id: '2', title: 'Only in the files', status: 'completed' },
  ],
  updatedAt: at(msAgo),
})

const statuses = (transcriptMsAgo: number, files: ClaudeTaskListRecord) =>
  claudeTaskLists({
    sessionId: 's1',
    sessionName: 'p',
    record: files,
    transcript: transcriptUpToStart(transcriptMsAgo),
    hook: null,
    now: NOW,
  })[0]?.tasks.map((t) => [t.id, t.status])

describe('claudeTaskLists when the task files run ahead of the transcript', () => {
  it('a task the transcript knows keeps its transcript status until the move line is written', () => {
    expect(statuses(500, filesSay('completed', 100))).toEqual([
      ['1', 'in_progress'],
      ['2', 'completed'],
    ])
  })

  it('files written before the transcript’s last line are believed', () => {
    expect(statuses(100, filesSay('completed', 500))).toEqual([
      ['1', 'completed'],
      ['2', 'completed'],
    ])
  })

  it('files ahead for longer than the catch-up bound are believed (moves that never reach this transcript)', () => {
    const old = TRANSCRIPT_CATCH_UP_MS + 1000
    expect(statuses(old + 500, filesSay('completed', old))).toEqual([
      ['1', 'completed'],
      ['2', 'completed'],
    ])
  })
})
