import type { Session } from '../../../shared/schemas/session.ts'
import { relativeTime, sessionStatusLabel, singleLine } from '../store/selectors.ts'
import { useTasksStore } from '../store/tasks-store.ts'
import { useUiStore } from '../store/ui-store.ts'
import { RequestAnswer } from './RequestAnswer.tsx'
import { ReplyBox } from './ReplyBox.tsx'
import { HoldToggle } from './HoldToggle.tsx'

/** A project's sessions, live ones first, with "Go to session" where the session runs in tmux. */
export function DetailSessions({ sessions, now }: { sessions: Session[]; now: number }) {
  const focusSession = useUiStore((s) => s.focusSession)
  const navigate = useUiStore((s) => s.navigate)
  const tasks = useTasksStore((s) => s.tasks)
  if (sessions.length === 0) return <p className="empty">No sessions.</p>
  const ordered = [...sessions].sort(
    (a, b) => Number(a.status === 'ended') - Number(b.status === 'ended'),
  )
  return (
    <ul className="detail-list">
      {ordered.map((s) => (
        <li
          key={s.id}
          className="detail-session"
          data-testid="detail-session"
          data-session={s.id}
          data-status={s.status}
        >
          <div className="detail-session-line">
            <span className="muted">{s.agent}</span>
            <span className="ellipsis" title={singleLine(s.name)}>
              {singleLine(s.name)}
            </span>
            <span className={`status status--${s.status}`}>{sessionStatusLabel(s.status)}</span>
            <span className="muted nowrap">{relativeTime(now, s.last_activity)}</span>
            {s.tmux_pane && s.status !== 'ended' && (
              <button
                type="button"
                className="small-button"
                data-testid="go-to-session"
                onClick={() => focusSession(s.id)}
              >
                Go to session
              </button>
            )}
          </div>
          {tasks
            .filter((t) => t.session_id === s.id)
            .map((t) => (
              <button
                key={t.id}
                type="button"
                className="link-button detail-task"
                data-testid="session-task"
                onClick={() => navigate('tasks')}
              >
                delegated task: {singleLine(t.text)}
              </button>
            ))}
          {s.status_reason && (
            <div className="detail-reason" title={singleLine(s.status_reason)}>
              {singleLine(s.status_reason)}
            </div>
          )}
          <RequestAnswer session={s} now={now} />
          <ReplyBox session={s} />
          {s.trouble && s.status !== 'ended' && (
            <div
              className="detail-trouble"
              data-testid="session-trouble"
              data-kind={s.trouble.kind}
              title={singleLine(s.trouble.reason)}
            >
              ! {singleLine(s.trouble.reason)}
            </div>
          )}
          <HoldToggle session={s} />
        </li>
      ))}
    </ul>
  )
}
