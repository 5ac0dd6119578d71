/**
 * Notification hygiene for sessions that wait on their user. Pure; decide.ts runs it once per step.
 *
 * A session has at most one "needs you" notification on screen (its tag, `session:<id>`). It is
 * withdrawn as soon as the session no longer waits (its request answered anywhere: the terminal, the
 * tray, a browser, `navi answer`; or the session moved on, ended or went away), and replaced when the
 * session waits on another request without having stopped waiting in between. Repeated requests of one
 * session are grouped into that one notification, which counts them.
 */
import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'
import type { Session } from '../../../shared/schemas/session.ts'
import type { NotificationSpec } from './decide.ts'
import { answerOf, changedRequestNotification, sessionTag } from './event-notification.ts'
import { plainText } from './plain-text.ts'

/** A session's notification on screen: the request it shows, and how many requests it stood for. */
export interface SessionNote {
  requestKey: string
  /** The call itself (tool and command), whether or not its request id was known yet. */
  callKey: string
  /** It offered Allow / Deny. */
  answerable: boolean
  count: number
}

const WAITING: ReadonlySet<string> = new Set(['needs_permission', 'waiting_input'])

/** What a waiting session waits on: its request's id, else its call or its reason. */
export function requestKey(session: Session): string {
  return session.pending_request?.request_id ?? callKey(session)
}

/** The call a session waits on, without its request id (the hooks may tell it a moment later). */
function callKey(session: Session): string {
  const p = session.pending_request
  if (p) return `${p.tool}:${p.detail ?? ''}`
  return `${session.status}:${session.status_reason ?? ''}`
}

function noteOf(session: Session, count: number, now: number): SessionNote {
  return {
    requestKey: requestKey(session),
    callKey: callKey(session),
    answerable: answerOf(session, now).answer !== undefined,
    count,
  }
}

export function reconcileSessionNotes(opts: {
  notes: Record<string, SessionNote>
  /** Notifications decided this step (a session's new one is among them). */
  shown: NotificationSpec[]
  projects: ProjectSnapshot[]
  /** False while notifications are silenced (or "needs you" ones are off): nothing new is shown. */
  mayShow: boolean
  now: number
}): { notes: Record<string, SessionNote>; replacements: NotificationSpec[]; withdraw: string[] } {
  const sessions = new Map<string, { session: Session; project: string }>()
  for (const project of opts.projects) {
    for (const session of project.sessions)
      sessions.set(session.id, { session, project: project.name })
  }
  const notes: Record<string, SessionNote> = {}
  const replacements: NotificationSpec[] = []
  const withdraw: string[] = []
  const shownTags = new Set<string>()

  // New notifications of this step: one per session, counting the requests it stands for.
  for (const spec of opts.shown) {
    const id = spec.tag?.startsWith('session:') ? spec.tag.slice('session:'.length) : null
    if (!id || shownTags.has(spec.tag ?? '')) continue
    shownTags.add(spec.tag ?? '')
    const found = sessions.get(id)
    const count = (opts.notes[id]?.count ?? 0) + 1
    notes[id] = found
      ? noteOf(found.session, count, opts.now)
      : { requestKey: spec.key, callKey: spec.key, answerable: Boolean(spec.answer), count }
    if (count > 1) spec.title = plainText(`${spec.title} (${String(count)} requests)`, 80)
  }

  for (const [id, note] of Object.entries(opts.notes)) {
    if (notes[id]) continue
    const found = sessions.get(id)
    if (!found || !WAITING.has(found.session.status)) {
      withdraw.push(sessionTag(id))
      continue
    }
    const next = noteOf(found.session, note.count, opts.now)
    if (next.requestKey === note.requestKey && next.answerable === note.answerable) {
      notes[id] = note
      continue
    }
    // The same call, now known better (its request id told, or Allow / Deny possible or no longer):
    // the notification is redrawn, still counting one request.
    const sameCall = next.callKey === note.callKey
    if (!opts.mayShow || found.session.status !== 'needs_permission') {
      if (sameCall) notes[id] = note
      else withdraw.push(sessionTag(id))
      continue
    }
    const count = sameCall ? note.count : note.count + 1
    const spec = changedRequestNotification(found.project, found.session, opts.now)
    if (count > 1) spec.title = plainText(`${spec.title} (${String(count)} requests)`, 80)
    replacements.push(spec)
    notes[id] = { ...next, count }
  }
  return { notes, replacements, withdraw }
}
