/**
 * Where a delegated task runs (seed 004 "Directory Resolution", on what Navi knows). Pure.
 *
 * 1. The user named it (`--project`, `--cwd`, the popover's picker): that, or an error when the name is
 *    no project's.
 * 2. Otherwise every keyword rule of `tasks.rules` and every project name or alias found in the text, as
 *    whole words (case-insensitive; "notification" never matches "note"), is a candidate with a priority:
 *    a rule's own (default 10), project names {@link PROJECT_NAME_PRIORITY} (so a rule with priority 1 or 2
 *    beats a project named in passing, as seed 004's notes and server rules do). The best priority wins
 *    when its candidates agree on one directory; when they disagree, the user is asked.
 * 3. Nothing found: `tasks.default` when set, else the user is asked. Never a silent guess.
 */

/** The rank of a project's name or alias found in a task's text. */
export const PROJECT_NAME_PRIORITY = 3
export const DEFAULT_RULE_PRIORITY = 10

export interface KnownProject {
  name: string
  /** Other names the user calls it by (config `aliases`). */
  aliases: readonly string[]
  dir: string
}

export interface DirectoryRule {
  keywords: readonly string[]
  dir: string
  /** Lower first. @default DEFAULT_RULE_PRIORITY */
  priority?: number
}

export interface ResolveInput {
  text: string
  /** The user's choice: a project's name or alias. */
  project?: string | undefined
  /** The user's choice: a directory (absolute). */
  cwd?: string | undefined
  projects: readonly KnownProject[]
  rules: readonly DirectoryRule[]
  /** `tasks.default`: where a task that names nothing runs; null: ask. */
  fallback: string | null
}

export interface Candidate {
  dir: string
  /** The project, when the directory is one. */
  project: string | null
  /** Why, in words: `"apollo" in the task`, `keyword "backlog"`. */
  why: string
  priority: number
}

export type Resolution =
  | { kind: 'resolved'; dir: string; project: string | null; why: string }
  | { kind: 'ambiguous'; candidates: Candidate[] }
  | { kind: 'none'; reason: string }

export function resolveTaskDirectory(input: ResolveInput): Resolution {
  const projectOf = (dir: string): string | null =>
    input.projects.find((p) => samePath(p.dir, dir))?.name ?? null
  if (input.cwd !== undefined) {
    return { kind: 'resolved', dir: input.cwd, project: projectOf(input.cwd), why: '--cwd' }
  }
  if (input.project !== undefined) {
    const wanted = input.project.trim().toLowerCase()
    const named = input.projects.filter((p) =>
      [p.name, ...p.aliases].some((n) => n.toLowerCase() === wanted),
    )
    const dirs = distinctDirs(named.map((p) => p.dir))
    if (dirs.length === 1 && named[0]) {
      return { kind: 'resolved', dir: named[0].dir, project: named[0].name, why: 'chosen' }
    }
    if (dirs.length > 1) {
      return {
        kind: 'ambiguous',
        candidates: named.map((p) => ({
          dir: p.dir,
          project: p.name,
          why: `named "${input.project ?? ''}"`,
          priority: 0,
        })),
      }
    }
    return { kind: 'none', reason: `no project is named "${input.project}"` }
  }

  const candidates: Candidate[] = []
  for (const p of input.projects) {
    const hit = [p.name, ...p.aliases].find((n) => containsWord(input.text, n))
    if (hit !== undefined) {
      candidates.push({
        dir: p.dir,
        project: p.name,
        why: `"${hit}" in the task`,
        priority: PROJECT_NAME_PRIORITY,
      })
    }
  }
  for (const rule of input.rules) {
    const hit = rule.keywords.find((k) => containsWord(input.text, k))
    if (hit !== undefined) {
      candidates.push({
        dir: rule.dir,
        project: projectOf(rule.dir),
        why: `keyword "${hit}"`,
        priority: rule.priority ?? DEFAULT_RULE_PRIORITY,
      })
    }
  }
  if (candidates.length === 0) {
    return input.fallback === null
      ? { kind: 'none', reason: 'the task names no project and matches no rule' }
      : {
          kind: 'resolved',
          dir: input.fallback,
          project: projectOf(input.fallback),
          why: 'tasks.default',
        }
  }
  const best = Math.min(...candidates.map((c) => c.priority))
  const top = candidates.filter((c) => c.priority === best)
  const first = top[0]
  if (first && distinctDirs(top.map((c) => c.dir)).length === 1) {
    return { kind: 'resolved', dir: first.dir, project: first.project, why: first.why }
  }
  return { kind: 'ambiguous', candidates: top }
}

/**
 * `word` in `text` as a whole word or phrase: case-insensitive, not inside a longer word (letters, digits,
 * `_` on either side break it). A phrase's spaces match any run of whitespace.
 */
export function containsWord(text: string, word: string): boolean {
  const trimmed = word.trim()
  if (trimmed === '') return false
  const pattern = trimmed
    .split(/\s+/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('\\s+')
  return new RegExp(`(?<![\\p{L}\\p{N}_])${pattern}(?![\\p{L}\\p{N}_])`, 'iu').test(text)
}

function samePath(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '')
}

function distinctDirs(dirs: readonly string[]): string[] {
  return [...new Set(dirs.map((d) => d.replace(/\/+$/, '')))]
}
