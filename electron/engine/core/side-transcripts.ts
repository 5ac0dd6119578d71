/**
 * Which transcript files make up one Claude session. Pure.
 *
 * - Main transcripts are `projects/<enc>/<session>.jsonl`. Two project folders can hold the same
 *   `<session>.jsonl` (a copied or synced config dir): both are kept, the most recently active under the
 *   session id and the others under `<id>@<folder>`, and the duplicates are reported.
 * - Sub-agents write their own files, in two layouts: 2.0.x `projects/<enc>/agent-<id>.jsonl`, whose lines
 *   name the parent in `sessionId`, and 2.1.x `projects/<enc>/<session>/subagents/agent-<id>.jsonl`.
 *   Compaction runs write `agent-acompact-<id>.jsonl` there (2.1.x): spend of the main thread, not a
 *   sub-agent. 1.0.x kept sub-agent lines in the main file (`isSidechain`), where the fold counts them.
 * Their spend belongs to the parent session, even when its main file is empty or missing (a session that
 * only warmed up, a main file not copied): that session is still accounted, with the sub-agents' cwd.
 */
import { basename, dirname } from 'node:path'
import type { TokenUsage } from '../../../shared/schemas/session.ts'
import type { TranscriptSummary } from './source-records.ts'
import { summarizeTokens } from './usage-tally.ts'
import { emptyTokenUsage } from './usage-tally.ts'
import { isoMs } from './iso-ms.ts'
import { newestFirst } from './transcript-order.ts'

export interface SideTranscript {
  /** The session it belongs to, from its folder (2.1.x) or its lines' `sessionId` (2.0.x). */
  parentSessionId: string
  kind: 'subagent' | 'compaction'
  summary: TranscriptSummary
}

export interface SideSpend {
  /** Sub-agents and compaction runs together. */
  total: TokenUsage
  /** Sub-agents only. */
  subagents: TokenUsage
  subagentFiles: number
  /** The cwd the side files name, for a session whose main file names none. */
  cwd: string | null
  /** The earliest and latest times of the side files' lines (a sub-agent can work while the main is quiet). */
  firstActivity: string | null
  lastActivity: string | null
}

/** `agent-<id>.jsonl` → its kind; null for any other name. */
export function sideTranscriptKind(fileName: string): SideTranscript['kind'] | null {
  if (!fileName.startsWith('agent-') || !fileName.endsWith('.jsonl')) return null
  return fileName.startsWith('agent-acompact') ? 'compaction' : 'subagent'
}

export function sideSpendByParent(files: readonly SideTranscript[]): Map<string, SideSpend> {
  const byParent = new Map<string, SideSpend>()
  for (const file of files) {
    let spend = byParent.get(file.parentSessionId)
    if (!spend) {
      spend = {
        total: emptyTokenUsage(),
        subagents: emptyTokenUsage(),
        subagentFiles: 0,
        cwd: null,
        firstActivity: null,
        lastActivity: null,
      }
      byParent.set(file.parentSessionId, spend)
    }
    const { firstActivity, lastActivity } = file.summary
    if (firstActivity && (!spend.firstActivity || ms(firstActivity) < ms(spend.firstActivity))) {
      spend.firstActivity = firstActivity
    }
    if (lastActivity && (!spend.lastActivity || ms(lastActivity) > ms(spend.lastActivity))) {
      spend.lastActivity = lastActivity
    }
    const tokens = summarizeTokens(file.summary)
    add(spend.total, tokens)
    if (file.kind === 'subagent') {
      add(spend.subagents, tokens)
      spend.subagentFiles++
    }
    spend.cwd ??= file.summary.sidechainCwd ?? file.summary.cwd
  }
  return byParent
}

const ms = (iso: string): number => isoMs(iso) || 0

function add(sum: TokenUsage, more: TokenUsage): void {
  sum.input += more.input
  sum.output += more.output
  sum.cache_read += more.cache_read
  sum.cache_creation += more.cache_creation
  sum.total = sum.input + sum.output + sum.cache_read + sum.cache_creation
}

/** The last answer of mainTranscriptsById, and the order it was made from. */
let lastById: {
  sorted: readonly TranscriptSummary[]
  byId: ReadonlyMap<string, TranscriptSummary>
} | null = null

/**
 * Main transcripts by session id, newest first (transcript-order.ts); a duplicated id keeps the most
 * recently active under the plain id. The same map as the call before while the order is the same.
 */
export function mainTranscriptsById(
  transcripts: readonly TranscriptSummary[],
): ReadonlyMap<string, TranscriptSummary> {
  const sorted = newestFirst(transcripts)
  if (lastById?.sorted === sorted) return lastById.byId
  const byId = new Map<string, TranscriptSummary>()
  for (const t of sorted) {
    const key = byId.has(t.sessionId) ? `${t.sessionId}@${basename(dirname(t.path))}` : t.sessionId
    byId.set(key, t)
  }
  lastById = { sorted, byId }
  return byId
}

/**
 * `<id>: <path>, <path>` for each session id held by more than one main transcript, in the order the ids
 * first come. Run every cycle over every transcript: a list is made only for an id seen twice.
 */
export function duplicateTranscriptNotes(transcripts: readonly TranscriptSummary[]): string[] {
  const firstPath = new Map<string, string>()
  let repeated: Map<string, string[]> | null = null
  for (const t of transcripts) {
    const first = firstPath.get(t.sessionId)
    if (first === undefined) {
      firstPath.set(t.sessionId, t.path)
      continue
    }
    repeated ??= new Map()
    const list = repeated.get(t.sessionId)
    if (list) list.push(t.path)
    else repeated.set(t.sessionId, [first, t.path])
  }
  if (repeated === null) return []
  const notes: string[] = []
  for (const id of firstPath.keys()) {
    const list = repeated.get(id)
    if (list) notes.push(`session ${id} has ${String(list.length)} transcripts: ${list.join(', ')}`)
  }
  return notes
}
