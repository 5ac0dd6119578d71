import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'
import {
  currentTaskList,
  isAnswerable,
  relativeTime,
  sessionStatusLabel,
  singleLine,
} from '../store/selectors.ts'
import { useUiStore } from '../store/ui-store.ts'
import { TaskMark } from './TaskMark.tsx'
import { RequestAnswer } from './RequestAnswer.tsx'

const MAX_TASKS = 6
const MAX_COMMITS = 3

/** Space on a row: its live sessions, current tasks, branch and last commits, in short. */
export function ProjectExpanded({ project }: { project: ProjectSnapshot }) {
  const now = useUiStore((s) => s.now)
  const navigate = useUiStore((s) => s.navigate)
  const sessions = project.sessions.filter((s) => s.status !== 'ended')
  const list = currentTaskList(project)
  const commits = project.git?.recent_commits.slice(0, MAX_COMMITS) ?? []
  return (
    <div className="expanded" data-testid="project-expanded" data-project={project.name}>
      {sessions.map((s) => (
        <div key={s.id} className="expanded-line">
          <span className="muted">{s.agent}</span> {singleLine(s.name)}:{' '}
          <span className={`status status--${s.status}`}>{sessionStatusLabel(s.status)}</span>
          {s.status_reason && <span className="muted"> — {singleLine(s.status_reason)}</span>}
          {s.trouble && <span className="expanded-trouble"> ! {singleLine(s.trouble.reason)}</span>}
          {isAnswerable(s, now) && <RequestAnswer session={s} now={now} />}
        </div>
      ))}
      {list && (
        <>
          <div className="expanded-line expanded-head">{singleLine(list.title)}</div>
          {list.tasks.slice(0, MAX_TASKS).map((t) => (
            <div key={t.id} className="expanded-line expanded-task">
              <TaskMark status={t.status} /> {singleLine(t.title)}
            </div>
          ))}
          {list.tasks.length > MAX_TASKS && (
            <div className="expanded-line muted">+{list.tasks.length - MAX_TASKS} more</div>
          )}
        </>
      )}
      {project.branch && (
        <div className="expanded-line">
          <span className="muted">branch</span> {singleLine(project.branch)}
          {project.commits_ahead ? ` · ${project.commits_ahead} ahead` : ''}
          {project.dirty ? ' · uncommitted changes' : ''}
        </div>
      )}
      {commits.map((c) => (
        <div key={c.sha} className="expanded-line">
          <code className="sha">{c.sha.slice(0, 7)}</code> {c.subject}{' '}
          <span className="muted">{relativeTime(now, c.timestamp)}</span>
        </div>
      ))}
      <button
        type="button"
        className="link-button"
        onClick={() => navigate('project', project.name)}
      >
        Details (Enter)
      </button>
    </div>
  )
}
