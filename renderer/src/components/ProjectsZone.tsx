import { useProjectsStore } from '../store/projects-store.ts'
import { resolveCursor, sortProjects } from '../store/selectors.ts'
import { useUiStore } from '../store/ui-store.ts'
import { ProjectRow } from './ProjectRow.tsx'

/** Zone 2: one row per project, the ones that need you first. */
export function ProjectsZone() {
  const state = useProjectsStore((s) => s.state)
  const active = useUiStore((s) => s.zone === 'projects')
  const cursor = useUiStore((s) => s.projectCursor)
  const expanded = useUiStore((s) => s.expanded)
  const setZone = useUiStore((s) => s.setZone)
  const projects = sortProjects(state?.projects ?? [])
  const selected = resolveCursor(
    projects.map((p) => p.name),
    cursor,
  )
  return (
    <section
      className="zone zone--projects"
      data-testid="zone-projects"
      data-active={active}
      aria-label="Projects"
      // On click, not mousedown: see EventsZone.
      onClickCapture={() => setZone('projects')}
    >
      <header className="zone-head">
        <h2 className="zone-title">Projects</h2>
        {projects.length > 0 && <span className="zone-count">{projects.length}</span>}
      </header>
      <div className="zone-scroll" role="listbox" aria-label="Projects">
        {state && projects.length === 0 && (
          <p className="empty" data-testid="projects-empty">
            No projects yet. Start a Claude Code or Codex session, or register a project in
            config.yaml.
          </p>
        )}
        {!state && <p className="empty">Loading…</p>}
        {projects.map((p) => (
          <ProjectRow
            key={p.project_dir}
            project={p}
            selected={p.name === selected}
            expanded={expanded.includes(p.name)}
            follow={cursor !== null}
          />
        ))}
      </div>
    </section>
  )
}
