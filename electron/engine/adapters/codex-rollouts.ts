import { readdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import {
  emptyCodexRolloutSummary,
  foldCodexLine,
  threadIdFromRolloutPath,
} from '../core/codex-fold.ts'
import { naviFiles, type EnginePaths } from '../core/paths.ts'
import type { CodexRolloutSummary } from '../core/source-records.ts'
import {
  CODEX_SUMMARY_VERSION,
  decodeCodexSummary,
  reviveCodexSummary,
  encodeCodexSummary,
} from '../core/summary-codec.ts'
import { createJsonlFileSet } from './jsonl-file-set.ts'
import {
  COMPRESSED_SUFFIX,
  createCompressedRollouts,
  readCodexThreadNames,
} from './codex-compressed.ts'
import { latestPlausibleMs } from '../core/json-narrow.ts'
import { isMissingFileError } from './safe-read.ts'

export interface RolloutScanResult {
  /** One summary per rollout file; the objects are updated in place by later scans. */
  summaries: CodexRolloutSummary[]
  /** Names the user gave threads (`session_index.jsonl`), by thread id. */
  threadNames: Map<string, string>
  /** `<path>: <message>` for each file or folder that could not be read. */
  errors: string[]
  /** Corrupt lines met during this scan. */
  corruptLines: number
  /** Bytes of rollout read during this scan (0 when nothing changed). */
  bytesRead: number
}

export interface CodexRolloutSource {
  /** Lists and refreshes every rollout; with `changed` (paths a watcher reported), only those. */
  scan(opts?: { changed?: readonly string[] }): Promise<RolloutScanResult>
  /** Persists offsets and summaries for the next process, if anything changed. Never rejects. */
  flush(): Promise<void>
}

export interface RolloutSourceOptions {
  /**
   * Index that lets a new process resume every rollout where the last one stopped reading.
   * @default `$NAVI_HOME/cache/codex-rollouts.json`; null persists nothing.
   */
  cacheFile?: string | null
}

const YEAR = /^\d{4}$/
const MONTH_OR_DAY = /^\d{2}$/
const ROLLOUT_FILE = /^rollout-.*\.jsonl(?:\.zst)?$/

async function listDirs(path: string, pattern: RegExp, errors: string[]): Promise<string[]> {
  try {
    const entries = await readdir(path, { withFileTypes: true })
    return entries
      .filter((e) => e.isDirectory() && pattern.test(e.name))
      .map((e) => join(path, e.name))
      .sort()
  } catch (error) {
    if (!isMissingFileError(error))
      errors.push(`${path}: ${error instanceof Error ? error.message : error}`)
    return []
  }
}

/** Every `sessions/YYYY/MM/DD/rollout-*.jsonl` under `$CODEX_HOME`, oldest day first. */
export async function listRolloutFiles(paths: EnginePaths, errors: string[]): Promise<string[]> {
  const files: string[] = []
  for (const year of await listDirs(naviFiles(paths).codexSessions, YEAR, errors)) {
    for (const month of await listDirs(year, MONTH_OR_DAY, errors)) {
      for (const day of await listDirs(month, MONTH_OR_DAY, errors)) {
        try {
          const entries = await readdir(day, { withFileTypes: true })
          for (const entry of entries) {
            if (entry.isFile() && ROLLOUT_FILE.test(entry.name)) files.push(join(day, entry.name))
          }
        } catch (error) {
          if (!isMissingFileError(error)) errors.push(`${day}: ${String(error)}`)
        }
      }
    }
  }
  return files.sort()
}

/** Watches Codex rollouts, folding only the lines appended since the previous scan. */
export function createCodexRolloutSource(
  paths: EnginePaths,
  options: RolloutSourceOptions = {},
): CodexRolloutSource {
  const cacheFile =
    options.cacheFile === undefined
      ? join(naviFiles(paths).cacheDir, 'codex-rollouts.json')
      : options.cacheFile
  const codec = {
    version: CODEX_SUMMARY_VERSION,
    encode: encodeCodexSummary,
    decode: decodeCodexSummary,
    revive: reviveCodexSummary,
  }
  const files = createJsonlFileSet<CodexRolloutSummary>(
    {
      create: (path) => emptyCodexRolloutSummary(threadIdFromRolloutPath(path), path),
      // Times ahead of the clock by more than the allowed skew are bad values (json-narrow.ts).
      fold: (summary, line) => foldCodexLine(summary, line, latestPlausibleMs(Date.now())),
    },
    { cache: cacheFile === null ? null : { file: cacheFile, codec } },
  )
  const compressed = createCompressedRollouts()
  let compressedPaths: string[] = []
  let lastOld: CodexRolloutSummary[] | null = null
  let lastThreadNames = new Map<string, string>()
  return {
    async scan(opts = {}) {
      const errors: string[] = []
      let update
      if (opts.changed) {
        update = await files.touch(
          opts.changed.filter((p) => /rollout-.*\.jsonl$/.test(basename(p))),
        )
      } else {
        const all = await listRolloutFiles(paths, errors)
        const plain = all.filter((p) => !p.endsWith(COMPRESSED_SUFFIX))
        const plainSet = new Set(plain)
        // While Codex compresses a rollout both files exist: the plain one is the one to read.
        compressedPaths = all.filter(
          (p) => p.endsWith(COMPRESSED_SUFFIX) && !plainSet.has(p.slice(0, -'.zst'.length)),
        )
        update = await files.update(plain)
      }
      // The compressed rollouts and the thread names are looked at by full scans (a new day's folder or
      // session_index.jsonl changing is a full cycle); a cycle a watcher drove reuses them.
      if (!opts.changed || lastOld === null) {
        ;[lastOld, lastThreadNames] = await Promise.all([
          compressed.read(compressedPaths, errors),
          readCodexThreadNames(paths.codexHome, errors),
        ])
      }
      const old = lastOld
      const threadNames = lastThreadNames
      return {
        summaries: [...files.summaries(), ...old],
        threadNames,
        errors: [...errors, ...update.errors],
        corruptLines: update.corruptLines,
        bytesRead: update.bytesRead,
      }
    },
    flush: () => files.flush(),
  }
}
