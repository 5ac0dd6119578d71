import { watch, type FSWatcher } from 'node:fs'
import { errorText } from '../../../shared/log.ts'
import { isMissingFileError } from './safe-read.ts'

/**
 * Watches directories that may not exist yet (`~/.claude/tasks` appears with the first task list): `ensure()`
 * retries the missing ones, and the engine calls it on every poll. Errors (a deleted directory) close that
 * watcher quietly; the next `ensure()` brings it back. A directory that exists but cannot be watched
 * (permissions, the system's watch limit) is told to `onError`, if given.
 */
export interface DirWatchers {
  /**
   * Watches every folder that exists and is not watched yet; returns the ones it began to watch: what they
   * already hold was never told by a watcher, so the caller must look at it.
   */
  ensure(): string[]
  close(): void
}

export function createDirWatchers(
  dirs: { path: string; recursive: boolean }[],
  onChange: (path: string, file: string | null) => void,
  onError?: (message: string) => void,
): DirWatchers {
  const active = new Map<string, FSWatcher>()
  return {
    ensure() {
      const started: string[] = []
      for (const dir of dirs) {
        if (active.has(dir.path)) continue
        try {
          const watcher = watch(
            dir.path,
            { recursive: dir.recursive, persistent: false },
            (_e, file) => onChange(dir.path, file ? String(file) : null),
          )
          watcher.on('error', () => {
            watcher.close()
            active.delete(dir.path)
          })
          active.set(dir.path, watcher)
          started.push(dir.path)
        } catch (error) {
          // Not there yet: the next ensure() tries again. Anything else is told.
          if (!isMissingFileError(error)) onError?.(`cannot watch ${dir.path}: ${errorText(error)}`)
        }
      }
      return started
    },
    close() {
      for (const watcher of active.values()) watcher.close()
      active.clear()
    },
  }
}
