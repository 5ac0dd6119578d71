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
  now: number,
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
    // The request itself, when Navi knows it: the tool and its command or file, in the agent's words.
    const asked = to === 'needs_permission' && session ? requestBody(session) : null
    return {
      ...base,
      kind: 'needs_human',
      title: plainText(`${event.project}: ${what}`, TITLE_MAX),
      body:
        asked ??
        plainText(
          describeEvent({ ...event, details: { ...d, reason } }, NOTIFICATION_ROOM),
          BODY_MAX,
        ),
      ...withGoTo(goTo),
      ...(event.session ? { tag: sessionTag(event.session) } : {}),
      ...(session ? answerOf(session, now) : {}),
      ...(to === 'waiting_input' && session?.tmux_pane && session.tmux_socket
        ? { reply: { session_id: session.id } }
        : {}),
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

/** The one notification a session that waits on its user has on screen at a time. */
export const sessionTag = (sessionId: string) => `session:${sessionId}`

/** `<session>: <tool> <command or file>` and, on a line of its own, the agent's own words. */
export function requestBody(session: Session): string | null {
  const pending = session.pending_request
  if (!pending) return null
  const call = pending.detail ? `${pending.tool}: ${pending.detail}` : pending.tool
  const words = pending.description ? `\n“${plainText(pending.description, 120)}”` : ''
  return `${plainText(`${session.name} asks ${call}`, BODY_MAX - words.length)}${words}`
}

/** Allow / Deny on the notification: while Navi's hook holds the request, or in its tmux pane. */
export function answerOf(session: Session, now: number): Pick<NotificationSpec, 'answer'> {
  const p = session.pending_request
  if (!p?.request_id || !p.input_digest || session.status !== 'needs_permission') return {}
  const held = p.answer_until !== null && Date.parse(p.answer_until) > now
  if (!held && !(session.tmux_pane && session.tmux_socket)) return {}
  const answer = { session_id: session.id, request_id: p.request_id, tool: p.tool }
  return { answer: { ...answer, input_digest: p.input_digest } }
}

/** The notification of a session whose request changed while it kept waiting (a new one replaces it). */
export function changedRequestNotification(
  project: string,
  session: Session,
  now: number,
): NotificationSpec {
  return {
    kind: 'needs_human',
    project,
    key: `request:${session.id}:${session.pending_request?.request_id ?? session.status_since ?? ''}`,
    title: plainText(`${project}: needs your permission`, TITLE_MAX),
    body: requestBody(session) ?? plainText(session.status_reason ?? '', BODY_MAX),
    ...withGoTo(goToSession(session)),
    tag: sessionTag(session.id),
    ...answerOf(session, now),
  }
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
