import { existsSync, readdirSync, type Dirent } from 'node:fs'
import { basename, join, relative, sep } from 'node:path'
import { naviFiles, type EnginePaths } from '../core/paths.ts'
import type { TranscriptSummary } from '../core/source-records.ts'
import {
  TRANSCRIPT_SUMMARY_VERSION,
  decodeTranscriptSummary,
  reviveTranscriptSummary,
  encodeTranscriptSummary,
} from '../core/summary-codec.ts'
import { sideTranscriptKind, type SideTranscript } from '../core/side-transcripts.ts'
import { createJsonlFileSet, type JsonlFileSetUpdate } from './jsonl-file-set.ts'
import { readRegularText, isMissingFileError } from './safe-read.ts'
import { claudeTranscriptFolder } from './transcript-folder.ts'

export { isBulkyTranscriptLine } from './transcript-folder.ts'

export interface TranscriptScanResult {
  /** One summary per main transcript; the objects are updated in place by later scans. */
  summaries: TranscriptSummary[]
  /** Sub-agent and compaction transcripts, with the session each belongs to. */
  sideTranscripts: SideTranscript[]
  /** `<path>: <message>` for each file or folder that could not be read. */
  errors: string[]
  /** What went wrong and was worked around, for `navi doctor` (jsonl-file-set.ts). */
  notes: string[]
  /** Corrupt lines met during this scan. */
  corruptLines: number
  /** Bytes of transcript read during this scan (0 when nothing changed). */
  bytesRead: number
  /** Transcripts (main and side) this scan read: their summaries changed in place. */
  readPaths: Set<string>
  /**
   * Sessions whose side transcripts this scan read or whose sub-agent folder it listed: what they spent
   * or started may have changed (claude-session-memo.ts assembles them again).
   */
  readSessionIds: Set<string>
}

export interface ClaudeTranscriptSource {
  /**
   * Lists and refreshes every transcript; with `changed` (paths a watcher reported under
   * `projects/`), refreshes only those and the sub-agent folders they belong to.
   */
  scan(opts?: { changed?: readonly string[] }): Promise<TranscriptScanResult>
  /** Persists offsets and summaries for the next process, if anything changed. Never rejects. */
  flush(): Promise<void>
}

export interface TranscriptSourceOptions {
  /**
   * Index that lets a new process resume every transcript where the last one stopped reading.
   * @default `$NAVI_HOME/cache/claude-transcripts.json`; null persists nothing.
   */
  cacheFile?: string | null
  /**
   * New transcripts are folded on worker threads when at least this much of them is to be read (a cold
   * index): below it, starting the workers costs more than they save. @default 32 MiB
   */
  parallelMinBytes?: number
  /** Fold workers in processes of their own (an engine that runs on: fold-pool.ts). @default false */
  foldInProcesses?: boolean
}

const PARALLEL_MIN_BYTES = 32 * 1024 * 1024

const AGENT_FILE = /^agent-(.+)\.jsonl$/
/** Where a transcript file sits in `projects/`: a main file, or a side file and its session. */
type FileRole = { kind: 'main' } | { kind: SideTranscript['kind']; parentFromDir: string | null }

function roleOf(relativeParts: readonly string[]): FileRole | null {
  const name = relativeParts[relativeParts.length - 1] ?? ''
  if (!name.endsWith('.jsonl')) return null
  const side = sideTranscriptKind(name)
  // `<enc>/<session>.jsonl` or 2.0.x `<enc>/agent-<id>.jsonl` (its lines name the parent session).
  if (relativeParts.length === 2)
    return side ? { kind: side, parentFromDir: null } : { kind: 'main' }
  // 2.1.x `<enc>/<session>/subagents/agent-<id>.jsonl`.
  if (relativeParts.length === 4 && relativeParts[2] === 'subagents' && side) {
    return { kind: side, parentFromDir: relativeParts[1] ?? null }
  }
  return null
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * A folder's entries, or none when it is missing. Synchronous: a listing from the cache takes
 * microseconds, and a full scan lists every project folder one after the other (80 folders through the
 * thread pool were a tenth of a `navi status`). A folder that may well be missing (`mayBeMissing`) is
 * asked about first, without the cost of an exception (every session folder is looked at for a
 * `subagents/` that few have); one a listing just named is listed at once.
 */
function listDir(path: string, errors: string[], mayBeMissing = true): Dirent[] {
  if (mayBeMissing && !existsSync(path)) return []
  try {
    return readdirSync(path, { withFileTypes: true })
  } catch (error) {
    if (!isMissingFileError(error)) errors.push(`${path}: ${describe(error)}`)
    return []
  }
}

/** The Agent tool_use id a sub-agent file belongs to, from `agent-<id>.meta.json`. */
async function readAgentToolUseId(metaPath: string): Promise<string | null> {
  try {
    const meta: unknown = JSON.parse(await readRegularText(metaPath, { maxBytes: 64 * 1024 }))
    if (typeof meta !== 'object' || meta === null || !('toolUseId' in meta)) return null
    return typeof meta.toolUseId === 'string' ? meta.toolUseId : null
  } catch {
    // Not written yet (or unreadable): the next scan tries again.
    return null
  }
}

/**
 * Watches `$CLAUDE_CONFIG_DIR/projects/<enc>/<session>.jsonl`, folding only appended lines on each
 * scan. Sub-agent transcripts (`<session>/subagents/agent-<id>.jsonl`) are not folded; their agent
 * ids are added to the parent's `subagentIds` (replacing the Agent tool_use id they started from).
 */
export function createClaudeTranscriptSource(
  paths: EnginePaths,
  options: TranscriptSourceOptions = {},
): ClaudeTranscriptSource {
  const projectsDir = naviFiles(paths).claudeProjects
  const cacheFile =
    options.cacheFile === undefined
      ? join(naviFiles(paths).cacheDir, 'claude-transcripts.json')
      : options.cacheFile
  const codec = {
    version: TRANSCRIPT_SUMMARY_VERSION,
    encode: encodeTranscriptSummary,
    decode: decodeTranscriptSummary,
    revive: reviveTranscriptSummary,
  }
  const files = createJsonlFileSet<TranscriptSummary>(claudeTranscriptFolder, {
    cache: cacheFile === null ? null : { file: cacheFile, codec },
    parallel: {
      folder: 'claude-transcript',
      minBytes: options.parallelMinBytes ?? PARALLEL_MIN_BYTES,
      processes: options.foldInProcesses ?? false,
    },
  })
  /** transcript path → agent id → tool_use id (null while its meta file is missing). */
  const subagents = new Map<string, Map<string, string | null>>()
  /** Role of every file in the set, by path. */
  const roles = new Map<string, FileRole>()
  /** The role of `path`, from its parts under `projects/` when the caller has them (a full scan does). */
  const roleFor = (
    path: string,
    parts: readonly string[] = relative(projectsDir, path).split(sep),
  ): FileRole | null => {
    const role = roleOf(parts)
    if (role) roles.set(path, role)
    return role
  }

  /** Lists a session folder's sub-agent files; returns their paths (compaction runs included). */
  const scanSubagents = async (transcript: string, sessionDir: string, errors: string[]) => {
    // Joined by hand, as the scan joins (see `under`): a normal folder and a plain name.
    const dir = `${sessionDir}${sep}subagents`
    const known = subagents.get(transcript) ?? new Map<string, string | null>()
    const seen = new Map<string, string | null>()
    const files: string[] = []
    for (const entry of listDir(dir, errors)) {
      const match = entry.isFile() ? AGENT_FILE.exec(entry.name) : null
      if (!match?.[1]) continue
      files.push(`${dir}${sep}${entry.name}`)
      if (sideTranscriptKind(entry.name) !== 'subagent') continue
      const agentId = match[1]
      // A meta file not written yet (or unreadable) is tried again on the next scan.
      const toolUseId =
        known.get(agentId) ?? (await readAgentToolUseId(join(dir, `agent-${agentId}.meta.json`)))
      seen.set(agentId, toolUseId)
    }
    if (seen.size > 0) subagents.set(transcript, seen)
    else subagents.delete(transcript)
    return files
  }

  const mergeSubagentIds = () => {
    for (const [transcript, agents] of subagents) {
      const summary = files.get(transcript)
      if (!summary) continue
      let edited = false
      for (const [agentId, toolUseId] of agents) {
        if (toolUseId !== null) edited = summary.subagentIds.delete(toolUseId) || edited
        if (!summary.subagentIds.has(agentId)) {
          summary.subagentIds.add(agentId)
          edited = true
        }
      }
      if (edited) files.edited(transcript)
    }
  }

  const scanChanged = async (changed: readonly string[]): Promise<TranscriptScanResult> => {
    const errors: string[] = []
    const touched: string[] = []
    const sessionDirs = new Map<string, string>()
    for (const path of changed) {
      const parts = relative(projectsDir, path).split(sep)
      if (parts[0] === '..' || parts.length < 2 || !parts[0] || !parts[1]) continue
      if (roleFor(path, parts)) touched.push(path)
      if (parts.length > 2) {
        const session = join(projectsDir, parts[0], parts[1])
        sessionDirs.set(`${session}.jsonl`, session)
      }
    }
    for (const [transcript, dir] of sessionDirs) await scanSubagents(transcript, dir, errors)
    const listed = [...sessionDirs.values()].map((dir) => basename(dir))
    return finish(await files.touch(touched), errors, listed)
  }

  const finish = (
    update: JsonlFileSetUpdate,
    errors: string[],
    listedSessions: readonly string[] = [],
  ): TranscriptScanResult => {
    mergeSubagentIds()
    const summaries: TranscriptSummary[] = []
    const sideTranscripts: SideTranscript[] = []
    const readPaths = new Set(update.changed)
    const readSessionIds = new Set(listedSessions)
    for (const summary of files.summaries()) {
      const role = roles.get(summary.path)
      if (!role || role.kind === 'main') {
        summaries.push(summary)
        continue
      }
      const parentSessionId = role.parentFromDir ?? summary.ownerSessionId
      if (!parentSessionId) continue
      sideTranscripts.push({ parentSessionId, kind: role.kind, summary })
      if (readPaths.has(summary.path)) readSessionIds.add(parentSessionId)
    }
    return {
      summaries,
      sideTranscripts,
      errors: [...errors, ...update.errors],
      notes: update.notes,
      corruptLines: update.corruptLines,
      bytesRead: update.bytesRead,
      readPaths,
      readSessionIds,
    }
  }

  return {
    async scan(opts = {}) {
      if (opts.changed) return scanChanged(opts.changed)
      const errors: string[] = []
      const paths: string[] = []
      const sessionDirs = new Map<string, string>()
      // Joined by hand: both sides are already normal (a listed name holds no separator). path.join
      // normalising each of 600 paths took about 3 ms of a warm start over 500 sessions.
      const under = (dir: string, name: string) => `${dir}${sep}${name}`
      for (const project of listDir(projectsDir, errors)) {
        if (!project.isDirectory()) continue
        const projectDir = under(projectsDir, project.name)
        for (const entry of listDir(projectDir, errors, false)) {
          const path = under(projectDir, entry.name)
          if (entry.isFile() && roleFor(path, [project.name, entry.name])) paths.push(path)
          // A session folder, even one whose main file is gone: its sub-agents spent tokens.
          else if (entry.isDirectory()) sessionDirs.set(`${path}.jsonl`, path)
        }
      }
      for (const [transcript, dir] of sessionDirs) {
        for (const side of await scanSubagents(transcript, dir, errors)) {
          if (roleFor(side)) paths.push(side)
        }
      }
      const update = await files.update(paths)
      for (const transcript of subagents.keys()) {
        if (!sessionDirs.has(transcript)) subagents.delete(transcript)
      }
      for (const path of roles.keys()) if (!files.get(path)) roles.delete(path)
      return finish(update, errors)
    },
    flush: () => files.flush(),
  }
}
