/**
 * The notification of one engine event (a task or PBI done, a session that needs you, a session in
 * trouble), in the words every face uses (shared/event-text.ts). Pure; decide.ts calls it per event.
 */
import type { EngineEvent } from '../../../shared/schemas/event.ts'
import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'
import type { Session } from '../../../shared/schemas/session.ts'
import type { Settings } from '../../../shared/schemas/settings.ts'
import { describeEvent, troubleLabel, type EventTextRoom } from '../../../shared/event-text.ts'
import type { NotificationSession, NotificationSpec } from './decide.ts'
import { nonBlank as str, plainText } from './plain-text.ts'

export const TITLE_MAX = 80
export const BODY_MAX = 240
const NOTIFICATION_ROOM: EventTextRoom = { name: 40, text: 160, reason: 200 }

export function eventNotification(
  event: EngineEvent,
  projects: ProjectSnapshot[],
  toggles: Settings['notifications'],
): NotificationSpec | null {
  const base = { project: event.project, key: `${event.type}:${event.id}` }
  // The body says what happened in the words every face uses (shared/event-text.ts); the title names
  // the project (and, for a session that waits, what it waits for: the line a glance reads first).
  if (event.type === 'task_completed' && toggles.task_completed) {
    return {
      ...base,
      kind: 'task_completed',
      title: plainText(event.project, TITLE_MAX),
      body: plainText(describeEvent(event, NOTIFICATION_ROOM), BODY_MAX),
    }
  }
  if (event.type === 'pbi_completed' && toggles.task_completed) {
    return {
      ...base,
      kind: 'pbi_completed',
      title: plainText(event.project, TITLE_MAX),
      body: plainText(describeEvent(event, NOTIFICATION_ROOM), BODY_MAX),
    }
  }
  if (event.type === 'session_status_change' && toggles.needs_human) {
    const d = event.details
    const to = str(d.to)
    if (to !== 'needs_permission' && to !== 'waiting_input') return null
    const session = findSession(projects, event.project, event.session)
    // An event without its reason borrows the session's, as the snapshot tells it now.
    const reason = str(d.reason) ?? session?.status_reason ?? null
    const what = to === 'needs_permission' ? 'needs your permission' : 'needs input'
    const goTo = goToSession(session)
    return {
      ...base,
      kind: 'needs_human',
      title: plainText(`${event.project}: ${what}`, TITLE_MAX),
      body: plainText(
        describeEvent({ ...event, details: { ...d, reason } }, NOTIFICATION_ROOM),
        BODY_MAX,
      ),
      ...withGoTo(goTo),
    }
  }
  if (event.type === 'session_trouble' && toggles.needs_human) {
    const session = findSession(projects, event.project, event.session)
    return {
      ...base,
      kind: 'needs_human',
      title: plainText(`${event.project}: ${troubleLabel(event.details.kind)}`, TITLE_MAX),
      body: plainText(describeEvent(event, NOTIFICATION_ROOM), BODY_MAX),
      ...withGoTo(goToSession(session)),
    }
  }
  return null
}

/** "Go to session" for a session running in tmux. */
function goToSession(session: Session | undefined): NotificationSession | undefined {
  return session?.tmux_pane
    ? { id: session.id, tmuxPane: session.tmux_pane, tmuxSocket: session.tmux_socket }
    : undefined
}

const withGoTo = (goTo: NotificationSession | undefined) => (goTo ? { session: goTo } : {})

function findSession(projects: ProjectSnapshot[], project: string, sessionId: string | undefined) {
  if (!sessionId) return undefined
  const owner = projects.find((p) => p.name === project)
  return (
    owner?.sessions.find((s) => s.id === sessionId) ??
    projects.flatMap((p) => p.sessions).find((s) => s.id === sessionId)
  )
}
