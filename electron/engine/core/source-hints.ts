/**
 * What the next cycle must re-read: everything, or only what the watchers told of (the files they named,
 * and the small sources whose folder changed). With none of it, a cycle reads nothing and only looks at
 * the time again (statuses that change with quiet, windows that close). Pure.
 */
export interface SourceHints {
  full: boolean
  transcripts: Set<string>
  rollouts: Set<string>
  taskLists: Set<string>
  /** Claude's live-session files (or a watched process ended). */
  live: boolean
  /** The hook inbox or the handler's spool. */
  hooks: boolean
  /** config.yaml or settings.json. */
  config: boolean
}

export const fullScan = (): SourceHints => ({
  full: true,
  transcripts: new Set(),
  rollouts: new Set(),
  taskLists: new Set(),
  live: true,
  hooks: true,
  config: true,
})

export const noHints = (): SourceHints => ({
  ...fullScan(),
  full: false,
  live: false,
  hooks: false,
  config: false,
})

/** Both hints' files in one; full when either is. */
export function mergeHints(a: SourceHints, b: SourceHints): SourceHints {
  return {
    full: a.full || b.full,
    transcripts: new Set([...a.transcripts, ...b.transcripts]),
    rollouts: new Set([...a.rollouts, ...b.rollouts]),
    taskLists: new Set([...a.taskLists, ...b.taskLists]),
    live: a.live || b.live,
    hooks: a.hooks || b.hooks,
    config: a.config || b.config,
  }
}
