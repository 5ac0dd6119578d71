import { useState } from 'react'
import { inertBlock } from '../../../shared/text.ts'
import type { Task } from '../../../shared/schemas/task.ts'
import { relativeTime, sessionStatusLabel, singleLine } from '../store/selectors.ts'
import { useProjectsStore } from '../store/projects-store.ts'
import { useTasksStore, waitsForUser } from '../store/tasks-store.ts'
import { useUiStore } from '../store/ui-store.ts'

const STATUS_LABEL: Record<Task['status'], string> = {
  queued: 'queued',
  running: 'running',
  awaiting_clarification: 'asks you',
  awaiting_approval: 'plan to approve',
  implementing: 'implementing',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
}

/** One task: status, text, where and when, its last notes, its question or plan to answer, Cancel. */
export function TaskItem({ task }: { task: Task }) {
  const now = useUiStore((s) => s.now)
  // The task's agent session, as the engine sees it (waiting on a permission, stalled, …).
  const session = useProjectsStore((s) =>
    s.state?.projects.flatMap((p) => p.sessions).find((x) => x.id === task.session_id),
  )
  const { reply, cancel } = useTasksStore()
  const [answer, setAnswer] = useState('')
  const working = ['queued', 'running', 'implementing'].includes(task.status)
  const send = async (text: string) => {
    if (text.trim() === '') return
    const result = await reply(task.id, text)
    if (result?.done) setAnswer('')
  }
  return (
    <li className={`task task--${task.status}`} data-testid="task" data-status={task.status}>
      <div className="task-head">
        <span className="task-status" data-testid="task-status">
          {STATUS_LABEL[task.status]}
        </span>
        <span className="task-text">{singleLine(task.text)}</span>
        <span className="task-meta muted">
          {singleLine(task.project ?? task.cwd)} · {relativeTime(now, task.created_at)}
        </span>
      </div>
      {task.status_reason && (
        <div className="task-reason muted">{singleLine(task.status_reason)}</div>
      )}
      {session && session.status !== 'ended' && (
        <div className="task-reason" data-testid="task-session">
          session: {sessionStatusLabel(session.status)}
          {session.status_reason ? ` — ${singleLine(session.status_reason)}` : ''}
        </div>
      )}
      {task.notes
        .slice(-3)
        // The plan and the question are shown below, once.
        .filter(
          (note) =>
            !waitsForUser(task) || (note.text !== task.plan_text && note.text !== task.question),
        )
        .map((note) => (
          <div key={note.at + note.text} className="task-note" data-testid="task-note">
            {singleLine(note.text)}
          </div>
        ))}
      {task.status === 'awaiting_clarification' && task.question && (
        <div className="task-question" data-testid="task-question">
          {singleLine(task.question)}
        </div>
      )}
      {task.status === 'awaiting_approval' && task.plan_text && (
        <pre className="task-plan" data-testid="task-plan">
          {inertBlock(task.plan_text)}
        </pre>
      )}
      <div className="task-actions">
        {task.status === 'awaiting_approval' && (
          <>
            <button
              type="button"
              className="small-button"
              data-testid="task-approve"
              onClick={() => void send('approve')}
            >
              Approve
            </button>
            <button
              type="button"
              className="small-button"
              data-testid="task-reject"
              onClick={() => void send('reject')}
            >
              Reject
            </button>
          </>
        )}
        {working && (
          <button
            type="button"
            className="small-button"
            data-testid="task-cancel"
            onClick={() => void cancel(task.id)}
          >
            Cancel
          </button>
        )}
        <span className="muted task-spent">
          {task.turns} turns · ${task.cost_usd.toFixed(3)}
        </span>
      </div>
      {waitsForUser(task) && (
        <form
          className="request-reason"
          onSubmit={(event) => {
            event.preventDefault()
            void send(answer)
          }}
        >
          <input
            data-testid="task-reply-text"
            value={answer}
            maxLength={20_000}
            placeholder={
              task.status === 'awaiting_approval' ? 'A question about the plan…' : 'Your answer…'
            }
            onChange={(event) => setAnswer(event.target.value)}
          />
          <button
            type="submit"
            className="small-button"
            data-testid="task-reply"
            disabled={answer.trim() === ''}
          >
            Reply
          </button>
        </form>
      )}
    </li>
  )
}
