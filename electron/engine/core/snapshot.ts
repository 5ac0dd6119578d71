/** Builds one project snapshot from its group, git state and task lists, and orders projects by attention. */
import type {
  Attention,
  GitState,
  Pbi,
  ProjectSnapshot,
  TurnActivity,
} from '../../../shared/schemas/project.ts'
import type { Session, SessionStatus, TaskList } from '../../../shared/schemas/session.ts'
import { countTasks, currentPbi } from './checklist.ts'
import type { ProjectGroup } from './projects.ts'
import { STATUS_URGENCY } from './session-status.ts'
import { isoMs } from './iso-ms.ts'
import { CANONICAL_ISO } from './json-narrow.ts'

/** Ended sessions older than this leave the snapshot (their project keeps its last activity). */
export const SESSION_RETENTION_MS = 24 * 60 * 60_000
/** A project that is not registered is shown while one of its sessions was active this recently. */
export const PROJECT_RETENTION_MS = 7 * 24 * 60 * 60_000
/** Recent activity that still counts as active without a running session. */
export const ACTIVE_WINDOW_MS = 60 * 60_000
/** Unfinished work untouched for this long makes a project stale. */
export const STALE_AFTER_MS = 24 * 60 * 60_000

export interface SnapshotInput {
  group: ProjectGroup
  name: string
  git: GitState | null
  checklists: TaskList[]
  errors: string[]
  now: number
}

/** null when the project has nothing recent enough to show and is not registered. */
export function buildSnapshot(input: SnapshotInput): ProjectSnapshot | null {
  const { group, git, now } = input
  const lastActivity = latest([
    ...group.sessions.map((s) => s.last_activity),
    git?.recent_commits[0]?.timestamp ?? null,
  ])
  if (!group.registered && (!lastActivity || now - isoMs(lastActivity) > PROJECT_RETENTION_MS)) {
    return null
  }
  const sessions = group.sessions
    .filter((s) => s.status !== 'ended' || recent(s.last_activity, now, SESSION_RETENTION_MS))
    .sort(bySessionUrgency)
  // Unfinished work outlives its session: task lists count for the whole retention window of the project.
  const sessionLists = group.sessions
    .filter((s) => recent(s.last_activity, now, PROJECT_RETENTION_MS))
    .flatMap((s) => s.task_lists)
  const taskLists = [...input.checklists, ...sessionLists]
  const pbi = input.checklists.length > 0 ? currentPbi(input.checklists) : sessionPbi(sessionLists)
  const lead = sessions.find((s) => s.status !== 'ended') ?? sessions[0] ?? null

  const snapshot: ProjectSnapshot = {
    name: input.name,
    project_dir: group.projectDir,
    is_git: group.isGit,
    registered: group.registered,
    session_names: sessions.map((s) => s.name),
    head_sha: git?.head_sha ?? null,
    branch: git?.branch ?? sessions[0]?.branch ?? null,
    commits_ahead: git?.commits_ahead ?? null,
    dirty: git?.dirty ?? null,
    has_pr: prKnown(git) ? git?.pr.state === 'open' : null,
    current_pbi: pbi,
    activity: turnActivity(group.sessions, now),
    session_status: lead?.status ?? null,
    session_status_reason: lead?.status_reason ?? null,
    last_activity: lastActivity,
    captured_at: new Date(now).toISOString(),
    attention: 'idle',
    git,
    sessions,
    task_lists: taskLists,
    errors: [...input.errors, ...(git?.error ? [git.error] : [])],
  }
  snapshot.attention = deriveAttention(snapshot, now)
  return snapshot
}

/** Turns finished in the last hour across the project's sessions, and the newest of them. */
export function turnActivity(sessions: readonly Session[], now: number): TurnActivity {
  let turnsLastHour = 0
  let last: TurnActivity['last_turn'] = null
  const hourAgoMs = now - ACTIVE_WINDOW_MS
  const hourAgo = new Date(hourAgoMs).toISOString()
  for (const s of sessions) {
    // A turn ends on a line of the session's transcript, and its last activity is the latest of those
    // lines (core/transcript-fold.ts): one quiet for the whole hour ended no turn in it. Most sessions
    // are, and looking at each of their 20 ends was a millisecond of a start over 500 of them.
    const quietAllHour = s.last_activity !== null && isoMs(s.last_activity) < hourAgoMs
    if (!quietAllHour)
      for (const at of s.recent_turn_ends) if (atOrAfter(at, hourAgo)) turnsLastHour++
    const turn = s.last_turn
    if (turn && (!last || isoMs(turn.ended_at) > isoMs(last.ended_at))) {
      last = {
        session: s.id,
        session_name: s.name,
        prompt: turn.prompt,
        reply: turn.reply,
        ended_at: turn.ended_at,
      }
    }
  }
  return { turns_last_hour: turnsLastHour, last_turn: last }
}

/**
 * needs_input: a session waits on a permission or an answer, or is in trouble (core/trouble.ts).
 * pbi_complete: every task of the current PBI is done and nothing is working. active: a session runs, or
 * there was activity within the last hour. stale: unfinished work (open tasks, uncommitted or unpushed
 * changes) untouched for a day. idle: the rest.
 */
export function deriveAttention(p: ProjectSnapshot, now: number): Attention {
  const statuses = p.sessions.map((s) => s.status)
  if (statuses.includes('needs_permission') || statuses.includes('waiting_input'))
    return 'needs_input'
  // Trouble (core/trouble.ts) needs the user too: a stalled, failing or rate-limited agent.
  if (p.sessions.some((s) => s.trouble !== null)) return 'needs_input'
  const tasks = p.current_pbi?.tasks
  if (tasks && tasks.total > 0 && tasks.done === tasks.total && !statuses.includes('working')) {
    return 'pbi_complete'
  }
  if (statuses.some((s) => s !== 'ended') || recent(p.last_activity, now, ACTIVE_WINDOW_MS))
    return 'active'
  const unfinished =
    (tasks !== undefined && tasks.done < tasks.total) ||
    p.dirty === true ||
    (p.commits_ahead ?? 0) > 0
  if (unfinished && !recent(p.last_activity, now, STALE_AFTER_MS)) return 'stale'
  return 'idle'
}

export { ATTENTION_ORDER, sortByAttention } from '../../../shared/attention.ts'

function sessionPbi(lists: TaskList[]): Pbi | null {
  const withTasks = lists.filter((l) => l.tasks.length > 0)
  if (withTasks.length === 0) return null
  const newest = withTasks.reduce((a, b) => (time(b.updated_at) > time(a.updated_at) ? b : a))
  return {
    id: newest.session_id?.slice(0, 8) ?? newest.id,
    title: newest.title,
    tasks: countTasks(newest.tasks),
  }
}

function bySessionUrgency(a: Session, b: Session): number {
  return urgency(a.status) - urgency(b.status) || time(b.last_activity) - time(a.last_activity)
}

const urgency = (status: SessionStatus): number => STATUS_URGENCY.indexOf(status)
const time = (value: string | null | undefined): number => (value ? isoMs(value) || 0 : 0)
const recent = (value: string | null, now: number, windowMs: number): boolean =>
  value !== null && now - time(value) <= windowMs
/**
 * `iso` is at or after `threshold` (a `toISOString()` of a four-digit year). Canonical times (what the
 * folds keep: json-narrow.ts) compare as text, with no parse: there are 20 turn ends per session to look
 * at on every cycle and every CLI command. Any other form is parsed.
 */
function atOrAfter(iso: string, threshold: string): boolean {
  if (iso.length === 24 && CANONICAL_ISO.test(iso)) return iso >= threshold
  return time(iso) >= isoMs(threshold)
}
const prKnown = (git: GitState | null): boolean =>
  git !== null && git.pr.state !== 'unknown' && git.error === null

function latest(values: (string | null)[]): string | null {
  let best: string | null = null
  for (const value of values) if (value && (!best || time(value) > time(best))) best = value
  return best
}
