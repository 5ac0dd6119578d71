import { useEffect, useRef } from 'react'
import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'
import { ATTENTION_LABEL, projectLine, singleLine } from '../store/selectors.ts'
import { useUiStore } from '../store/ui-store.ts'
import { ProjectExpanded } from './ProjectExpanded.tsx'

interface Props {
  project: ProjectSnapshot
  selected: boolean
  expanded: boolean
  /** Scroll to the row when it gets the cursor (not for the implicit first-row cursor). */
  follow: boolean
}

/** One project: status badge, name, session status and age; its work and progress below. */
export function ProjectRow({ project, selected, expanded, follow }: Props) {
  const now = useUiStore((s) => s.now)
  const setCursor = useUiStore((s) => s.setProjectCursor)
  const navigate = useUiStore((s) => s.navigate)
  const toggleExpanded = useUiStore((s) => s.toggleExpanded)
  const ref = useRef<HTMLDivElement>(null)
  const line = projectLine(project, now)
  // A project waiting on you gets its reason on a line of its own; otherwise it trails the work.
  const ownLine = project.attention === 'needs_input'

  useEffect(() => {
    if (selected && follow) ref.current?.scrollIntoView({ block: 'nearest' })
  }, [selected, follow])

  return (
    <>
      <div
        ref={ref}
        className="row"
        role="option"
        data-testid="project-row"
        data-project={project.name}
        data-attention={project.attention}
        aria-selected={selected}
        aria-expanded={expanded}
        onClick={() => setCursor(project.name)}
        onDoubleClick={() => navigate('project', project.name)}
      >
        <span
          className={`badge badge--${line.attention}`}
          title={ATTENTION_LABEL[line.attention]}
          aria-label={ATTENTION_LABEL[line.attention]}
        >
          {line.icon}
        </span>
        <div className="row-main">
          <div className="row-line">
            <span className="row-name" title={singleLine(project.project_dir)}>
              {line.name}
            </span>
            <span className={`status status--${project.session_status ?? 'none'}`}>
              {line.status}
            </span>
            <span className="row-ago">{line.ago}</span>
          </div>
          {(line.work || line.progress || (line.reason && !ownLine)) && (
            <div className="row-line row-line--sub">
              <span
                className="row-work"
                title={[line.work, line.reason].filter(Boolean).join('\n')}
              >
                {line.work}
                {line.reason && !ownLine && (
                  <span data-testid="project-reason">
                    {line.work ? ' · ' : ''}
                    {line.reason}
                  </span>
                )}
              </span>
              {line.progress && <span className="row-progress">{line.progress}</span>}
            </div>
          )}
          {line.reason && ownLine && (
            <div className="row-reason" data-testid="project-reason" title={line.reason}>
              {line.reason}
            </div>
          )}
        </div>
        <button
          type="button"
          className="row-toggle"
          aria-label={expanded ? 'Collapse' : 'Expand'}
          title={expanded ? 'Collapse (Space)' : 'Expand (Space)'}
          onClick={(e) => {
            e.stopPropagation()
            setCursor(project.name)
            toggleExpanded(project.name)
          }}
        >
          {expanded ? '▾' : '▸'}
        </button>
      </div>
      {expanded && <ProjectExpanded project={project} />}
    </>
  )
}
