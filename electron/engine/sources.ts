/**
 * Reads every session source once per cycle. Each source is isolated: one that throws is reported in `errors`
 * and the others still count.
 */
import { existsSync } from 'node:fs'
import { resolve, sep } from 'node:path'
import type { Session } from '../../shared/schemas/session.ts'
import { readLiveSessions } from './adapters/claude-live-sessions.ts'
import { createAgentsFallback } from './adapters/claude-agents.ts'
import { readClaudeTaskLists } from './adapters/claude-tasks.ts'
import { createClaudeTranscriptSource } from './adapters/claude-transcripts.ts'
import { createCodexRolloutSource } from './adapters/codex-rollouts.ts'
import { createHookInbox, type HookInboxRead } from './adapters/hook-inbox.ts'
import { drainHookSpool } from './adapters/hook-spool.ts'
import { isPidAlive } from './adapters/process.ts'
import { createPaneLocator, type PaneLocation } from './adapters/pane-locator.ts'
import { naviFiles, type EnginePaths } from './core/paths.ts'
import type {
  ClaudeTaskListRecord,
  CodexRolloutSummary,
  HookSessionState,
  LiveSessionRecord,
  TranscriptSummary,
} from './core/source-records.ts'
import { assembleCodexSession } from './core/sessions.ts'
import { assembleClaudeSessionsReusing, type ClaudeAssembly } from './core/claude-session-memo.ts'
import { codexProcessOfThreads } from './core/codex-process.ts'
import { duplicateTranscriptNotes, type SideTranscript } from './core/side-transcripts.ts'

export interface SourceCounts {
  corruptLines: Record<string, number>
  errors: string[]
  /** Which files had lines or values skipped, for `navi doctor` (not errors: the rest was read). */
  notes: string[]
}

/** Files named per source in the notes; the rest are counted. */
const NOTED_FILES = 5

/**
 * What changed since the last cycle, from the watchers: with `full` every source is listed again (start,
 * poll, explicit refresh, or a watcher event that named no file); otherwise only the transcripts, rollouts
 * and task lists named here are re-read, so one agent writing costs one file, not a scan of all of them.
 */
import { fullScan, type SourceHints } from './core/source-hints.ts'

export { fullScan, type SourceHints }

export interface CollectOptions {
  /**
   * The watchers told this cycle what changed: a Claude session none of whose sources changed keeps the
   * object the cycle before assembled (claude-session-memo.ts). Without it (start, poll, refresh, a full
   * read) every session is assembled again at `now`.
   */
  reuse?: boolean
}

export interface SessionSources {
  collect(
    now: number,
    hints?: SourceHints,
    opts?: CollectOptions,
  ): Promise<{ sessions: Session[]; counts: SourceCounts }>
  /** pids whose liveness decides a status; the engine re-checks them between cycles. */
  watchedPids(): number[]
  /** Persists the transcript/rollout indexes so a restart resumes them. Never rejects. */
  flush(): Promise<void>
}

/**
 * `runsOn`: the engine keeps running (watchers on: `navi watch`, `navi serve`, the tray), so a cold index
 * is folded in processes that give all its memory back when they end (fold-pool.ts).
 */
export function createSessionSources(
  paths: EnginePaths,
  opts: { runsOn?: boolean } = {},
): SessionSources {
  const transcripts = createClaudeTranscriptSource(paths, { foldInProcesses: opts.runsOn ?? false })
  const codex = createCodexRolloutSource(paths)
  const hooks = createHookInbox(paths)
  const panes = createPaneLocator()
  let pids: number[] = []
  const files = naviFiles(paths)
  const ownHome = resolve(paths.naviHome)
  const liveDir = files.claudeSessions
  const taskLists = new Map<string, ClaudeTaskListRecord>()
  let taskCorrupt = 0
  /** The last reads of the live files and of the hooks, for cycles that have no news of them. */
  let lastLive: Awaited<ReturnType<typeof readLiveSessionsOrAsk>> | null = null
  let lastHooks: HookInboxRead | null = null
  /** The Claude sessions of the last cycle, with what each was assembled from. */
  let lastClaude: ClaudeAssembly | null = null

  const askAgents = createAgentsFallback(paths.claudeConfigDir)
  /** The live files; where their folder cannot be listed, what `claude agents --json` says instead. */
  const readLiveSessionsOrAsk = async (now: number) => {
    const read = await readLiveSessions(paths)
    if (!read.unreadable) return read
    const asked = await askAgents(now)
    const fallback =
      asked.error ?? `live sessions from ${asked.records.length} claude agents --json entries`
    return { ...read, records: asked.records, notes: [...read.notes, fallback] }
  }

  /** Task lists are kept between cycles; a full read replaces them, a hinted one updates those named. */
  const readTasks = async (hints: SourceHints) => {
    const read = await readClaudeTaskLists(paths, hints.full ? {} : { only: [...hints.taskLists] })
    if (hints.full) {
      taskLists.clear()
      taskCorrupt = read.corrupt
    } else for (const id of hints.taskLists) taskLists.delete(id)
    for (const list of read.lists) taskLists.set(list.listId, list)
    return { lists: [...taskLists.values()], corrupt: taskCorrupt, errors: read.errors }
  }

  return {
    async collect(now, hints = fullScan(), opts = {}) {
      const changed = (set: Set<string>) => (hints.full ? {} : { changed: [...set] })
      const errors: string[] = []
      const corruptLines: Record<string, number> = {}
      const guard = async <T>(name: string, fallback: T, read: () => Promise<T>): Promise<T> => {
        try {
          return await read()
        } catch (error) {
          errors.push(`${name}: ${error instanceof Error ? error.message : String(error)}`)
          return fallback
        }
      }

      const [scan, live, lists, hookStates, rollouts] = await Promise.all([
        guard(
          'claude transcripts',
          {
            ...emptyScan<TranscriptSummary>(),
            sideTranscripts: [] as SideTranscript[],
            notes: [] as string[],
            readPaths: new Set<string>(),
            readSessionIds: new Set<string>(),
          },
          () => transcripts.scan(changed(hints.transcripts)),
        ),
        // The live files and the hooks are read when their folder changed (or on a full cycle); a cycle
        // the watchers told nothing of (the poll) reads nothing and looks at the time again.
        hints.live || !lastLive
          ? guard(
              'claude live sessions',
              { records: [] as LiveSessionRecord[], corrupt: 0, errors: [], notes: [] as string[] },
              () => readLiveSessionsOrAsk(now),
            ).then((read) => (lastLive = read))
          : lastLive,
        guard('claude tasks', { lists: [] as ClaudeTaskListRecord[], corrupt: 0, errors: [] }, () =>
          readTasks(hints),
        ),
        hints.hooks || !lastHooks
          ? guard(
              'hooks',
              { states: new Map<string, HookSessionState>(), corrupt: 0, errors: [] as string[] },
              async () => {
                // What the handler spooled becomes inbox lines first, so this read folds it.
                const drained = await drainHookSpool(files.hookSpool, files.hookInbox)
                const read = await hooks.read()
                return { ...read, errors: [...drained.errors, ...(read.errors ?? [])] }
              },
            ).then((read) => (lastHooks = read))
          : lastHooks,
        guard(
          'codex',
          { ...emptyScan<CodexRolloutSummary>(), threadNames: new Map<string, string>() },
          () => codex.scan(changed(hints.rollouts)),
        ),
      ])
      errors.push(
        ...scan.errors,
        ...live.errors,
        ...lists.errors,
        ...(hookStates.errors ?? []),
        ...rollouts.errors,
      )
      // Running totals per file (kept in the persisted index), not only what this process read.
      const allTranscripts = [...scan.summaries, ...scan.sideTranscripts.map((t) => t.summary)]
      corruptLines['claude transcripts'] = sum(allTranscripts.map((t) => t.corruptLines))
      corruptLines['claude live sessions'] = live.corrupt
      corruptLines['claude tasks'] = lists.corrupt
      corruptLines['hooks'] = hookStates.corrupt
      corruptLines['codex'] = sum(rollouts.summaries.map((r) => r.corruptLines))

      const hookPids = [...hookStates.states.values()]
        .map((h) => h.agentPid)
        .filter((pid): pid is number => pid !== null)
      const pidAlive = new Map(hookPids.map((pid) => [pid, isPidAlive(pid)]))
      const livePids = live.records.filter((r) => r.alive).map((r) => r.pid)
      pids = [...new Set([...livePids, ...hookPids.filter((pid) => pidAlive.get(pid))])]
      const paneOfPid = await guard('tmux', new Map<number, PaneLocation>(), () =>
        panes.locate(pids),
      )

      const reuse =
        opts.reuse && !hints.full && lastClaude
          ? { previous: lastClaude, readPaths: scan.readPaths, readSessions: scan.readSessionIds }
          : null
      const assembled = assembleClaudeSessionsReusing(
        {
          transcripts: scan.summaries,
          sideTranscripts: scan.sideTranscripts,
          live: live.records,
          hooks: hookStates.states,
          taskLists: lists.lists,
          liveFilesSupported: existsSync(liveDir),
          pidAlive,
          paneOfPid,
          now,
        },
        reuse,
      )
      lastClaude = assembled.assembly
      const claude = assembled.sessions
      const codexProcess = codexProcessOfThreads(hookStates.states, pidAlive)
      const codexSessions = rollouts.summaries
        .map((r) => {
          const pid = codexProcess.get(r.threadId)
          return assembleCodexSession(
            r,
            now,
            rollouts.threadNames.get(r.threadId),
            hookStates.states.get(r.threadId),
            pid === undefined ? undefined : { pid, pane: paneOfPid.get(pid) ?? null },
          )
        })
        .filter((s): s is Session => s !== null)
      const notes = [
        ...live.notes,
        ...scan.notes,
        ...damagedFiles(allTranscripts),
        ...duplicateTranscriptNotes(scan.summaries),
        ...damagedFiles(rollouts.summaries),
        ...(hookStates.corrupt > 0
          ? [`${hooks.path}: ${hookStates.corrupt} line(s) skipped (not hook lines)`]
          : []),
      ]
      // Navi's own PM runs are Claude sessions too; they are counted in `navi usage`, not shown as work.
      const sessions = [...claude, ...codexSessions].filter((s) => !isUnder(s.cwd, ownHome))
      return { sessions, counts: { corruptLines, errors, notes } }
    },
    watchedPids: () => pids,
    flush: async () => {
      await Promise.all([transcripts.flush(), codex.flush(), hooks.flush()])
    },
  }
}

function emptyScan<T>(): {
  summaries: T[]
  errors: string[]
  corruptLines: number
  bytesRead: number
} {
  return { summaries: [], errors: [], corruptLines: 0, bytesRead: 0 }
}

/** `dir` is `base` or inside it (both absolute; no symlink resolution: Navi starts its PM runs there). */
function isUnder(dir: string, base: string): boolean {
  return dir === base || dir.startsWith(base.endsWith(sep) ? base : `${base}${sep}`)
}

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0)

/** `<path>: N lines skipped or damaged` for the worst few files of a source. */
function damagedFiles(summaries: { path: string; corruptLines: number }[]): string[] {
  const damaged = summaries
    .filter((s) => s.corruptLines > 0)
    .sort((a, b) => b.corruptLines - a.corruptLines)
  const named = damaged
    .slice(0, NOTED_FILES)
    .map((s) => `${s.path}: ${s.corruptLines} line(s) skipped or with values ignored`)
  const more = damaged.length - named.length
  return more > 0 ? [...named, `…and ${more} more file(s) like these`] : named
}
