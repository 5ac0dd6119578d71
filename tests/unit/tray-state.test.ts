import { describe, expect, it } from 'vitest'
import {
  deriveTrayState,
  type AttentionItem,
  type TrayStateInput,
} from '../../electron/main/tray/tray-state.ts'
import type { SessionStatus } from '../../shared/schemas/session.ts'

type Sessions = TrayStateInput['projects'][number]['sessions']

const project = (...statuses: SessionStatus[]) => ({
  sessions: statuses.map((status, i) => ({ id: `${status}-${i}`, status })) as unknown as Sessions,
})
const item = (priority: AttentionItem['priority']): AttentionItem => ({
  project: 'p',
  priority,
  title: 'look at this',
})
const base: TrayStateInput = {
  projects: [],
  attentionItems: [],
  briefingStale: false,
  pmRunning: false,
}

describe('deriveTrayState', () => {
  const cases: {
    name: string
    input: Partial<TrayStateInput>
    icon: string
    badge: number
    tooltip: string
  }[] = [
    { name: 'nothing at all', input: {}, icon: 'idle', badge: 0, tooltip: 'Navi — no projects' },
    {
      name: 'idle projects',
      input: { projects: [project('idle'), project('ended')] },
      icon: 'idle',
      badge: 0,
      tooltip: 'Navi — 2 projects',
    },
    {
      name: 'one working agent',
      input: { projects: [project('working', 'idle')] },
      icon: 'working',
      badge: 0,
      tooltip: 'Navi — 1 agent working · 1 project',
    },
    {
      name: 'sessions waiting are counted one by one, not per project',
      input: { projects: [project('needs_permission', 'waiting_input'), project('working')] },
      icon: 'attention',
      badge: 2,
      tooltip: 'Navi — 2 need you · 1 agent working · 2 projects',
    },
    {
      name: 'attention items of every priority count, summed with waiting sessions',
      input: {
        projects: [project('needs_permission')],
        attentionItems: [item('high'), item('medium'), item('low')],
      },
      icon: 'attention',
      badge: 4,
      tooltip: 'Navi — 4 need you · 1 project',
    },
    {
      name: 'a single attention item',
      input: { projects: [project('working', 'working')], attentionItems: [item('low')] },
      icon: 'attention',
      badge: 1,
      tooltip: 'Navi — 1 needs you · 2 agents working · 1 project',
    },
    {
      name: 'stale briefing is mentioned',
      input: { projects: [project()], briefingStale: true },
      icon: 'idle',
      badge: 0,
      tooltip: 'Navi — 1 project · briefing out of date',
    },
    {
      name: 'a PM run in progress wins over staleness',
      input: { projects: [project()], briefingStale: true, pmRunning: true },
      icon: 'idle',
      badge: 0,
      tooltip: 'Navi — 1 project · updating briefing',
    },
  ]
  it.each(cases)('$name', ({ input, icon, badge, tooltip }) => {
    const state = deriveTrayState({ ...base, ...input })
    expect(state).toEqual({ icon, badge, tooltip, title: badge > 0 ? String(badge) : '' })
  })

  it('counts a session listed under two projects once', () => {
    const shared = { sessions: [{ id: 's1', status: 'waiting_input' }] as unknown as Sessions }
    expect(deriveTrayState({ ...base, projects: [shared, shared] }).badge).toBe(1)
  })

  it('counts a session in trouble as needing you, not one whose trouble ended with it', () => {
    const trouble = { kind: 'stalled', reason: 'no progress for 12 min', since: null }
    const sessions = [
      { id: 's1', status: 'working', trouble },
      { id: 's2', status: 'ended', trouble },
      { id: 's3', status: 'working', trouble: null },
    ] as unknown as Sessions
    const state = deriveTrayState({ ...base, projects: [{ sessions }] })
    expect(state).toMatchObject({ icon: 'attention', badge: 1 })
    expect(state.tooltip).toBe('Navi — 1 needs you · 1 agent working · 1 project')
  })
})
