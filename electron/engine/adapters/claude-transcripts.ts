import { readdir } from 'node:fs/promises'
import { basename, join, relative, sep } from 'node:path'
import { naviFiles, type EnginePaths } from '../core/paths.ts'
import type { TranscriptSummary } from '../core/records.ts'
import {
  TRANSCRIPT_SUMMARY_VERSION,
  decodeTranscriptSummary,
  encodeTranscriptSummary,
} from '../core/summary-codec.ts'
import { emptyTranscriptSummary, foldTranscriptLine } from '../core/transcript-fold.ts'
import { createJsonlFileSet, type JsonlFileSetUpdate } from './jsonl-file-set.ts'
import { readRegularText } from './safe-read.ts'
import { latestPlausibleMs } from '../core/json-narrow.ts'

export interface TranscriptScanResult {
  /** One summary per `projects/*\/*.jsonl`; the objects are updated in place by later scans. */
  summaries: TranscriptSummary[]
  /** `<path>: <message>` for each file or folder that could not be read. */
  errors: string[]
  /** Corrupt lines met during this scan. */
  corruptLines: number
  /** Bytes of transcript read during this scan (0 when nothing changed). */
  bytesRead: number
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
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

async function listDir(path: string, errors: string[]) {
  try {
    return await readdir(path, { withFileTypes: true })
  } catch (error) {
    if (!isMissing(error)) errors.push(`${path}: ${describe(error)}`)
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
  }
  const files = createJsonlFileSet<TranscriptSummary>(
    {
      create: (path) => emptyTranscriptSummary(basename(path, '.jsonl'), path),
      // Times ahead of the clock by more than the allowed skew are bad values (json-narrow.ts).
      fold: (summary, line) => foldTranscriptLine(summary, line, latestPlausibleMs(Date.now())),
    },
    { cache: cacheFile === null ? null : { file: cacheFile, codec } },
  )
  /** transcript path → agent id → tool_use id (null while its meta file is missing). */
  const subagents = new Map<string, Map<string, string | null>>()

  const scanSubagents = async (transcript: string, sessionDir: string, errors: string[]) => {
    const dir = join(sessionDir, 'subagents')
    const known = subagents.get(transcript) ?? new Map<string, string | null>()
    const seen = new Map<string, string | null>()
    for (const entry of await listDir(dir, errors)) {
      const match = entry.isFile() ? AGENT_FILE.exec(entry.name) : null
      if (!match?.[1]) continue
      const agentId = match[1]
      // A meta file not written yet (or unreadable) is tried again on the next scan.
      const toolUseId =
        known.get(agentId) ?? (await readAgentToolUseId(join(dir, `agent-${agentId}.meta.json`)))
      seen.set(agentId, toolUseId)
    }
    if (seen.size > 0) subagents.set(transcript, seen)
    else subagents.delete(transcript)
  }

  const mergeSubagentIds = () => {
    for (const [transcript, agents] of subagents) {
      const summary = files.get(transcript)
      if (!summary) continue
      for (const [agentId, toolUseId] of agents) {
        if (toolUseId !== null) summary.subagentIds.delete(toolUseId)
        summary.subagentIds.add(agentId)
      }
    }
  }

  const scanChanged = async (changed: readonly string[]): Promise<TranscriptScanResult> => {
    const errors: string[] = []
    const transcripts: string[] = []
    const sessionDirs = new Map<string, string>()
    for (const path of changed) {
      const parts = relative(projectsDir, path).split(sep)
      if (parts[0] === '..' || parts.length < 2 || !parts[0] || !parts[1]) continue
      if (parts.length === 2 && parts[1].endsWith('.jsonl')) transcripts.push(path)
      else if (parts.length > 2) {
        const session = join(projectsDir, parts[0], parts[1])
        sessionDirs.set(`${session}.jsonl`, session)
      }
    }
    return finish(await files.touch(transcripts), sessionDirs, errors)
  }

  const finish = async (
    update: JsonlFileSetUpdate,
    sessionDirs: Map<string, string>,
    errors: string[],
  ): Promise<TranscriptScanResult> => {
    for (const [transcript, dir] of sessionDirs) await scanSubagents(transcript, dir, errors)
    mergeSubagentIds()
    return {
      summaries: files.summaries(),
      errors: [...errors, ...update.errors],
      corruptLines: update.corruptLines,
      bytesRead: update.bytesRead,
    }
  }

  return {
    async scan(opts = {}) {
      if (opts.changed) return scanChanged(opts.changed)
      const errors: string[] = []
      const transcripts: string[] = []
      const sessionDirs = new Map<string, string>()
      for (const project of await listDir(projectsDir, errors)) {
        if (!project.isDirectory()) continue
        const projectDir = join(projectsDir, project.name)
        const entries = await listDir(projectDir, errors)
        const names = new Set(entries.map((entry) => entry.name))
        for (const entry of entries) {
          if (entry.isFile() && entry.name.endsWith('.jsonl')) {
            transcripts.push(join(projectDir, entry.name))
          } else if (entry.isDirectory() && names.has(`${entry.name}.jsonl`)) {
            sessionDirs.set(join(projectDir, `${entry.name}.jsonl`), join(projectDir, entry.name))
          }
        }
      }
      const update = await files.update(transcripts)
      for (const transcript of subagents.keys()) {
        if (!sessionDirs.has(transcript)) subagents.delete(transcript)
      }
      return finish(update, sessionDirs, errors)
    },
    flush: () => files.flush(),
  }
}
