import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CommandResult, ToolStatus } from '../../shared/ipc-contract.ts'
import type { PmRunStatus } from '../../shared/schemas/briefing.ts'
import type { SessionWithProject } from '../../electron/engine/index.ts'
import {
  createContractHandlers,
  PM_OFF_MESSAGE,
  type ContractDeps,
} from '../../electron/runtime/contract-handlers.ts'
import {
  fakeEngine,
  fakePm,
  makeEvent,
  memorySettings,
  noBriefing,
} from '../support/contract-fakes.ts'

const tools = (claudeFound: boolean): ToolStatus[] => [
  {
    name: 'claude',
    found: claudeFound,
    path: claudeFound ? '/bin/claude' : null,
    fix: claudeFound ? null : 'npm install -g @anthropic-ai/claude-code',
  },
]

function setup(over: Partial<ContractDeps> = {}) {
  const engine = fakeEngine()
  const pm = fakePm()
  const focused: { socket: string; pane: string }[] = []
  const deps: ContractDeps = {
    engine,
    pm,
    settings: memorySettings(),
    paths: { naviHome: '/nonexistent/navi', claudeConfigDir: '/nonexistent/c', codexHome: '/x' },
    checkTools: async () => tools(true),
    focusSession: async (target): Promise<CommandResult> => {
      focused.push(target)
      return { done: true, message: 'focused' }
    },
    getPmRunning: () => null,
    ...over,
  }
  return { engine, pm, focused, handlers: createContractHandlers(deps) }
}

const session = (over: Partial<SessionWithProject>): SessionWithProject =>
  ({
    id: 's1',
    name: 'fix login',
    tmux_pane: null,
    tmux_socket: null,
    project: 'apollo',
    ...over,
  }) as SessionWithProject

describe('createContractHandlers', () => {
  it('events:list pages newest first, by project, with has_more', async () => {
    const { engine, handlers } = setup()
    engine.events = [
      makeEvent('c', '2026-01-01T00:03:00Z'),
      makeEvent('x', '2026-01-01T00:02:30Z', 'zeus'),
      makeEvent('b', '2026-01-01T00:02:00Z'),
      makeEvent('a', '2026-01-01T00:01:00Z'),
    ]
    const first = await handlers['events:list']({ limit: 2, project: 'apollo' })
    expect(first.events.map((e) => e.id)).toEqual(['c', 'b'])
    expect(first.has_more).toBe(true)
    const next = await handlers['events:list']({
      limit: 2,
      project: 'apollo',
      before: first.events.at(-1)?.timestamp,
    })
    expect(next).toEqual({ events: [engine.events[3]], has_more: false })
    await expect(handlers['events:list']({ limit: 2, before: 'soon' })).rejects.toThrow(/before/)
  })

  it('briefing:get gives the PM briefing and the run in progress', async () => {
    const running: PmRunStatus = {
      phase: 'thinking',
      trigger: 'commit',
      at: '2026-01-01T00:00:00Z',
    }
    const { handlers } = setup({ getPmRunning: () => running })
    expect(await handlers['briefing:get']()).toEqual({ state: noBriefing(), running })
  })

  it('briefing:get and briefing:refresh say the PM is off without one', async () => {
    const { handlers } = setup({ pm: null })
    expect((await handlers['briefing:get']()).state).toEqual({
      briefing: null,
      is_stale: false,
      error: PM_OFF_MESSAGE,
      claude_missing: null,
    })
    expect(await handlers['briefing:refresh']()).toEqual({ done: false, message: PM_OFF_MESSAGE })
  })

  it('without a PM, the last briefing on disk is shown, marked stale', async () => {
    const naviHome = await mkdtemp(join(tmpdir(), 'navi-pm-off-'))
    try {
      await mkdir(join(naviHome, 'pm'), { recursive: true })
      const cached = {
        output: {
          briefing: 'Yesterday: all quiet.',
          projects: [],
          attention_items: [],
          breadcrumbs: [],
          suggestions: [],
          patterns: [],
        },
        generated_at: '2026-11-21T10:00:00.000Z',
        trigger: 'on_demand',
      }
      await writeFile(join(naviHome, 'pm', 'last-output.json'), JSON.stringify(cached))
      const { handlers } = setup({
        pm: null,
        paths: { naviHome, claudeConfigDir: '/nonexistent/c', codexHome: '/x' },
      })
      expect((await handlers['briefing:get']()).state).toEqual({
        briefing: cached,
        is_stale: true,
        error: PM_OFF_MESSAGE,
        claude_missing: null,
      })
    } finally {
      await rm(naviHome, { recursive: true, force: true })
    }
  })

  it('briefing:refresh starts a run without waiting for it', async () => {
    const { pm, handlers } = setup()
    // fakePm's runNow never settles: awaiting it would hang the test.
    expect(await handlers['briefing:refresh']()).toEqual({ done: true, message: 'refreshing' })
    expect(pm.runs).toBe(1)
  })

  it('briefing:refresh refuses when claude is missing, with the fix', async () => {
    const { pm, handlers } = setup({ checkTools: async () => tools(false) })
    expect(await handlers['briefing:refresh']()).toEqual({
      done: false,
      message: 'npm install -g @anthropic-ai/claude-code',
    })
    expect(pm.runs).toBe(0)
  })

  it('session:focus focuses a tmux session and explains the others', async () => {
    const { engine, focused, handlers } = setup()
    engine.sessions = [
      session({ id: 'in-tmux', tmux_pane: '%3', tmux_socket: '/tmp/tmux-1/default' }),
      session({ id: 'plain' }),
    ]
    expect(await handlers['session:focus']({ session_id: 'in-tmux' })).toEqual({
      done: true,
      message: 'focused',
    })
    expect(focused).toEqual([{ socket: '/tmp/tmux-1/default', pane: '%3' }])
    expect(await handlers['session:focus']({ session_id: 'plain' })).toEqual({
      done: false,
      message: 'fix login is not in tmux',
    })
    expect((await handlers['session:focus']({ session_id: 'gone' })).done).toBe(false)
  })

  it('popover:hide uses the shell when there is one', async () => {
    expect(await setup().handlers['popover:hide']()).toEqual({
      done: false,
      message: 'no popover here',
    })
    const withTray = setup({ hidePopover: () => ({ done: true, message: 'hidden' }) })
    expect(await withTray.handlers['popover:hide']()).toEqual({ done: true, message: 'hidden' })
  })

  it('settings and tools go to their stores', async () => {
    const { handlers } = setup()
    const next = await handlers['settings:set']({ model: 'opus' })
    expect(next.model).toBe('opus')
    expect((await handlers['settings:get']()).model).toBe('opus')
    expect(await handlers['tools:get']()).toEqual(tools(true))
  })

  it('hooks:install uses the injected installer', async () => {
    const { handlers } = setup({ installHooks: async () => ({ done: true, message: 'installed' }) })
    expect(await handlers['hooks:install']()).toEqual({ done: true, message: 'installed' })
  })
})
