/**
 * Every channel of the contract implemented over the engine, the PM and the settings: one object that
 * the Electron IPC bridge and `navi serve` both dispatch to (see `dispatch.ts`).
 */
import type {
  BriefingView,
  CommandResult,
  ContractHandlers,
  ToolStatus,
} from '../../shared/ipc-contract.ts'
import type { BriefingState, CachedBriefing, PmRunStatus } from '../../shared/schemas/briefing.ts'
import { focusTmuxPane, type TmuxTarget } from '../engine/adapters/tmux-focus.ts'
import { naviFiles, type EnginePaths } from '../engine/core/paths.ts'
import type { Engine } from '../engine/index.ts'
import type { Pm } from '../pm/index.ts'
import { readCachedBriefing } from '../pm/run-state-files.ts'
import { visibleItems, withDismissal } from '../pm/core/dismissals.ts'
import { ruleSuggestions } from '../pm/core/suggestion-rules.ts'
import { presentBriefing, readDismissals, writeDismissals } from '../pm/dismissals-file.ts'
import { pageEvents } from './events-page.ts'
import { countAtOrAfter } from '../engine/core/event-line.ts'
import { answeringState, answerPermissionRequest, setAnswering } from './answer-request.ts'
import type { AnswerFace } from '../../shared/schemas/answer.ts'
import { replyToSession } from './reply-request.ts'
import type { Log } from '../../shared/log.ts'
import type { SettingsStore } from './settings-store.ts'
import type { TaskActResult } from '../../shared/schemas/task.ts'
import type { TaskService } from './tasks.ts'

export interface ContractDeps {
  engine: Engine
  /** Null when the PM is off (`navi serve --no-pm`). */
  pm: Pm | null
  settings: SettingsStore
  paths: EnginePaths
  checkTools(): Promise<ToolStatus[]>
  /** @default focusTmuxPane */
  focusSession?(target: TmuxTarget): Promise<CommandResult>
  /** @default installs with `installHooks(paths)` */
  installHooks?(): Promise<CommandResult>
  /** The tray hides its popover; absent in a browser. */
  hidePopover?(): CommandResult
  /** The PM run in progress, if any (the push hub tracks it). */
  getPmRunning(): PmRunStatus | null
  /** Where a dismissals file that cannot be read is told (the PM logs its own). @default nowhere */
  log?: Log
  /** The face these handlers serve, named in the answer log. @default 'cli' */
  face?: AnswerFace
  /** config.yaml's `answering.wait`, in seconds (read when asked: a change applies at once). @default 300 */
  answerWaitSeconds?(): number
  /** Delegated tasks; null where this runtime runs none (the read-only commands). */
  tasks?: TaskService | null
}

export const TASKS_OFF_MESSAGE = 'delegated tasks are not run by this Navi'

export const PM_OFF_MESSAGE = 'PM is off (navi serve --no-pm)'

/**
 * What the briefing zone shows when there is no PM at all: the last briefing a PM wrote, if any, marked
 * stale because nothing will update it.
 */
export const pmOffState = (cached: CachedBriefing | null = null): BriefingState => ({
  briefing: cached,
  is_stale: cached !== null,
  error: PM_OFF_MESSAGE,
  claude_missing: null,
})

export function createContractHandlers(deps: ContractDeps): ContractHandlers {
  const files = naviFiles(deps.paths)
  const briefingView = async (): Promise<BriefingView> => ({
    state: deps.pm
      ? await deps.pm.getBriefing()
      : presentBriefing(
          pmOffState(await readCachedBriefing(files.lastOutput)),
          await readDismissals(files.dismissed, deps.log),
          Date.now(),
        ),
    running: deps.getPmRunning(),
  })

  /** A cycle first: a request answered in the terminal a moment ago must count as answered. */
  const freshSessions = async () => {
    await deps.engine.refresh({ force: false })
    return deps.engine.getSessions()
  }
  const actor = () => ({
    paths: deps.paths,
    sessions: freshSessions,
    by: deps.face ?? ('cli' as const),
    ...(deps.log ? { log: deps.log } : {}),
  })

  return {
    'state:get': async () => deps.engine.getState(),

    'events:list': async ({ limit, before, since, project }) => {
      if (before !== undefined && Number.isNaN(Date.parse(before))) {
        throw new Error(`before: not a timestamp: ${before}`)
      }
      const sinceMs = since === undefined ? null : Date.parse(since)
      if (sinceMs !== null && Number.isNaN(sinceMs))
        throw new Error(`since: not a timestamp: ${since}`)
      const events = await deps.engine.listEvents(project ? { project } : {})
      // Newest first: the events since a moment are a prefix.
      const recent = sinceMs === null ? events : events.slice(0, countAtOrAfter(events, sinceMs))
      return pageEvents(recent, { limit, before })
    },

    'sessions:list': async ({ all }) => ({
      generated_at: deps.engine.getState().generated_at,
      sessions: deps.engine.getSessions().filter((s) => all || s.status !== 'ended'),
    }),

    'briefing:get': briefingView,

    'settings:get': async () => (await deps.settings.refresh?.()) ?? deps.settings.get(),

    'tools:get': () => deps.checkTools(),

    'suggestions:list': async () => {
      const briefing = (await briefingView()).state.briefing
      const fromPm = (briefing?.output.suggestions ?? []).map((s) => ({
        ...s,
        source: 'pm' as const,
      }))
      const all = [...ruleSuggestions(deps.engine.getState().projects), ...fromPm]
      return visibleItems(all, await readDismissals(files.dismissed, deps.log), Date.now())
    },

    'attention:dismiss': async ({ project, title, snooze_minutes: minutes }) => {
      const until = minutes ? new Date(Date.now() + minutes * 60_000).toISOString() : null
      if (deps.pm) await deps.pm.dismissAttention({ project, title }, until)
      else {
        // No PM to tell the faces: the next briefing:get shows it.
        const dismissals = await readDismissals(files.dismissed, deps.log)
        await writeDismissals(files.dismissed, withDismissal(dismissals, { project, title }, until))
      }
      return { done: true, message: minutes ? `snoozed for ${String(minutes)} min` : 'dismissed' }
    },

    'pm:ask': async ({ question }) =>
      deps.pm ? deps.pm.ask(question) : { answer: null, error: PM_OFF_MESSAGE },

    'briefing:refresh': async () => {
      const pm = deps.pm
      if (!pm) return { done: false, message: PM_OFF_MESSAGE }
      const claude = (await deps.checkTools()).find((tool) => tool.name === 'claude')
      if (claude && !claude.found) {
        return { done: false, message: claude.fix ?? 'claude is not installed' }
      }
      // The run takes minutes: the UI follows it through pm:status and briefing:changed pushes.
      // The run tells its own outcome (a failed status and a stale briefing with the reason, and the log);
      // a rejection here could only repeat it.
      pm.runNow().catch(() => undefined)
      return { done: true, message: 'refreshing' }
    },

    'settings:set': (patch) => deps.settings.set(patch),

    'hooks:install': async () =>
      deps.installHooks
        ? deps.installHooks()
        : // Loaded when asked for: editing Claude's settings needs a JSONC library no other call does.
          (await import('./hooks.ts')).installHooksCommand(deps.paths),

    'session:focus': async ({ session_id }) => {
      const session = deps.engine.getSessions().find((s) => s.id === session_id)
      if (!session) return { done: false, message: `no session ${session_id}` }
      if (!session.tmux_pane) return { done: false, message: `${session.name} is not in tmux` }
      if (!session.tmux_socket) {
        // The CLI named its pane (2.1.330's live file), but not the tmux server it lives on.
        return {
          done: false,
          message: `${session.name} runs in tmux pane ${session.tmux_pane}; its tmux server is unknown`,
        }
      }
      const focus = deps.focusSession ?? focusTmuxPane
      return focus({ socket: session.tmux_socket, pane: session.tmux_pane })
    },

    'session:answer': (input) => answerPermissionRequest(actor(), input),

    'session:reply': (input) => replyToSession(actor(), input),

    'answering:get': async () => answeringState(deps.paths, deps.answerWaitSeconds?.() ?? 300),

    'answering:set': (target) =>
      setAnswering(deps.paths, target, deps.answerWaitSeconds?.() ?? 300),

    'tasks:list': async () => (deps.tasks ? deps.tasks.list() : []),

    'task:preview': async ({ text }) =>
      deps.tasks
        ? deps.tasks.preview(text)
        : { dir: null, project: null, why: null, candidates: [], plan_keyword: null },

    'task:start': async (input): Promise<TaskActResult> => {
      if (!deps.tasks)
        return { done: false, message: TASKS_OFF_MESSAGE, task: null, candidates: [] }
      const started = await deps.tasks.start(input)
      return started.ok
        ? {
            done: true,
            message: `task ${started.task.id} ${started.task.status}`,
            task: started.task,
            candidates: [],
          }
        : { done: false, message: started.error, task: null, candidates: started.candidates ?? [] }
    },

    'task:reply': async ({ id, text }) => {
      if (!deps.tasks)
        return { done: false, message: TASKS_OFF_MESSAGE, task: null, candidates: [] }
      const result = await deps.tasks.reply(id, text)
      return { ...result, task: result.task ?? null, candidates: [] }
    },

    'task:cancel': async ({ id }) => {
      if (!deps.tasks)
        return { done: false, message: TASKS_OFF_MESSAGE, task: null, candidates: [] }
      const result = await deps.tasks.cancel(id)
      return { ...result, task: result.task ?? null, candidates: [] }
    },

    'popover:hide': async () => deps.hidePopover?.() ?? { done: false, message: 'no popover here' },
  }
}
