import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'
import { useProjectsStore } from '../store/projects-store.ts'
import { ATTENTION_ICON, ATTENTION_LABEL, relativeTime, singleLine } from '../store/selectors.ts'
import { useUiStore } from '../store/ui-store.ts'
import { DetailSessions } from './DetailSessions.tsx'
import { TaskMark } from './TaskMark.tsx'
import { BackButton } from './BackButton.tsx'

/** Enter on a project: its sessions (with "Go to session"), branch, worktrees, commits and tasks. */
export function ProjectDetail() {
  const name = useUiStore((s) => s.detailProject)
  const back = useUiStore((s) => s.back)
  const project = useProjectsStore((s) => s.state?.projects.find((p) => p.name === name) ?? null)
  return (
    <section className="detail" data-testid="project-detail" data-project={name ?? ''}>
      <header className="detail-head">
        <BackButton testId="detail-back" onBack={back} />
        {project && (
          <span className={`badge badge--${project.attention}`} aria-hidden="true">
            {ATTENTION_ICON[project.attention]}
          </span>
        )}
        <h2 className="detail-title" title={singleLine(project?.project_dir ?? '')}>
          {name}
        </h2>
        {project && <span className="muted">{ATTENTION_LABEL[project.attention]}</span>}
      </header>
      <div className="detail-body">
        {project ? (
          <DetailBody project={project} />
        ) : (
          <p className="empty">Navi does not track this project any more.</p>
        )}
      </div>
    </section>
  )
}

function DetailBody({ project }: { project: ProjectSnapshot }) {
  const now = useUiStore((s) => s.now)
  const git = project.git
  const pr = git?.pr
  return (
    <>
      <dl className="facts">
        <dt>Folder</dt>
        <dd title={singleLine(project.project_dir)}>{singleLine(project.project_dir)}</dd>
        {project.branch && (
          <>
            <dt>Branch</dt>
            <dd>
              {singleLine(project.branch)}
              {project.commits_ahead ? ` · ${project.commits_ahead} ahead` : ''}
              {git?.commits_behind ? ` · ${git.commits_behind} behind` : ''}
              {project.dirty ? ' · uncommitted changes' : ''}
            </dd>
          </>
        )}
        {pr && pr.state !== 'none' && pr.state !== 'unknown' && (
          <>
            <dt>PR</dt>
            <dd>
              {pr.number !== undefined ? `#${pr.number} ` : ''}
              {pr.state}
            </dd>
          </>
        )}
        <dt>Active</dt>
        <dd>{relativeTime(now, project.last_activity) || 'never'}</dd>
      </dl>
      {project.errors.map((error) => (
        <p key={error} className="detail-error">
          {singleLine(error)}
        </p>
      ))}

      <h3 className="detail-section">Sessions</h3>
      <DetailSessions sessions={project.sessions} now={now} />

      {project.task_lists.map((list) => (
        <div key={list.id}>
          <h3 className="detail-section" title={singleLine(list.title)}>
            Tasks
            <span className="detail-section-sub">{singleLine(list.title)}</span>
            <span>
              {list.tasks.filter((t) => t.status === 'completed').length}/{list.tasks.length}
            </span>
          </h3>
          <ul className="detail-list">
            {list.tasks.map((t) => (
              <li
                key={t.id}
                className="detail-task"
                data-testid="detail-task"
                data-status={t.status}
              >
                <TaskMark status={t.status} />
                <span className="ellipsis">{singleLine(t.title)}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}

      <h3 className="detail-section">Recent commits</h3>
      {(git?.recent_commits.length ?? 0) === 0 && <p className="empty">No commits seen.</p>}
      <ul className="detail-list">
        {git?.recent_commits.map((c) => (
          <li key={c.sha} className="detail-commit" data-testid="detail-commit" title={c.subject}>
            <code className="sha">{c.sha.slice(0, 7)}</code>
            <span className="ellipsis">{c.subject}</span>
            <span className="muted nowrap">{relativeTime(now, c.timestamp)}</span>
          </li>
        ))}
      </ul>

      {(git?.worktrees.length ?? 0) > 1 && (
        <>
          <h3 className="detail-section">Worktrees</h3>
          <ul className="detail-list">
            {git?.worktrees.map((w) => (
              <li key={w.path} className="detail-worktree" title={w.path}>
                <span className="ellipsis">{w.path}</span>
                <span className="muted nowrap">{w.branch ?? 'detached'}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  )
}
