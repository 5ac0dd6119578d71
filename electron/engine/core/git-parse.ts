import * as z from 'zod'
import type { Commit, GitState, Worktree } from '../../../shared/schemas/project.ts'
import { parseJsonAs } from './parse-json.ts'
import { lazySchema } from '../../../shared/schemas/lazy-schema.ts'

/** Pull-request state of a branch as `gh` reports it. */
export type PrState = GitState['pr']

/**
 * Pure parsers for the git porcelain outputs the git adapter asks for: text in, typed value out.
 * Every command is run with NUL-terminated output where git offers it, so untrusted text (commit
 * subjects, author names, paths) can hold tabs, quotes or newlines without breaking the records.
 */

/** Separates the fields of one `git log` record; records themselves end in NUL (`-z`). */
export const LOG_FIELD_SEPARATOR = '\x1f'

/**
 * `git log -z --format=…` fields: sha, the command-line rev that reached the commit (`%S`),
 * author name, committer date (strict ISO), subject. The subject goes last so a stray separator
 * inside it is joined back rather than shifting the other fields.
 */
export const LOG_FORMAT = ['%H', '%S', '%an', '%cI', '%s'].join('%x1f')

/** `git for-each-ref --format=…`: refnames cannot contain spaces or control characters. */
export const BRANCH_HEADS_FORMAT = '%(objectname) %(refname)'

export interface LogRecord {
  sha: string
  /** The rev given on the command line through which git reached this commit (`%S`). */
  source: string
  author: string
  timestamp: string
  subject: string
}

export interface StatusSummary {
  /** null in a repository without commits (`(initial)`). */
  headSha: string | null
  /** null when HEAD is detached. */
  branch: string | null
  detached: boolean
  upstream: string | null
  /** null when there is no upstream or it is gone. */
  ahead: number | null
  behind: number | null
  /** Changed, unmerged and untracked entries (ignored files are not listed). */
  changedEntries: number
}

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

/** A full SHA-1 or SHA-256 object id: anything else (e.g. `-x` from a corrupt snapshot) is refused. */
export function isObjectId(value: string): boolean {
  return OBJECT_ID.test(value)
}

/** Parses `git log -z --format=LOG_FORMAT`; malformed records are skipped. */
export function parseLogRecords(text: string): LogRecord[] {
  const records: LogRecord[] = []
  for (const raw of text.split('\0')) {
    const record = raw.startsWith('\n') ? raw.slice(1) : raw
    if (record === '') continue
    const [sha, source, author, timestamp, ...subjectParts] = record.split(LOG_FIELD_SEPARATOR)
    if (sha === undefined || !isObjectId(sha) || subjectParts.length === 0) continue
    records.push({
      sha,
      source: source ?? '',
      author: author ?? '',
      timestamp: timestamp ?? '',
      subject: subjectParts.join(LOG_FIELD_SEPARATOR),
    })
  }
  return records
}

/** Parses `git for-each-ref --format=BRANCH_HEADS_FORMAT refs/heads` into branch → sha. */
export function parseBranchHeads(text: string): Record<string, string> {
  const heads: Record<string, string> = {}
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ')
    if (space < 0) continue
    const sha = line.slice(0, space)
    const ref = line.slice(space + 1).trimEnd()
    if (!isObjectId(sha) || !ref.startsWith('refs/heads/')) continue
    heads[ref.slice('refs/heads/'.length)] = sha
  }
  return heads
}

/**
 * Parses `git worktree list --porcelain` (NUL-separated with `-z`, newline-separated without).
 * The main worktree comes first; bare entries are skipped (they have no work tree).
 */
export function parseWorktreeList(text: string): Worktree[] {
  const separator = text.includes('\0') ? '\0' : '\n'
  const worktrees: Worktree[] = []
  let current: (Worktree & { bare: boolean }) | null = null
  const flush = () => {
    if (current && !current.bare) {
      worktrees.push({ path: current.path, branch: current.branch, head_sha: current.head_sha })
    }
    current = null
  }
  for (const line of text.split(separator)) {
    if (line === '') {
      flush()
      continue
    }
    const space = line.indexOf(' ')
    const key = space < 0 ? line : line.slice(0, space)
    const value = space < 0 ? '' : line.slice(space + 1)
    if (key === 'worktree') {
      flush()
      current = { path: value, branch: null, head_sha: null, bare: false }
    } else if (current && key === 'HEAD') {
      current.head_sha = isObjectId(value) ? value : null
    } else if (current && key === 'branch') {
      current.branch = value.startsWith('refs/heads/') ? value.slice('refs/heads/'.length) : value
    } else if (current && key === 'bare') {
      current.bare = true
    }
  }
  flush()
  return worktrees
}

/** Parses `git status --porcelain=v2 --branch -z`. */
export function parseStatusV2(text: string): StatusSummary {
  const summary: StatusSummary = {
    headSha: null,
    branch: null,
    detached: false,
    upstream: null,
    ahead: null,
    behind: null,
    changedEntries: 0,
  }
  const fields = text.split('\0')
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] ?? ''
    if (field.startsWith('# ')) {
      readBranchHeader(field.slice(2), summary)
    } else if (field.startsWith('2 ')) {
      // A rename/copy entry is followed by one more NUL-terminated field: the original path.
      summary.changedEntries++
      i++
    } else if (/^[1u?] /.test(field)) {
      summary.changedEntries++
    }
  }
  return summary
}

function readBranchHeader(header: string, summary: StatusSummary): void {
  const space = header.indexOf(' ')
  if (space < 0) return
  const key = header.slice(0, space)
  const value = header.slice(space + 1)
  if (key === 'branch.oid') {
    summary.headSha = isObjectId(value) ? value : null
  } else if (key === 'branch.head') {
    summary.detached = value === '(detached)'
    summary.branch = summary.detached ? null : value
  } else if (key === 'branch.upstream') {
    summary.upstream = value
  } else if (key === 'branch.ab') {
    const match = /^\+(\d+) -(\d+)$/.exec(value)
    if (match) {
      summary.ahead = Number(match[1])
      summary.behind = Number(match[2])
    }
  }
}

/** The revs of `git log <include> --not <exclude>`, or null when nothing can be new. */
export interface NewCommitsQuery {
  include: string[]
  exclude: string[]
}

/**
 * Which heads to walk for commits that are new since `prevHeads`: only the tips that were not
 * already a previous tip (an unchanged tip adds nothing), excluding every previous tip. null on
 * first sight (no previous heads) or when no tip changed, so no git process is needed.
 */
export function planNewCommitsQuery(
  heads: Record<string, string>,
  prevHeads: Record<string, string> | null,
): NewCommitsQuery | null {
  if (prevHeads === null) return null
  const exclude = unique(Object.values(prevHeads).filter(isObjectId))
  const previous = new Set(exclude)
  const include = unique(
    Object.values(heads).filter((sha) => isObjectId(sha) && !previous.has(sha)),
  )
  return include.length === 0 ? null : { include, exclude }
}

/**
 * The branch to credit for a commit that git reached from the tip `sourceSha`: the current branch
 * when it points there, otherwise the first branch (in ref order) with that tip.
 */
export function branchForTip(
  sourceSha: string,
  heads: Record<string, string>,
  currentBranch: string | null,
): string | null {
  if (currentBranch !== null && heads[currentBranch] === sourceSha) return currentBranch
  for (const [branch, sha] of Object.entries(heads)) if (sha === sourceSha) return branch
  return null
}

/** Turns log records into commits, crediting each to a branch by `branchOf(record)`. */
export function toCommits(
  records: LogRecord[],
  branchOf: (record: LogRecord) => string | null,
): Commit[] {
  return records.map((record) => ({
    sha: record.sha,
    subject: record.subject,
    branch: branchOf(record),
    author: record.author,
    timestamp: record.timestamp,
  }))
}

function unique(values: string[]): string[] {
  return [...new Set(values)]
}

const ghPrViewSchema = lazySchema(() =>
  z.object({
    state: z.string(),
    number: z.number().int().optional(),
    url: z.string().optional(),
  }),
)

/**
 * Interprets `gh pr view <branch> --json state,number,url`. Exit 0 with a known state is the PR;
 * "no pull requests found" is `none`; anything else (not authenticated, no GitHub remote, garbage
 * output) is `unknown`, never an error.
 */
export function parseGhPrView(
  exitCode: number | undefined,
  stdout: string,
  stderr: string,
): PrState {
  if (exitCode !== 0) {
    return /no (open )?pull requests? found/i.test(stderr)
      ? { state: 'none' }
      : { state: 'unknown' }
  }
  const view = parseJsonAs(ghPrViewSchema, stdout)
  if (!view) return { state: 'unknown' }
  const state = view.state.toLowerCase()
  if (state !== 'open' && state !== 'merged' && state !== 'closed') return { state: 'unknown' }
  return {
    state,
    ...(view.number !== undefined && { number: view.number }),
    ...(view.url !== undefined && { url: view.url }),
  }
}
