/**
 * What the engine offers its hosts (the Electron main process, the CLI, `navi serve`): how it is made,
 * what it answers, what it tells its listeners. Made by `createEngine` (index.ts).
 */
import type { EngineState } from '../../shared/schemas/state.ts'
import type { EngineEvent } from '../../shared/schemas/event.ts'
import type { EventQuery } from './event-listing.ts'
import type { EnginePaths } from './core/paths.ts'
import type { CycleDiagnostics, SessionWithProject } from './cycle.ts'
import type { SessionSources } from './sources.ts'

export interface EngineOptions {
  paths: EnginePaths
  /** Milliseconds since the epoch; injected by tests. @default Date.now */
  clock?: () => number
  /** Watch files and repositories between polls. @default true */
  watch?: boolean
  /** How soon after a file change a cycle runs. @default 100 */
  debounceMs?: number
  /**
   * Least time between the starts of two watcher-triggered cycles: an agent writing its transcript many
   * times a second costs a few cycles a second, while an isolated change still waits only `debounceMs`.
   * @default 400
   */
  minCycleIntervalMs?: number
  /** How often the pids of live sessions are re-checked (a `kill -9` leaves no file change). @default 2000 */
  livenessIntervalMs?: number
  /**
   * First wait before a cycle runs again when what it derived could not be made durable (event log or
   * snapshots not writable); doubled each time up to 10 s (or the poll interval). @default 1000
   */
  retryMs?: number
  /**
   * Told of every failure the engine survives: a cycle that threw, a listener that threw. The same text is
   * also in `getState().errors` while it lasts. @default writes one line to stderr
   */
  onError?: (message: string) => void
  /** Where sessions come from. @default the Claude Code and Codex files under `paths` */
  sources?: SessionSources
}

export type EngineListener = (events: EngineEvent[], state: EngineState) => void

export interface Engine {
  /** First cycle, then watchers and the poll timer. */
  start(): Promise<EngineState>
  /** Stops timers and watchers and waits for a running cycle to finish writing. */
  stop(): Promise<void>
  /**
   * Runs one cycle now over every source; `force` also re-reads every repository with git. `watched`
   * (a running engine, not forced): the cycle reads what the watchers told, their debounce cut short
   * (a repository whose watcher's debounce runs is looked at); everything only when the watchers cannot
   * be trusted. What changed before the call (and was seen by a watcher by then) is in its answer, at
   * the cost of a watcher's cycle rather than a full look.
   */
  refresh(opts?: { force?: boolean; watched?: boolean }): Promise<EngineState>
  getState(): EngineState
  /** Every session of the last cycle, ended ones included, with its project's name. */
  getSessions(): SessionWithProject[]
  subscribe(listener: EngineListener): () => void
  /**
   * The log's events, newest first (since `sinceMs` ago, of one project). Without a query, the same
   * array for as long as the log is unchanged (pages of a day of events sort it once): never changed by
   * its callers.
   */
  listEvents(query: EventQuery): Promise<readonly EngineEvent[]>
  /** Events from outside the watch (delegated tasks): logged, then heard by every listener. */
  record(events: readonly EngineEvent[]): Promise<void>
  diagnostics(): CycleDiagnostics
}
