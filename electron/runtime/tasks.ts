/**
 * The task service (electron/tasks/) as the faces get it: its settings and projects read from Navi's
 * configuration and state, `claude` found as the PM finds it, and the task's session opted in to Navi's
 * answers, so its permission requests are held for the user like any session's (while a Navi listens).
 */
import type { NaviConfig } from '../../shared/schemas/config.ts'
import type { EngineState } from '../../shared/schemas/state.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { Task } from '../../shared/schemas/task.ts'
import { answersDir, setOptIn } from '../engine/adapters/answers-dir.ts'
import type { EnginePaths } from '../engine/core/paths.ts'
import { CLAUDE_INSTALL_HINT, findClaude } from '../pm/find-claude.ts'
import { createTaskService, type TaskService } from '../tasks/index.ts'
import type { KnownProject } from '../tasks/core/resolve-directory.ts'
import type { NaviLogger } from './logger.ts'
import { findOnPath } from './tools.ts'

export type { TaskService, StartResult, ActResult } from '../tasks/index.ts'

export const CODEX_INSTALL_HINT =
  'Codex CLI not found. Install it with `npm install -g @openai/codex`, or set NAVI_CODEX_BIN.'

export { findTask } from '../tasks/task-store.ts'

export interface TaskServiceOptions {
  paths: EnginePaths
  config: () => NaviConfig
  /** The engine's projects; null before the first cycle (the config's projects are used alone). */
  state: () => EngineState | null
  env: Readonly<Record<string, string | undefined>>
  logger: NaviLogger
  notify: (task: Task, title: string, body: string) => void
  onChange?: (task: Task) => void
  /** A long-running host (tray, `navi serve`): takes over tasks queued by a Navi that is gone. */
  adoptQueued?: boolean
  /** Where the task's events are logged (the engine's event log). */
  record?: (events: EngineEvent[]) => Promise<void>
  clock?: () => number
  /** @default 15 s */
  heartbeatCheckMs?: number
}

export function createNaviTaskService(opts: TaskServiceOptions): TaskService {
  const log = opts.logger.scope('tasks')
  return createTaskService({
    paths: opts.paths,
    settings: () => opts.config().tasks,
    projects: () => knownProjects(opts.config(), opts.state()),
    env: opts.env,
    claudeBin: async () => {
      const found = await findClaude({ env: opts.env, setting: opts.config().pm.claudePath })
      if (!found.found) throw new Error(found.hint || CLAUDE_INSTALL_HINT)
      return found.path
    },
    // `codex` on PATH (the npm package's launcher), or the one NAVI_CODEX_BIN names; a missing one fails
    // the task with how to install it.
    codexBin: async () => {
      const explicit = opts.env.NAVI_CODEX_BIN
      if (explicit) return explicit
      const found = await findOnPath('codex', opts.env.PATH ?? '')
      if (!found) throw new Error(CODEX_INSTALL_HINT)
      return found
    },
    holdRequests: (sessionId) =>
      setOptIn(answersDir(opts.paths.naviHome), sessionId, opts.config().answering.waitSeconds),
    notify: opts.notify,
    ...(opts.onChange ? { onChange: opts.onChange } : {}),
    ...(opts.record ? { record: opts.record } : {}),
    adoptQueued: opts.adoptQueued ?? false,
    log,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.heartbeatCheckMs ? { heartbeatCheckMs: opts.heartbeatCheckMs } : {}),
  })
}

/** Navi's projects by name (the engine's, which include the registered ones), with config aliases. */
export function knownProjects(config: NaviConfig, state: EngineState | null): KnownProject[] {
  const aliasesOf = (dir: string) => config.projects.find((p) => p.path === dir)?.aliases ?? []
  const fromState = (state?.projects ?? []).map((p) => ({
    name: p.name,
    aliases: aliasesOf(p.project_dir),
    dir: p.project_dir,
  }))
  const seen = new Set(fromState.map((p) => p.dir))
  const registered = config.projects
    .filter((p) => !seen.has(p.path))
    .map((p) => ({
      name: p.name ?? p.path.split('/').pop() ?? p.path,
      aliases: p.aliases ?? [],
      dir: p.path,
    }))
  return [...fromState, ...registered]
}
