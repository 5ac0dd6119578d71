/**
 * What an event says, in a few words: the one wording the CLI (`navi events`, `navi watch`), the popover,
 * notification bodies and the PM's inbox headlines share. Every field an agent, a repository or a
 * transcript wrote is untrusted: it comes out inert, on one line, clipped. Pure; no node:*.
 */
import type { EngineEvent } from './schemas/event.ts'
import { SESSION_STATUS_LABEL, type SessionStatus } from './schemas/session.ts'
import { clipText } from './text.ts'

const NAME_MAX = 30
const TEXT_MAX = 70
const REASON_MAX = 60

export function describeEvent(e: EngineEvent): string {
  const d = e.details
  const str = (key: string, max = TEXT_MAX): string => {
    const value = d[key]
    return typeof value === 'string' ? clipText(value, max) : ''
  }
  const num = (key: string): number | null => {
    const value = d[key]
    return typeof value === 'number' && Number.isFinite(value) ? value : null
  }
  const name = str('name', NAME_MAX) || 'a session'
  const because = (key = 'reason') => (str(key, REASON_MAX) ? ` (${str(key, REASON_MAX)})` : '')
  switch (e.type) {
    case 'commit': {
      const more = num('more_commits')
      const branch = str('branch', REASON_MAX) || '(detached)'
      return `commit ${str('sha').slice(0, 7)} on ${branch}: ${str('message')}${more ? ` (+${more} more)` : ''}`
    }
    case 'branch_created':
      return `branch ${str('branch')} created`
    case 'pr_created': {
      const n = num('number')
      return `PR${n !== null ? ` #${n}` : ''} opened for ${str('branch') || 'a branch'}`
    }
    case 'task_started':
      return `task started: ${str('task_title')}`
    case 'task_completed':
      return `task done: ${str('task_title')}`
    case 'pbi_completed':
      return `all tasks done: ${str('title')}`
    case 'turn_completed':
      return `${name} finished a turn${str('prompt') ? `: ${str('prompt')}` : ''}`
    case 'permission_denied':
      return `${name}: ${str('tool', NAME_MAX) || 'a tool call'} denied${because()}`
    case 'session_started':
      return `${str('agent', NAME_MAX) || 'agent'} session ${name} ${d.resumed === true ? 'resumed' : 'started'}`
    case 'session_ended':
      return `session ${name} ended${because()}`
    case 'session_status_change':
      return statusChange(
        name,
        str('from', NAME_MAX),
        str('to', NAME_MAX),
        str('reason', REASON_MAX),
      )
  }
}

function statusChange(name: string, from: string, to: string, reason: string): string {
  if (to === 'needs_permission') return `${name} needs permission${reason ? `: ${reason}` : ''}`
  if (to === 'waiting_input') return `${name} is waiting for input${reason ? `: ${reason}` : ''}`
  const label = (s: string) =>
    Object.hasOwn(SESSION_STATUS_LABEL, s) ? SESSION_STATUS_LABEL[s as SessionStatus] : s
  return `${name}: ${label(from)} → ${label(to)}${reason ? ` (${reason})` : ''}`
}
