import { useProjectsStore } from '../store/projects-store.ts'
import { useUiStore } from '../store/ui-store.ts'
import { AwayToggle } from './AwayToggle.tsx'

/** The title bar: how many projects wait on you, the away switch, and the gear that opens Settings. */
export function Header() {
  const waiting = useProjectsStore(
    (s) => s.state?.projects.filter((p) => p.attention === 'needs_input').length ?? 0,
  )
  const view = useUiStore((s) => s.view)
  const navigate = useUiStore((s) => s.navigate)
  const settingsOpen = view === 'settings'
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
