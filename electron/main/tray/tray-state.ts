import type { PmOutput } from '../../../shared/schemas/briefing.ts'
import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'
import type { SessionStatus } from '../../../shared/schemas/session.ts'

export type TrayIconState = 'idle' | 'working' | 'attention'

export type AttentionItem = PmOutput['attention_items'][number]

export interface TrayStateInput {
  projects: readonly Pick<ProjectSnapshot, 'sessions'>[]
  /** The attention items of the current briefing (none when there is no briefing). */
  attentionItems: readonly AttentionItem[]
  briefingStale: boolean
  pmRunning: boolean
}

export interface TrayState {
  icon: TrayIconState
  /** How many things wait for the user; 0 hides the badge. */
  badge: number
  /** One line for the tray tooltip. */
  tooltip: string
  /** macOS `tray.setTitle` text beside the icon: the badge, or empty. */
  title: string
}

const NEEDS_HUMAN: ReadonlySet<SessionStatus> = new Set(['needs_permission', 'waiting_input'])

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`

/**
 * What the tray shows. The badge is every attention item of the current briefing plus every session
 * waiting for a permission or an answer, or in trouble (stalled, failing, rate limited: core/trouble.ts). The two are summed, not matched: the PM may well list a
 * blocked session as an attention item too, but its items are free text and cannot be tied to a
 * session reliably, and over-counting by one is better than hiding a session that waits.
 * Sessions are counted by id, so one listed under two projects counts once.
 */
export function deriveTrayState(input: TrayStateInput): TrayState {
  const waiting = new Set<string>()
  const working = new Set<string>()
  for (const project of input.projects) {
    for (const session of project.sessions) {
      if (NEEDS_HUMAN.has(session.status) || (session.trouble && session.status !== 'ended'))
        waiting.add(session.id)
      else if (session.status === 'working') working.add(session.id)
    }
  }
  const badge = waiting.size + input.attentionItems.length
  const icon: TrayIconState = badge > 0 ? 'attention' : working.size > 0 ? 'working' : 'idle'

  const parts: string[] = []
  if (badge > 0) parts.push(`${badge} ${badge === 1 ? 'needs' : 'need'} you`)
  if (working.size > 0) parts.push(`${plural(working.size, 'agent', 'agents')} working`)
  parts.push(
    input.projects.length === 0
      ? 'no projects'
      : plural(input.projects.length, 'project', 'projects'),
  )
  if (input.pmRunning) parts.push('updating briefing')
  else if (input.briefingStale) parts.push('briefing out of date')

  return {
    icon,
    badge,
    tooltip: `Navi — ${parts.join(' · ')}`,
    title: badge > 0 ? String(badge) : '',
  }
}
