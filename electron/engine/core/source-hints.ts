/** What the next cycle must re-read: everything, or only the files the watchers named. Pure. */
export interface SourceHints {
  full: boolean
  transcripts: Set<string>
  rollouts: Set<string>
  taskLists: Set<string>
}

export const fullScan = (): SourceHints => ({
  full: true,
  transcripts: new Set(),
  rollouts: new Set(),
  taskLists: new Set(),
})

export const noHints = (): SourceHints => ({ ...fullScan(), full: false })

/** Both hints' files in one; full when either is. */
export function mergeHints(a: SourceHints, b: SourceHints): SourceHints {
  return {
    full: a.full || b.full,
    transcripts: new Set([...a.transcripts, ...b.transcripts]),
    rollouts: new Set([...a.rollouts, ...b.rollouts]),
    taskLists: new Set([...a.taskLists, ...b.taskLists]),
  }
}
