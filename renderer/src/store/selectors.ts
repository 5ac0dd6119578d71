/**
 * Pure views of the engine's data for the popover: sorting, wording, colors and relative times. No DOM, no
 * store, no I/O: `now` is always passed in, so the unit tests (tests/unit/renderer-selectors.test.ts) pin it.
 */
import { turnActivityText } from '../../../shared/activity-text.ts'
import type { ToolStatus } from '../../../shared/ipc-contract.ts'
import type { BriefingState, PmRunStatus } from '../../../shared/schemas/briefing.ts'
import type { EngineEvent, EventType } from '../../../shared/schemas/event.ts'
import { pbiLabel, type Attention, type ProjectSnapshot } from '../../../shared/schemas/project.ts'
import { sortByAttention } from '../../../shared/attention.ts'
import { describeEvent } from '../../../shared/event-text.ts'
import { inertLine } from '../../../shared/text.ts'
import {
  SESSION_STATUS_LABEL,
  type Session,
  type SessionStatus,
  type TaskList,
} from '../../../shared/schemas/session.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** Attention order (needs input first, idle last), then most recent activity, then name. */
export const sortProjects = sortByAttention

/** The glyph drawn in the row's status badge; the badge's color comes from `data-attention`. */
export const ATTENTION_ICON: Record<Attention, string> = {
  needs_input: '?',
  pbi_complete: '✓',
  active: '●',
  stale: '!',
  idle: '–',
}

export const ATTENTION_LABEL: Record<Attention, string> = {
  needs_input: 'needs input',
  pbi_complete: 'PBI complete',
  active: 'active',
  stale: 'stale',
  idle: 'idle',
}

export function sessionStatusLabel(status: SessionStatus | null): string {
  return status ? SESSION_STATUS_LABEL[status] : 'no session'
}

/** Everything one project row shows, as text. */
export interface ProjectLine {
  name: string
  icon: string
  attention: Attention
  /** PBI or task-list title; else the branch; else null. */
  work: string | null
  /** `2/7`, or null without a PBI. */
  progress: string | null
  status: string
  ago: string
  /** Why the session waits (permission message…), shown under the row. */
  reason: string | null
}

export function projectLine(p: ProjectSnapshot, now: number): ProjectLine {
  const pbi = p.current_pbi
  // A session in trouble (stalled, failing, rate limited, waiting long) says why before anything else.
  const trouble = p.sessions.find((s) => s.trouble !== null && s.status !== 'ended')?.trouble
  return {
    name: singleLine(p.name),
    icon: ATTENTION_ICON[p.attention],
    attention: p.attention,
    work: pbi
      ? singleLine(pbiLabel(pbi))
      : (turnActivityText(p.activity) ?? (p.branch ? `on ${singleLine(p.branch)}` : null)),
    progress: pbi ? `${pbi.tasks.done}/${pbi.tasks.total}` : null,
    status: sessionStatusLabel(p.session_status),
    ago: relativeTime(now, p.last_activity),
    reason: trouble
      ? singleLine(trouble.reason)
      : p.session_status_reason
        ? singleLine(p.session_status_reason)
        : null,
  }
}

/** The task list behind `current_pbi`, else the most recently updated list. */
export function currentTaskList(p: ProjectSnapshot): TaskList | null {
  const byId = p.current_pbi ? p.task_lists.find((l) => l.id === p.current_pbi?.id) : undefined
  if (byId) return byId
  const lists = [...p.task_lists].sort((a, b) => timeOf(b.updated_at) - timeOf(a.updated_at))
  return lists[0] ?? null
}

/** `just now`, `3m ago`, `2h ago`, `4d ago`; empty for an unknown time. */
export function relativeTime(now: number, iso: string | null | undefined): string {
  const at = iso ? Date.parse(iso) : NaN
  if (!Number.isFinite(at)) return ''
  const ms = Math.max(0, now - at)
  if (ms < MINUTE) return 'just now'
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)}m ago`
  if (ms < DAY) return `${Math.floor(ms / HOUR)}h ago`
  return `${Math.floor(ms / DAY)}d ago`
}

/** `15:12` for today (local time), `Nov 20` for an older day. */
export function clockTime(now: number, iso: string): string {
  const at = new Date(iso)
  if (!Number.isFinite(at.getTime())) return ''
  const today = new Date(now)
  if (at.toDateString() === today.toDateString()) {
    const pad = (n: number) => String(n).padStart(2, '0')
    return `${pad(at.getHours())}:${pad(at.getMinutes())}`
  }
  return `${MONTHS[at.getMonth()]} ${at.getDate()}`
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** One line of untrusted text: the shared inert-text rule (controls, bidi and zero-width characters go). */
export const singleLine = inertLine

export type EventColor = 'green' | 'yellow' | 'cyan'

const EVENT_COLOR: Record<EventType, EventColor> = {
  task_started: 'green',
  task_completed: 'green',
  pbi_completed: 'green',
  turn_completed: 'green',
  task_started_by_navi: 'green',
  task_notify: 'green',
  task_finished: 'green',
  session_started: 'yellow',
  permission_denied: 'yellow',
  session_ended: 'yellow',
  session_status_change: 'yellow',
  session_trouble: 'yellow',
  session_trouble_cleared: 'yellow',
  commit: 'cyan',
  branch_created: 'cyan',
  pr_created: 'cyan',
}

/** Tasks green, sessions yellow, git cyan. */
export function eventColorClass(type: EventType): EventColor {
  return EVENT_COLOR[type]
}

/** Events older than an hour are dimmed. */
export function isOldEvent(now: number, e: EngineEvent): boolean {
  return now - Date.parse(e.timestamp) > HOUR
}

/** What happened, in a few words: the wording every face shares (shared/event-text.ts). */
export const eventText = describeEvent

/** The commit's branch and full sha, for the row's tooltip; else the text itself. */
export function eventTooltip(e: EngineEvent): string {
  const text = eventText(e)
  if (e.type !== 'commit') return text
  const sha = typeof e.details.sha === 'string' ? e.details.sha : ''
  const branch = typeof e.details.branch === 'string' ? singleLine(e.details.branch) : '(detached)'
  return `${text}\n${sha} on ${branch}`
}

/** New events merged into the list: deduplicated by id, newest first, at most `cap`. */
export function mergeEvents(
  current: readonly EngineEvent[],
  incoming: readonly EngineEvent[],
  cap: number,
): EngineEvent[] {
  const byId = new Map<string, EngineEvent>()
  for (const e of [...incoming, ...current]) if (!byId.has(e.id)) byId.set(e.id, e)
  return [...byId.values()]
    .sort((a, b) => timeOf(b.timestamp) - timeOf(a.timestamp) || b.id.localeCompare(a.id))
    .slice(0, cap)
}

type AttentionItem = NonNullable<BriefingState['briefing']>['output']['attention_items'][number]
const PRIORITY_ORDER = { high: 0, medium: 1, low: 2 } as const

/** High first, then medium, then low; stable within a priority (the PM's own order). */
export function sortAttentionItems(items: readonly AttentionItem[]): AttentionItem[] {
  return [...items].sort((a, b) => PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority])
}

const PHASE_WORDS: Record<PmRunStatus['phase'], string | null> = {
  starting: 'starting',
  reading_memory: 'reading memory',
  thinking: 'thinking',
  writing_memory: 'writing memory',
  done: null,
  failed: null,
}

/** `updating… (thinking)` while a PM run is in progress; null when none is. */
export function updatingText(running: PmRunStatus | null): string | null {
  const word = running ? PHASE_WORDS[running.phase] : null
  return word ? `updating… (${word})` : null
}

/** A run is in progress unless its last status says it finished. */
export function isRunning(status: PmRunStatus | null): boolean {
  return status !== null && PHASE_WORDS[status.phase] !== null
}

/** Navi cannot do its job without these; the others (tmux, gh) only add detail. */
export const REQUIRED_TOOLS: readonly ToolStatus['name'][] = ['claude', 'git']

/** Missing tools, split into the ones the banner warns about and the optional ones it only mentions. */
export function missingTools(tools: readonly ToolStatus[]): {
  required: ToolStatus[]
  optional: ToolStatus[]
} {
  const missing = tools.filter((t) => !t.found)
  return {
    required: missing.filter((t) => REQUIRED_TOOLS.includes(t.name)),
    optional: missing.filter((t) => !REQUIRED_TOOLS.includes(t.name)),
  }
}

/** The id `delta` rows away from `current` in `ids`, clamped; the first id when `current` is not there. */
export function moveCursor(
  ids: readonly string[],
  current: string | null,
  delta: number,
): string | null {
  if (ids.length === 0) return null
  const index = current === null ? -1 : ids.indexOf(current)
  if (index < 0) return ids[0] ?? null
  return ids[Math.min(ids.length - 1, Math.max(0, index + delta))] ?? null
}

/** The cursor's id if it is still listed, else the first one. */
export function resolveCursor(ids: readonly string[], current: string | null): string | null {
  return current !== null && ids.includes(current) ? current : (ids[0] ?? null)
}

function timeOf(iso: string | null | undefined): number {
  const at = iso ? Date.parse(iso) : NaN
  return Number.isFinite(at) ? at : -Infinity
}

/**
 * A request that can be answered from here: Navi's hook holds it now, or the session runs in tmux (its
 * dialog's key is typed once the pane shows that very dialog). Either way it needs the hooks' request id.
 */
export function isAnswerable(session: Session, now: number): boolean {
  const pending = session.pending_request
  if (session.status !== 'needs_permission' || !pending?.request_id || !pending.input_digest) {
    return false
  }
  const held = pending.answer_until !== null && Date.parse(pending.answer_until) > now
  return held || Boolean(session.tmux_pane && session.tmux_socket)
}
