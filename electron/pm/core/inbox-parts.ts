/**
 * The pieces of the PM's inbox: one event in full, a summary of many, and a project reduced to what the PM
 * needs, each at a level of detail `inbox.ts` picks to stay under the token budget.
 */
import { describeEvent } from '../../../shared/event-text.ts'
import type { EngineEvent, EventType } from '../../../shared/schemas/event.ts'
import type { Attention, ProjectSnapshot } from '../../../shared/schemas/project.ts'
import type {
  AgentKind,
  Session,
  SessionStatus,
  TaskCounts,
} from '../../../shared/schemas/session.ts'
import { STATUS_URGENCY } from '../../engine/core/session-status.ts'
import { compactTime, quoteOptional, quoteRecord, quoteText } from './inbox-text.ts'

/** An event in full. Everything taken from the event's details, and only that, lives under `data`. */
export interface InboxEvent {
  timestamp: string
  type: EventType
  project: string
  data: Record<string, unknown>
}

/**
 * Events not shown one by one, counted. A summary without `project` spans every project (`projects` says how
 * many); one without `type` spans every type (`by_type` splits the count).
 */
export interface EventSummary {
  project?: string
  type?: EventType
  count: number
  first: string
  last: string
  by_type?: Partial<Record<EventType, number>>
  projects?: number
  /** The newest few headlines (commit subjects, task titles…), quoted and capped. */
  examples?: string[]
}

export interface InboxSession {
  name: string
  agent: AgentKind
  status: SessionStatus
  reason?: string
  last_prompt?: string
}

export interface InboxProject {
  name: string
  attention: Attention
  session_status: SessionStatus | null
  session_status_reason?: string
  current_pbi?: { id: string; title: string }
  tasks?: TaskCounts
  git?: {
    branch: string | null
    commits_ahead: number | null
    dirty: boolean | null
    has_pr: boolean | null
  }
  last_activity?: string
  /** Sessions not ended; `sessions` lists at most `SESSIONS_CAP` of them, most urgent first. */
  live_sessions: number
  sessions?: InboxSession[]
}

/** full: everything; brief: no sessions list; minimal: no status reason, shorter PBI title either. */
export type ProjectDetail = 'full' | 'brief' | 'minimal'

/** Per project and type, with examples or not; per project (all types); per type (all projects). */
export type SummaryGrain = 'project_type_examples' | 'project_type' | 'project' | 'type'

const SESSIONS_CAP = 5
const PROMPT_CAP = 120
const NAME_CAP = 80
const EXAMPLE_CAP = 60
const EXAMPLES_PER_SUMMARY = 2
/** A commit is named by its short sha; the full 40 characters cost 7 tokens each and say nothing more. */
const SHA_CAP = 12

/** An event ready to show or to count: its time for ordering, its quoted project and compact stamp. */
export interface RankedEvent {
  event: EngineEvent
  /** Epoch ms; -Infinity when the timestamp does not parse, so such events count as the oldest. */
  time: number
  project: string
  stamp: string
  /** The event in full, rendered on first use (most events of a large inbox are only counted). */
  view: () => InboxEvent
}

/** `events` ready for ranking; project names are quoted once per distinct name. */
export function prepareEvents(events: readonly EngineEvent[]): RankedEvent[] {
  const names = new Map<string, string>()
  return events.map((event) => {
    let project = names.get(event.project)
    if (project === undefined) {
      project = quoteText(event.project, NAME_CAP)
      names.set(event.project, project)
    }
    const parsed = Date.parse(event.timestamp)
    const stamp = compactTime(event.timestamp)
    let view: InboxEvent | null = null
    return {
      event,
      time: Number.isNaN(parsed) ? -Infinity : parsed,
      project,
      stamp,
      view: () => (view ??= renderEvent(event, project, stamp)),
    }
  })
}

function renderEvent(event: EngineEvent, project: string, timestamp: string): InboxEvent {
  const data = quoteRecord(event.details)
  if (typeof data.sha === 'string') data.sha = data.sha.slice(0, SHA_CAP)
  for (const [key, value] of Object.entries(data)) {
    if (key.endsWith('_at') && typeof value === 'string') data[key] = compactTime(value)
  }
  return { timestamp, type: event.type, project, data }
}

/** The one line a summary shows for an event: the wording every face shares (shared/event-text.ts). */
function headline(event: EngineEvent): string {
  return describeEvent(event)
}

interface Group {
  project?: string
  type?: EventType
  items: RankedEvent[]
}

/** Counts `events` at the given grain, newest summary first. Every event lands in exactly one summary. */
export function summarize(events: readonly RankedEvent[], grain: SummaryGrain): EventSummary[] {
  const groups = new Map<string, Group>()
  for (const item of events) {
    const { project } = item
    const { type } = item.event
    const key =
      grain === 'project'
        ? `p:${project}`
        : grain === 'type'
          ? `t:${type}`
          : `pt:${project}\0${type}`
    let group = groups.get(key)
    if (!group) {
      group = {
        ...(grain !== 'type' && { project }),
        ...(grain !== 'project' && { type }),
        items: [],
      }
      groups.set(key, group)
    }
    group.items.push(item)
  }
  return [...groups.values()]
    .map((group) => toSummary(group, grain))
    .sort((a, b) => b.last.localeCompare(a.last))
}

function toSummary(group: Group, grain: SummaryGrain): EventSummary {
  let oldest = group.items[0]!
  let newest = oldest
  for (const item of group.items) {
    if (item.time < oldest.time) oldest = item
    if (item.time > newest.time) newest = item
  }
  const summary: EventSummary = {
    ...(group.project !== undefined && { project: group.project }),
    ...(group.type !== undefined && { type: group.type }),
    count: group.items.length,
    first: oldest.stamp,
    last: newest.stamp,
  }
  if (grain === 'project') {
    const byType: Partial<Record<EventType, number>> = {}
    for (const { event } of group.items) byType[event.type] = (byType[event.type] ?? 0) + 1
    summary.by_type = byType
  }
  if (grain === 'type') summary.projects = new Set(group.items.map((i) => i.project)).size
  if (grain === 'project_type_examples') {
    const examples = newestHeadlines(group.items)
    if (examples.length > 0) summary.examples = examples
  }
  return summary
}

function newestHeadlines(items: readonly RankedEvent[]): string[] {
  const withHeadline = items
    .map((item) => ({ time: item.time, text: headline(item.event) }))
    .filter((h): h is { time: number; text: string } => h.text !== null)
    .sort((a, b) => (b.time === a.time ? 0 : b.time > a.time ? 1 : -1))
  const examples = new Set<string>()
  for (const { text } of withHeadline) {
    const quoted = quoteText(text, EXAMPLE_CAP)
    if (quoted !== '') examples.add(quoted)
    if (examples.size === EXAMPLES_PER_SUMMARY) break
  }
  return [...examples]
}

function sessionView(session: Session): InboxSession {
  const reason = quoteOptional(session.status_reason)
  const prompt = quoteOptional(session.last_prompt, PROMPT_CAP)
  return {
    name: quoteText(session.name, NAME_CAP),
    agent: session.agent,
    status: session.status,
    ...(reason && { reason }),
    ...(prompt && { last_prompt: prompt }),
  }
}

/** A project as the PM sees it, at the given detail. */
export function projectView(project: ProjectSnapshot, detail: ProjectDetail): InboxProject {
  const live = project.sessions.filter((s) => s.status !== 'ended')
  const reason = detail === 'minimal' ? undefined : quoteOptional(project.session_status_reason)
  const pbi = project.current_pbi
  const view: InboxProject = {
    name: quoteText(project.name, NAME_CAP),
    attention: project.attention,
    session_status: project.session_status,
    ...(reason && { session_status_reason: reason }),
    ...(pbi && {
      current_pbi: {
        id: quoteText(pbi.id, 40),
        title: quoteText(pbi.title, detail === 'minimal' ? EXAMPLE_CAP : 120),
      },
      tasks: { ...pbi.tasks },
    }),
    ...(project.is_git && {
      git: {
        branch: project.branch === null ? null : quoteText(project.branch, 120),
        commits_ahead: project.commits_ahead,
        dirty: project.dirty,
        has_pr: project.has_pr,
      },
    }),
    ...(project.last_activity && { last_activity: compactTime(project.last_activity) }),
    live_sessions: live.length,
  }
  if (detail === 'full' && live.length > 0) {
    view.sessions = [...live]
      .sort((a, b) => STATUS_URGENCY.indexOf(a.status) - STATUS_URGENCY.indexOf(b.status))
      .slice(0, SESSIONS_CAP)
      .map(sessionView)
  }
  return view
}
