/**
 * Reads every session source once per cycle. Each source is isolated: one that throws is reported in `errors`
 * and the others still count.
 */
import { existsSync } from 'node:fs'
import type { Session } from '../../shared/schemas/session.ts'
import { readLiveSessions } from './adapters/claude-live-sessions.ts'
import { readClaudeTaskLists } from './adapters/claude-tasks.ts'
import { createClaudeTranscriptSource } from './adapters/claude-transcripts.ts'
import { createCodexRolloutSource } from './adapters/codex-rollouts.ts'
import { createHookInbox } from './adapters/hook-inbox.ts'
import { isPidAlive } from './adapters/process.ts'
import { createPaneLocator, type PaneLocation } from './adapters/pane-locator.ts'
import { naviFiles, type EnginePaths } from './core/paths.ts'
import type {
  ClaudeTaskListRecord,
  CodexRolloutSummary,
  HookSessionState,
  LiveSessionRecord,
  TranscriptSummary,
} from './core/records.ts'
import { assembleClaudeSessions, assembleCodexSession } from './core/sessions.ts'

export interface SourceCounts {
  corruptLines: Record<string, number>
  errors: string[]
}

export interface SessionSources {
  collect(now: number): Promise<{ sessions: Session[]; counts: SourceCounts }>
  /** pids whose liveness decides a status; the engine re-checks them between cycles. */
  watchedPids(): number[]
  /** Persists the transcript/rollout indexes so a restart resumes them. Never rejects. */
  flush(): Promise<void>
}

export function createSessionSources(paths: EnginePaths): SessionSources {
  const transcripts = createClaudeTranscriptSource(paths)
  const codex = createCodexRolloutSource(paths)
  const hooks = createHookInbox(paths)
  const panes = createPaneLocator()
  let pids: number[] = []
  const liveDir = naviFiles(paths).claudeSessions

  return {
    async collect(now) {
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
        guard('claude transcripts', { ...emptyScan<TranscriptSummary>() }, () =>
          transcripts.scan(),
        ),
        guard(
          'claude live sessions',
          { records: [] as LiveSessionRecord[], corrupt: 0, errors: [] },
          () => readLiveSessions(paths),
        ),
        guard('claude tasks', { lists: [] as ClaudeTaskListRecord[], corrupt: 0, errors: [] }, () =>
          readClaudeTaskLists(paths),
        ),
        guard('hooks', { states: new Map<string, HookSessionState>(), corrupt: 0 }, () =>
          hooks.read(),
        ),
        guard('codex', { ...emptyScan<CodexRolloutSummary>() }, () => codex.scan()),
      ])
      errors.push(...scan.errors, ...live.errors, ...lists.errors, ...rollouts.errors)
      // Running totals per file (kept in the persisted index), not only what this process read.
      corruptLines['claude transcripts'] = sum(scan.summaries.map((t) => t.corruptLines))
      corruptLines['claude live sessions'] = live.corrupt
      corruptLines['claude tasks'] = lists.corrupt
      corruptLines['hooks'] = hookStates.corrupt
      corruptLines['codex'] = sum(rollouts.summaries.map((r) => r.corruptLines))

      const hookPids = [...hookStates.states.values()]
        .map((h) => h.claudePid)
        .filter((pid): pid is number => pid !== null)
      const pidAlive = new Map(hookPids.map((pid) => [pid, isPidAlive(pid)]))
      const livePids = live.records.filter((r) => r.alive).map((r) => r.pid)
      pids = [...new Set([...livePids, ...hookPids.filter((pid) => pidAlive.get(pid))])]
      const paneOfPid = await guard('tmux', new Map<number, PaneLocation>(), () =>
        panes.locate(pids),
      )

      const claude = assembleClaudeSessions({
        transcripts: scan.summaries,
        live: live.records,
        hooks: hookStates.states,
        taskLists: lists.lists,
        liveFilesSupported: existsSync(liveDir),
        pidAlive,
        paneOfPid,
        now,
      })
      const codexSessions = rollouts.summaries
        .map((r) => assembleCodexSession(r, now))
        .filter((s): s is Session => s !== null)
      return { sessions: [...claude, ...codexSessions], counts: { corruptLines, errors } }
    },
    watchedPids: () => pids,
    flush: async () => {
      await Promise.all([transcripts.flush(), codex.flush()])
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

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0)
