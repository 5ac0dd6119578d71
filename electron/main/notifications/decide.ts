/**
 * Which desktop notifications to show, decided without I/O: a reducer over engine events, the PM's attention
 * items, the settings and the clock. The Electron notifier owns the timer and the `Notification` objects.
 */
import type { EngineEvent, EventOf } from '../../../shared/schemas/event.ts'
import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'
import { ZERO_DURATION } from '../../../shared/schemas/config.ts'
import type { Settings } from '../../../shared/schemas/settings.ts'
import { parseDuration } from '../../../shared/duration.ts'
import { nonBlank as str, plainText } from './plain-text.ts'
import { BODY_MAX, eventNotification, TITLE_MAX } from './event-notification.ts'
import { attentionItemKey } from '../../../shared/attention.ts'
import { reconcileSessionNotes, type SessionNote } from './session-notes.ts'

export type NotificationKind =
  'commits' | 'task_completed' | 'pbi_completed' | 'needs_human' | 'attention' | 'task_note'

/** A tmux-hosted session the notification's "Go to session" action focuses. */
export interface NotificationSession {
  id: string
  tmuxPane: string
  tmuxSocket: string | null
}

/** One notification to show. `title` and `body` are plain text (never markup), already trimmed. */
export interface NotificationSpec {
  kind: NotificationKind
  project: string
  title: string
  body: string
  session?: NotificationSession
  /** Stable identity, e.g. for replacing or deduplicating on the shell side. */
  key: string
  /**
   * The one notification of its kind on screen: a new one with the same tag replaces it, and `withdraw`
   * removes it (a session's request answered anywhere, or the session moved on).
   */
  tag?: string
  /** Allow / Deny actions, bound to the request they were shown for (contract `session:answer`). */
  answer?: { session_id: string; request_id: string; tool: string; input_digest: string }
  /** A reply field (macOS), typed at the session's prompt in tmux (contract `session:reply`). */
  reply?: { session_id: string }
  /** A reply field (macOS) answering a delegated task's question or plan (contract `task:reply`). */
  taskReply?: { task_id: string }
}

export interface AttentionItemInput {
  project: string
  priority: 'high' | 'medium' | 'low'
  title: string
  description?: string
}

interface PendingCommit {
  sha: string
  subject: string
}

/** Commits to one project collected since `openedAt`; shown as one notification when the window ends. */
export interface CommitGroup {
  openedAt: number
  /** Oldest first, as they arrived. */
  commits: PendingCommit[]
  /** Commits the engine counted but did not list one by one. */
  uncounted: number
}

export interface NotifierState {
  commitGroups: Record<string, CommitGroup>
  /** `attentionItemKey` of every high-priority item of the latest briefing. */
  seenAttention: string[]
  /** Sessions with a "needs you" notification on screen (session-notes.ts). */
  sessionNotes: Record<string, SessionNote>
}

export interface NotifierInput {
  now: number
  events: EngineEvent[]
  projects: ProjectSnapshot[]
  /** The full attention list of a briefing that just arrived; absent when no new briefing. */
  attentionItems?: AttentionItemInput[]
  settings: Settings
  popover: { visible: boolean }
}

export interface NotifierDecision {
  state: NotifierState
  notifications: NotificationSpec[]
  /** Tags of notifications to take off the screen (what they asked is answered or over). */
  withdraw: string[]
  /** When to call `decideNotifications` again (with no events) to flush a commit group; null: nothing pending. */
  nextWakeAt: number | null
}

export const initialNotifierState = (): NotifierState => ({
  commitGroups: {},
  seenAttention: [],
  sessionNotes: {},
})

/** A notification body has room for a whole command waiting for permission. */
const SUBJECT_MAX = 72
const SUBJECTS_SHOWN = 3

/** The ISO time `hours` from `now`, for `settings.paused_until`. */
export function pauseUntil(now: number, hours: number): string {
  return new Date(now + hours * 3_600_000).toISOString()
}

/** True while `settings.paused_until` lies in the future. An unreadable time counts as not paused. */
export function isPaused(settings: Pick<Settings, 'paused_until'>, now: number): boolean {
  if (!settings.paused_until) return false
  const until = Date.parse(settings.paused_until)
  return Number.isFinite(until) && now < until
}

/**
 * The state after a briefing the user has already had (the cached one at start-up): its high-priority
 * items count as seen, so a restart does not announce them again.
 */
export function withSeenAttention(
  state: NotifierState,
  items: AttentionItemInput[],
): NotifierState {
  return {
    ...state,
    seenAttention: items.filter((item) => item.priority === 'high').map(attentionItemKey),
  }
}

/** The grouping window in ms: 0 (or '0s') means every engine batch is notified at once. */
export function commitGroupWindowMs(value: Settings['commit_group_window']): number {
  if (value === 0 || (typeof value === 'string' && ZERO_DURATION.test(value.trim()))) return 0
  // The schema refused anything else; were it ever unreadable, notifying at once hides nothing.
  return parseDuration(value) ?? 0
}

/**
 * The reducer. Suppressed notifications (toggle off, paused, popover visible) are dropped, never queued:
 * a commit group whose window ends during a pause is discarded, and high-priority items count as seen.
 */
export function decideNotifications(state: NotifierState, input: NotifierInput): NotifierDecision {
  const { now, settings } = input
  const windowMs = commitGroupWindowMs(settings.commit_group_window)
  const silenced = input.popover.visible || isPaused(settings, now)
  const toggles = settings.notifications
  const notifications: NotificationSpec[] = []
  const groups: Record<string, CommitGroup> = { ...state.commitGroups }

  const flush = (project: string) => {
    const group = groups[project]
    delete groups[project]
    if (group && !silenced && toggles.commits)
      notifications.push(commitNotification(project, group))
  }

  for (const event of input.events) {
    if (event.type === 'commit') {
      if (silenced || !toggles.commits) continue
      const open = groups[event.project]
      // A window of 0 still groups one batch (a pull, a rebase): the flush after the loop sends it.
      if (open && windowMs > 0 && now >= open.openedAt + windowMs) flush(event.project)
      groups[event.project] = addCommit(groups[event.project], event, now)
      continue
    }
    if (silenced) continue
    const spec = eventNotification(event, input.projects, toggles, now)
    if (spec) notifications.push(spec)
  }
  const notes = reconcileSessionNotes({
    notes: state.sessionNotes,
    shown: notifications,
    projects: input.projects,
    mayShow: !silenced && toggles.needs_human,
    now,
  })
  notifications.push(...notes.replacements)

  for (const [project, group] of Object.entries(groups)) {
    if (now >= group.openedAt + windowMs) flush(project)
  }

  let seenAttention = state.seenAttention
  if (input.attentionItems) {
    const high = input.attentionItems.filter((item) => item.priority === 'high')
    const seen = new Set(state.seenAttention)
    if (!silenced && toggles.attention_items) {
      for (const item of high) {
        if (!seen.has(attentionItemKey(item))) notifications.push(attentionNotification(item))
      }
    }
    // Only the current briefing's items are remembered: one that goes away and comes back is news again.
    seenAttention = [...new Set(high.map(attentionItemKey))]
  }

  const deadlines = Object.values(groups).map((g) => g.openedAt + windowMs)
  return {
    state: { commitGroups: groups, seenAttention, sessionNotes: notes.notes },
    notifications: dedupeByKey(notifications),
    withdraw: notes.withdraw,
    nextWakeAt: deadlines.length > 0 ? Math.min(...deadlines) : null,
  }
}

function addCommit(
  group: CommitGroup | undefined,
  event: EventOf<'commit'>,
  now: number,
): CommitGroup {
  const base = group ?? { openedAt: now, commits: [], uncounted: 0 }
  const sha = str(event.details.sha) ?? event.id
  if (base.commits.some((c) => c.sha === sha)) return base
  const more = typeof event.details.more_commits === 'number' ? event.details.more_commits : 0
  return {
    openedAt: base.openedAt,
    commits: [...base.commits, { sha, subject: str(event.details.message) ?? '' }],
    uncounted: base.uncounted + Math.max(0, Math.floor(more)),
  }
}

function commitNotification(project: string, group: CommitGroup): NotificationSpec {
  const count = group.commits.length + group.uncounted
  const newestFirst = [...group.commits].reverse()
  const lines = newestFirst
    .slice(0, SUBJECTS_SHOWN)
    .map((c) => plainText(c.subject, SUBJECT_MAX) || c.sha.slice(0, 7))
  const hidden = count - lines.length
  if (hidden > 0) lines.push(`+${hidden} more`)
  return {
    kind: 'commits',
    project,
    title: plainText(`${project}: ${count} ${count === 1 ? 'commit' : 'commits'}`, TITLE_MAX),
    body: lines.join('\n').slice(0, BODY_MAX),
    key: `commits:${project}:${group.commits[0]?.sha ?? group.openedAt}`,
  }
}

function attentionNotification(item: AttentionItemInput): NotificationSpec {
  return {
    kind: 'attention',
    project: item.project,
    title: plainText(`${item.project}: ${item.title}`, TITLE_MAX),
    body: plainText(item.description ?? item.title, BODY_MAX),
    key: `attention:${attentionItemKey(item)}`,
  }
}

function dedupeByKey(specs: NotificationSpec[]): NotificationSpec[] {
  const seen = new Set<string>()
  return specs.filter((spec) => !seen.has(spec.key) && seen.add(spec.key))
}
