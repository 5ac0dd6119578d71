/**
 * What one engine cycle (cycle.ts) keeps for the next, so that a cycle the watchers started (`reuse`)
 * redoes only what they told of. An agent appending to its transcript then costs its own session and its
 * own project's snapshot, not every session's and every project's.
 *
 * The caches keyed by an object are plain memos (the same session gives the same result). A kept session
 * is a settled one (claude-session-memo.ts), which the clock cannot change, so its trouble is what it
 * was. A project's snapshot kept because its sessions are the same objects still has windows of an hour
 * and a day that look at the clock (turns in the last hour, stale after a day): the poll's cycle, which
 * keeps nothing, builds every snapshot again at its own time.
 */
import type { ProjectSnapshot, GitState } from '../../shared/schemas/project.ts'
import type { Session } from '../../shared/schemas/session.ts'
import type { LoadedConfig } from './adapters/config-file.ts'
import type { SnapshotMeta } from './adapters/snapshot-store.ts'
import { createIgnoreMatcher } from './core/config.ts'

export type SessionWithProject = Session & { project: string | null }

/** What a project's snapshot was built from. */
export interface BuiltSnapshot {
  projectDir: string
  name: string
  registered: boolean
  /** Whether the project's folder existed (a missing one's snapshot says so in its errors). */
  exists: boolean
  sessions: readonly Session[]
  /** The sessions' latest activity (epoch ms) where a repository read asked for it; else null. */
  lastActivity: number | null
  git: GitState | null
  snapshot: ProjectSnapshot | null
}

/** A project's sessions named, and the placed sessions they were named from. */
export interface NamedList {
  project: string | null
  placed: readonly Session[]
  named: SessionWithProject[]
}

export interface CycleMemo {
  /** A collected session with its answer window and trouble decided. */
  decided: WeakMap<Session, Session>
  /** A decided session placed in its project (`project_dir` set). */
  placed: WeakMap<Session, Session>
  /** A placed session with its project's name, as the cycle returns it. */
  named: WeakMap<Session, SessionWithProject>
  /** Each project's named sessions of the last cycle, by project dir. */
  namedLists: Map<string, NamedList>
  /**
   * The repository root of each session folder, as the repo tracker answered this cycle or a `reuse`
   * cycle before it (a cycle that reuses nothing asks again: a repository may have appeared).
   */
  roots: Map<string, string | null>
  /** What each project's last snapshot was built from, by project dir (`reuse` cycles only). */
  built: Map<string, BuiltSnapshot>
  /** The ignore rules of one loaded config, compiled once, and their verdict per directory. */
  ignore: { config: LoadedConfig; isIgnored: (dir: string) => boolean } | null
  /** The snapshot store's meta once it names the first run (it never changes after). */
  meta: SnapshotMeta | null
}

export function createCycleMemo(): CycleMemo {
  return {
    decided: new WeakMap(),
    placed: new WeakMap(),
    named: new WeakMap(),
    namedLists: new Map(),
    roots: new Map(),
    built: new Map(),
    ignore: null,
    meta: null,
  }
}

/**
 * Whether a directory is ignored by `config`'s rules (and, always, Navi's own home, where its PM runs),
 * compiled once per loaded config and remembered per directory.
 */
export function ignoreMatcher(
  memo: CycleMemo,
  config: LoadedConfig,
  ownHomeGlob: string,
): (dir: string) => boolean {
  if (memo.ignore?.config !== config) {
    const matches = createIgnoreMatcher([...config.config.ignore, ownHomeGlob])
    const verdicts = new Map<string, boolean>()
    const isIgnored = (dir: string): boolean => {
      let verdict = verdicts.get(dir)
      if (verdict === undefined) {
        verdict = matches(dir)
        verdicts.set(dir, verdict)
      }
      return verdict
    }
    memo.ignore = { config, isIgnored }
  }
  return memo.ignore.isIgnored
}

/** The same sessions, as objects, in the same order. */
export function sameSessions(a: readonly Session[], b: readonly Session[]): boolean {
  return a.length === b.length && a.every((session, i) => session === b[i])
}
