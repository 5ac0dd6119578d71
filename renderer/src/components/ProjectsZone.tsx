import { useProjectsStore } from '../store/projects-store.ts'
import { resolveCursor, sortProjects } from '../store/selectors.ts'
import { useUiStore } from '../store/ui-store.ts'
import { ListZone } from './ListZone.tsx'
import { ProjectRow } from './ProjectRow.tsx'

/** Zone 2: one row per project, the ones that need you first. */
export function ProjectsZone() {
  const state = useProjectsStore((s) => s.state)
  const cursor = useUiStore((s) => s.projectCursor)
  const expanded = useUiStore((s) => s.expanded)
  const projects = sortProjects(state?.projects ?? [])
  const selected = resolveCursor(
    projects.map((p) => p.name),
    cursor,
  )
  return (
    <ListZone zone="projects" count={projects.length}>
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
    </ListZone>
  )
}
