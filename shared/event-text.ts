/**
 * What an event says, in a few words: the one wording the CLI (`navi events`, `navi watch`), the popover,
 * notification bodies and the PM's inbox headlines share. Every field an agent, a repository or a
 * transcript wrote is untrusted: it comes out inert, on one line, clipped. Pure; no node:*.
 */
import type { EngineEvent } from './schemas/event.ts'
import type { SessionStatus } from './schemas/session.ts'
import { SESSION_STATUS_LABEL } from './labels.ts'
import { clipText } from './text.ts'

/** How much of each untrusted field fits: a list row has room for little, a notification for more. */
export interface EventTextRoom {
  /** Names: sessions, agents, tools. */
  name: number
  /** Commit subjects, task titles, prompts. */
  text: number
  /** Reasons and branches. */
  reason: number
}

/** One line of a list (`navi events`, the popover). */
export const LINE_ROOM: EventTextRoom = { name: 30, text: 70, reason: 60 }

export function describeEvent(e: EngineEvent, room: EventTextRoom = LINE_ROOM): string {
  const { name: NAME_MAX, text: TEXT_MAX, reason: REASON_MAX } = room
  // Typed by the schema, yet checked again: a face may be handed a line an older Navi wrote.
  const t = (value: unknown, max = TEXT_MAX): string =>
    typeof value === 'string' ? clipText(value, max) : ''
  const because = (reason: unknown) => (t(reason, REASON_MAX) ? ` (${t(reason, REASON_MAX)})` : '')
  const nameOf = (value: unknown) => t(value, NAME_MAX) || 'a session'
  switch (e.type) {
    case 'commit': {
      const { sha, branch, message, more_commits: more } = e.details
      const where = t(branch, REASON_MAX) || '(detached)'
      const rest = typeof more === 'number' && more > 0 ? ` (+${more} more)` : ''
      return `commit ${t(sha).slice(0, 7)} on ${where}: ${t(message)}${rest}`
    }
    case 'branch_created':
      return `branch ${t(e.details.branch)} created`
    case 'pr_created': {
      const n = e.details.number
      const number = typeof n === 'number' ? ` #${n}` : ''
      return `PR${number} opened for ${t(e.details.branch) || 'a branch'}`
    }
    case 'task_started':
      return `task started: ${t(e.details.task_title)}`
    case 'task_completed':
      return `task done: ${t(e.details.task_title)}`
    case 'pbi_completed':
      return `all tasks done: ${t(e.details.title)}`
    case 'turn_completed': {
      const prompt = t(e.details.prompt)
      return `${nameOf(e.details.name)} finished a turn${prompt ? `: ${prompt}` : ''}`
    }
    case 'permission_denied': {
      const tool = t(e.details.tool, NAME_MAX) || 'a tool call'
      return `${nameOf(e.details.name)}: ${tool} denied${because(e.details.reason)}`
    }
    case 'session_started': {
      const verb = e.details.resumed === true ? 'resumed' : 'started'
      return `${t(e.details.agent, NAME_MAX) || 'agent'} session ${nameOf(e.details.name)} ${verb}`
    }
    case 'session_ended':
      return `session ${nameOf(e.details.name)} ended${because(e.details.reason)}`
    case 'session_status_change': {
      const d = e.details
      return statusChange(
        nameOf(d.name),
        t(d.from, NAME_MAX),
        t(d.to, NAME_MAX),
        t(d.reason, REASON_MAX),
      )
    }
    case 'session_trouble':
      return `${nameOf(e.details.name)}: ${t(e.details.reason, TEXT_MAX) || troubleLabel(e.details.kind)}`
    case 'session_trouble_cleared':
      return `${nameOf(e.details.name)}: no longer ${troubleLabel(e.details.kind)}`
    case 'task_started_by_navi':
      return `delegated${e.details.plan === true ? ' (plan first)' : ''}: ${t(e.details.text)}`
    case 'task_notify':
      return `${t(e.details.text, NAME_MAX) || 'a task'}: ${t(e.details.note)}`
    case 'task_finished': {
      const how = e.details.status === 'completed' ? 'done' : t(e.details.status, NAME_MAX)
      return `delegated task ${how}: ${t(e.details.text)}${because(e.details.reason)}`
    }
  }
}

/** A trouble kind in words (engine/core/trouble.ts), for a line that has no reason of its own. */
export function troubleLabel(kind: unknown): string {
  switch (kind) {
    case 'api_error':
      return 'failing at the API'
    case 'failing_command':
      return 'failing the same command'
    case 'repeated_command':
      return 'repeating the same command'
    case 'stalled':
      return 'stalled'
    case 'waiting_long':
      return 'waiting long'
    default:
      return 'in trouble'
  }
}

function statusChange(name: string, from: string, to: string, reason: string): string {
  if (to === 'needs_permission') return `${name} needs permission${reason ? `: ${reason}` : ''}`
  if (to === 'waiting_input') return `${name} is waiting for input${reason ? `: ${reason}` : ''}`
  const label = (s: string) =>
    Object.hasOwn(SESSION_STATUS_LABEL, s) ? SESSION_STATUS_LABEL[s as SessionStatus] : s
  return `${name}: ${label(from)} → ${label(to)}${reason ? ` (${reason})` : ''}`
}
