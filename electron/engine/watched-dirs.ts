/**
 * What the engine's directory watchers watch, and what a change they report means for the next cycle.
 * Pure: paths in, a watch list or an updated set of hints out.
 */
import { join } from 'node:path'
import { naviFiles, type EnginePaths } from './core/paths.ts'
import type { SourceHints } from './sources.ts'

/** The three roots (for folders that appear later), and the folders sessions are written to. */
export function watchedDirs(paths: EnginePaths): { path: string; recursive: boolean }[] {
  const files = naviFiles(paths)
  return [
    ...roots(paths).map((path) => ({ path, recursive: false })),
    { path: files.claudeProjects, recursive: true },
    { path: files.claudeSessions, recursive: false },
    { path: files.claudeTasks, recursive: true },
    { path: files.hooksDir, recursive: false },
    { path: files.hookSpool, recursive: false },
    { path: files.codexSessions, recursive: true },
  ]
}

/**
 * Our own writes under NAVI_HOME (pm/, cache/, locks) must not wake the engine; config.yaml and
 * settings.json must (they change the configuration only). In the
 * hook spool only a finished event counts (`<id>.json`): the handler's temp files and the claims and
 * removals of a drain are nobody's news.
 */
export function isOwnWrite(paths: EnginePaths, dir: string, file: string | null): boolean {
  if (dir === naviFiles(paths).hookSpool) return file !== null && !/^[^.][^/]*\.json$/.test(file)
  return dir === paths.naviHome && !CONFIG_FILES.has(file ?? '')
}

/** What a user (or the Settings view) edits in NAVI_HOME: a change re-reads the configuration only. */
const CONFIG_FILES = new Set(['config.yaml', 'settings.json'])

/**
 * Records in `hints` what the next cycle must re-read after a change in `dir` (`file`, when the watcher
 * named one). Returns true when everything must be listed again, and the watchers topped up: a root
 * changed (projects/ appeared with the first session), or a new folder (a new project's transcripts, a new
 * day of rollouts), whose files written before a watcher covered them are only found by listing.
 */
export function noteChange(
  hints: SourceHints,
  paths: EnginePaths,
  dir: string,
  file: string | null,
): boolean {
  const files = naviFiles(paths)
  if (dir === paths.naviHome && CONFIG_FILES.has(file ?? '')) {
    hints.config = true
    return false
  }
  const transcriptTree = dir === files.claudeProjects || dir === files.codexSessions
  const newFolder = transcriptTree && file !== null && !/\.jsonl?$/.test(file)
  if (file === null || roots(paths).includes(dir) || newFolder) {
    hints.full = true
    return true
  }
  if (dir === files.claudeSessions) hints.live = true
  else if (dir === files.hooksDir || dir === files.hookSpool) hints.hooks = true
  else if (dir === files.claudeTasks) hints.taskLists.add(file.split(/[\\/]/)[0] ?? file)
  else if (dir === files.claudeProjects) hints.transcripts.add(join(dir, file))
  else if (dir === files.codexSessions) hints.rollouts.add(join(dir, file))
  return false
}

/**
 * Records in `hints` what must be looked at now that the watchers cover `dirs`, folders that did not exist
 * (or could not be watched) before: what they already hold was never told. A hooks folder or the live
 * sessions are read again on their own; NAVI_HOME needs nothing (Navi creates it, on its first run);
 * any other folder (a root, the transcripts, the task lists, Codex's sessions) means listing everything.
 */
export function noteNewlyWatched(
  hints: SourceHints,
  paths: EnginePaths,
  dirs: readonly string[],
): void {
  const files = naviFiles(paths)
  for (const dir of dirs) {
    if (dir === files.hooksDir || dir === files.hookSpool) hints.hooks = true
    else if (dir === files.claudeSessions) hints.live = true
    else if (dir !== paths.naviHome) hints.full = true
  }
}

function roots(paths: EnginePaths): string[] {
  return [paths.claudeConfigDir, paths.codexHome, paths.naviHome]
}
