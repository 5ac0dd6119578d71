/**
 * The scripted "slightly undisciplined PM" of bench/pm-memory.ts: which memory files it keeps, the
 * tool calls it makes in one run given the files on disk, and the filler text it writes
 * (deterministic per seed).
 */
import { join } from 'node:path'
import { DEFAULT_MEMORY_BUDGETS } from '../../electron/pm/core/memory-budget.ts'
import type { ToolCall } from '../../tests/support/scripted-api.ts'

export type FileKey = 'shortTerm' | 'longTerm' | 'apollo' | 'zephyr'
export const FILES: { key: FileKey; rel: string; budget: number }[] = [
  { key: 'shortTerm', rel: 'short-term.md', budget: DEFAULT_MEMORY_BUDGETS.shortTerm },
  { key: 'longTerm', rel: 'long-term.md', budget: DEFAULT_MEMORY_BUDGETS.longTerm },
  { key: 'apollo', rel: 'projects/apollo.md', budget: DEFAULT_MEMORY_BUDGETS.project },
  { key: 'zephyr', rel: 'projects/zephyr.md', budget: DEFAULT_MEMORY_BUDGETS.project },
]

/** Runs on which the model writes a project file: apollo every 2nd run, zephyr every 5th. */
const PROJECT_EVERY: Partial<Record<FileKey, number>> = { apollo: 2, zephyr: 5 }

/** The model's writes for one run, given the files as they are on disk before it. */
export function planRun(
  run: number,
  memoryDir: string,
  before: Record<FileKey, string | null>,
  rand: () => number,
) {
  const path = (rel: string) => join(memoryDir, rel)
  const reads: ToolCall[] = []
  const writes: ToolCall[] = []
  const written: Partial<Record<FileKey, string>> = {}

  // Short-term: the new state on top (as told), but everything it had kept below.
  const prevShort = before.shortTerm ?? '# Short-Term Memory\n'
  const [title = '# Short-Term Memory', ...rest] = prevShort.replace(/\n$/, '').split('\n')
  const block = memoryNotes(rand, 600, `## Run ${run}: current state`)
  written.shortTerm = `${title}\n\n${block}\n${rest.join('\n').replace(/^\n+/, '\n')}\n`
  reads.push({ name: 'Read', input: { file_path: path('short-term.md') } })
  writes.push({
    name: 'Write',
    input: { file_path: path('short-term.md'), content: written.shortTerm },
  })

  // Long-term: ~100 tokens appended, by Edit on even runs (anchored on the unique last line).
  const prevLong = before.longTerm ?? '# Long-Term Memory\n'
  const entry = memoryNotes(rand, 400, `### Observation ${run}`, `(observed in run ${run})`)
  written.longTerm = `${prevLong.replace(/\n*$/, '')}\n\n${entry}\n`
  reads.push({ name: 'Read', input: { file_path: path('long-term.md') } })
  const lastLine = prevLong.trimEnd().split('\n').at(-1) ?? ''
  const anchorUnique = lastLine !== '' && prevLong.split(lastLine).length === 2
  if (run % 2 === 0 && anchorUnique && prevLong.endsWith(`${lastLine}\n`)) {
    writes.push({
      name: 'Edit',
      input: {
        file_path: path('long-term.md'),
        old_string: lastLine,
        new_string: `${lastLine}\n\n${entry}`,
      },
    })
  } else {
    writes.push({
      name: 'Write',
      input: { file_path: path('long-term.md'), content: written.longTerm },
    })
  }

  // Projects: appended now and then; Read first when the file exists (the CLI requires it).
  for (const key of ['apollo', 'zephyr'] as const) {
    const every = PROJECT_EVERY[key] ?? 0
    if (run % every !== 0) continue
    const rel = `projects/${key}.md`
    const prev = before[key] ?? `# ${key}\n`
    const note = memoryNotes(rand, 480, `## Run ${run}`)
    written[key] = `${prev.replace(/\n*$/, '')}\n\n${note}\n`
    if (before[key] !== null) reads.push({ name: 'Read', input: { file_path: path(rel) } })
    writes.push({ name: 'Write', input: { file_path: path(rel), content: written[key] } })
  }
  return { reads, writes, written }
}

export const briefing = (run: number) => ({
  briefing: `Run ${run}: two projects moving, nothing blocked.`,
  projects: [{ name: 'apollo', status: 'active', summary: `run ${run}` }],
  attention_items: [],
  breadcrumbs: [],
})

const WORDS = [
  'resolver',
  'branch',
  'tests',
  'flaky',
  'migration',
  'review',
  'merged',
  'blocked',
  'deploy',
  'schema',
  'retry',
  'cache',
  'session',
  'commit',
  'refactor',
  'parser',
  'timeout',
  'config',
  'agent',
  'waiting',
  'approval',
  'coverage',
  'release',
  'hotfix',
  'index',
  'watcher',
  'budget',
  'the',
  'a',
  'on',
  'after',
  'before',
  'still',
  'needs',
  'landed',
  'opened',
  'closed',
  'for',
]

/**
 * A heading, then bullet lines of about 90 bytes, until the text is about `bytes` long (heading
 * included). `lastSuffix` ends the last line, e.g. to make it unique.
 */
export function memoryNotes(
  rand: () => number,
  bytes: number,
  heading: string,
  lastSuffix = '',
): string {
  const lines = [heading]
  let size = heading.length + 1
  while (size < bytes) {
    const words: string[] = []
    let length = 2
    while (length < 88) {
      const word = WORDS[Math.floor(rand() * WORDS.length)] ?? 'note'
      words.push(word)
      length += word.length + 1
    }
    const line = `- ${words.join(' ')}.`
    lines.push(line)
    size += line.length + 1
  }
  if (lastSuffix !== '') lines[lines.length - 1] += ` ${lastSuffix}`
  return lines.join('\n')
}
