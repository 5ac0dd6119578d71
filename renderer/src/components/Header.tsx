import { useProjectsStore } from '../store/projects-store.ts'
import { useUiStore } from '../store/ui-store.ts'
import { useTasksStore, waitsForUser } from '../store/tasks-store.ts'
import { AwayToggle } from './AwayToggle.tsx'

/** The title bar: how many projects wait on you, the away switch, and the gear that opens Settings. */
export function Header() {
  const waiting = useProjectsStore(
    (s) => s.state?.projects.filter((p) => p.attention === 'needs_input').length ?? 0,
  )
  const view = useUiStore((s) => s.view)
  const navigate = useUiStore((s) => s.navigate)
  const settingsOpen = view === 'settings'
  const tasksOpen = view === 'tasks'
  const tasksWaiting = useTasksStore((s) => s.tasks.filter(waitsForUser).length)
  return (
    <header className="app-header">
      <span className="app-title">Navi</span>
      {waiting > 0 && (
        <span className="app-waiting" data-testid="waiting-count">
          {waiting} need{waiting === 1 ? 's' : ''} input
        </span>
      )}
      <AwayToggle />
      <button
        type="button"
        className={`link-button tasks-button${tasksOpen ? ' icon-button--on' : ''}`}
        data-testid="tasks-button"
        aria-pressed={tasksOpen}
        title="Delegate a task to an agent, and follow it"
        onClick={() => navigate(tasksOpen ? 'overview' : 'tasks')}
      >
        Tasks{tasksWaiting > 0 ? ` (${tasksWaiting} waiting)` : ''}
      </button>
      <button
        type="button"
        className={`icon-button${settingsOpen ? ' icon-button--on' : ''}`}
        data-testid="settings-button"
        title={settingsOpen ? 'Close Settings' : 'Settings'}
        aria-label="Settings"
        aria-pressed={settingsOpen}
        onClick={() => navigate(settingsOpen ? 'overview' : 'settings')}
      >
        ⚙
      </button>
    </header>
  )
}
