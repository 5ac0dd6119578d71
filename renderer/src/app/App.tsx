import { BriefingZone } from '../components/BriefingZone.tsx'
import { EngineErrors } from '../components/EngineErrors.tsx'
import { EventsZone } from '../components/EventsZone.tsx'
import { Header } from '../components/Header.tsx'
import { Notice } from '../components/Notice.tsx'
import { ProjectDetail } from '../components/ProjectDetail.tsx'
import { ProjectsZone } from '../components/ProjectsZone.tsx'
import { SettingsView } from '../components/SettingsView.tsx'
import { TasksView } from '../components/TasksView.tsx'
import { ToolsBanner } from '../components/ToolsBanner.tsx'
import { transport } from '../lib/api.ts'
import { useUiStore } from '../store/ui-store.ts'

/** The popover: header and banners, then the three zones, a project's detail or Settings. */
export function App() {
  const view = useUiStore((s) => s.view)
  return (
    <div className="app" data-testid="app" data-transport={transport}>
      <Header />
      <ToolsBanner />
      <EngineErrors />
      {view === 'settings' ? (
        <SettingsView />
      ) : view === 'tasks' ? (
        <TasksView />
      ) : view === 'project' ? (
        <ProjectDetail />
      ) : (
        <main className="zones">
          <BriefingZone />
          <ProjectsZone />
          <EventsZone />
        </main>
      )}
      <Notice />
    </div>
  )
}
