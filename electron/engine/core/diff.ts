/**
 * The pure diff of two snapshots of one project into typed events. Event ids are derived from content (the
 * commit sha, the session and the status it entered…), never from when Navi looked, so a restart or a second
 * engine produces the same ids and the log deduplicates them.
 */
import type { EngineEvent, EventDetails, EventType } from '../../../shared/schemas/event.ts'
import type { Commit, ProjectSnapshot } from '../../../shared/schemas/project.ts'
import type { Session, SessionTrouble } from '../../../shared/schemas/session.ts'
import { eventId } from './event-line.ts'
import { diffTasks } from './diff-tasks.ts'

export interface DiffContext {
  now: number
  /**
   * For a project with no previous snapshot, and a task list the previous snapshot did not have: only what
   * happened after this moment is news (newsSince); older sessions and task lists are history and produce
   * no events.
   */
  since: number
}

/**
 * From when on what a cycle finds for the first time is news. Not the previous cycle's start itself: a
 * change made just before it may be read only by a later cycle (its watcher spoke after that cycle had
 * begun; the poll, `graceMs`, catches what a watcher missed), and was then lost as history: a task created
 * and completed in a second never reached the PM. Ids are content-derived, so what an earlier cycle did
 * report is not reported again. With no cycle before, what precedes the first run is history.
 */
export function newsSince(opts: {
  lastCycle: number | null
  baselineAt: number | null
  now: number
  graceMs: number
}): number {
  if (opts.lastCycle !== null) return opts.lastCycle - opts.graceMs
  return opts.baselineAt ?? opts.now
}

/**
 * Commits reachable now that were not reachable from the heads already told, newest first: what git
 * answered for this look (adapters/git.ts), handed to the diff beside the snapshots, never kept in one.
 */
export interface NewCommits {
  readonly commits: readonly Commit[]
  /** Commits beyond the listing cap, counted but not listed. */
  readonly truncated: number
}

export const NO_NEW_COMMITS: NewCommits = { commits: Object.freeze([]), truncated: 0 }

export function diffSnapshots(
  prev: ProjectSnapshot | null,
  next: ProjectSnapshot,
  ctx: DiffContext,
  newCommits: NewCommits = NO_NEW_COMMITS,
): EngineEvent[] {
  const timestamp = new Date(ctx.now).toISOString()
  const make: MakeEvent = (type, key, details, session, at) =>
    // `details` is checked against `type` by MakeEvent's signature; the union cannot see that pairing.
    ({
      id: eventId([type, next.project_dir, ...key]),
      timestamp: at ?? timestamp,
      type,
      project: next.name,
      ...(session ? { session } : {}),
      details,
    }) as EngineEvent
  return [
    ...diffGit(prev, next, newCommits, make),
    ...diffSessions(prev, next, ctx, make),
    ...diffTasks(prev, next, ctx, make),
  ]
}

/** An event of `next`'s project with a content-derived id; `at` when it happened (else now). */
export type MakeEvent = <T extends EventType>(
  type: T,
  key: string[],
  details: EventDetails<T>,
  session?: string,
  at?: string,
) => EngineEvent

function diffGit(
  prev: ProjectSnapshot | null,
  next: ProjectSnapshot,
  newCommits: NewCommits,
  make: MakeEvent,
): EngineEvent[] {
  const git = next.git
  if (!git || git.error) return []
  const events: EngineEvent[] = []
  const commits = [...newCommits.commits].reverse()
  commits.forEach((commit, index) => {
    const more = index === commits.length - 1 && newCommits.truncated > 0
    events.push(
      make('commit', [commit.sha], {
        sha: commit.sha,
        message: commit.subject,
        branch: commit.branch,
        ...(commit.author ? { author: commit.author } : {}),
        ...(commit.timestamp ? { committed_at: commit.timestamp } : {}),
        ...(more ? { more_commits: newCommits.truncated } : {}),
      }),
    )
  })
  const prevGit = prev?.git
  if (prevGit && !prevGit.error) {
    for (const [branch, sha] of Object.entries(git.branch_heads)) {
      if (!(branch in prevGit.branch_heads)) {
        events.push(make('branch_created', [branch, sha], { branch, sha }))
      }
    }
    if (prevGit.pr.state === 'none' && git.pr.state === 'open') {
      events.push(
        make('pr_created', [String(git.pr.number ?? next.branch)], {
          branch: next.branch,
          ...(git.pr.number !== undefined ? { number: git.pr.number } : {}),
          ...(git.pr.url ? { url: git.pr.url } : {}),
        }),
      )
    }
  }
  return events
}

function diffSessions(
  prev: ProjectSnapshot | null,
  next: ProjectSnapshot,
  ctx: DiffContext,
  make: MakeEvent,
): EngineEvent[] {
  const events: EngineEvent[] = []
  const before = new Map((prev?.sessions ?? []).map((s) => [s.id, s]))
  const started = (s: Session) =>
    make('session_started', [s.id, s.started_at ?? ''], sessionDetails(s), s.id)
  const ended = (s: Session, reason: string | null) =>
    make(
      'session_ended',
      [s.id, s.last_activity ?? ''],
      { agent: s.agent, name: s.name, reason },
      s.id,
    )

  for (const session of next.sessions) {
    const old = before.get(session.id)
    before.delete(session.id)
    events.push(...diffTurns(old ?? null, session, ctx, make))
    events.push(...diffTrouble(old?.trouble ?? null, session, make))
    if (!old) {
      if (session.status !== 'ended') events.push(started(session))
      else if (after(session.last_activity, ctx.since)) {
        events.push(started(session), ended(session, session.status_reason))
      }
      continue
    }
    if (old.status === 'ended' && session.status !== 'ended') {
      const details = { ...sessionDetails(session), resumed: true as const }
      events.push(
        make(
          'session_started',
          [session.id, 'resumed', session.status_since ?? ''],
          details,
          session.id,
        ),
      )
    } else if (old.status !== 'ended' && session.status === 'ended') {
      events.push(ended(session, session.status_reason))
    } else if (old.status !== session.status) {
      events.push(
        make(
          'session_status_change',
          [session.id, session.status, session.status_since ?? String(ctx.now)],
          {
            from: old.status,
            to: session.status,
            reason: session.status_reason,
            name: session.name,
            agent: session.agent,
          },
          session.id,
        ),
      )
    }
  }
  for (const gone of before.values()) {
    if (gone.status !== 'ended') events.push(ended(gone, 'no longer found'))
    events.push(...diffTrouble(gone.trouble, { ...gone, trouble: null }, make))
  }
  return events
}

/**
 * Trouble that began (or became another kind of trouble) and trouble that ended. Named by the session, the
 * kind and when the condition began, so a restart or a second engine never tells it twice.
 */
function diffTrouble(old: SessionTrouble | null, session: Session, make: MakeEvent): EngineEvent[] {
  const now = session.trouble
  if (now && (old?.kind !== now.kind || old.since !== now.since)) {
    return [
      make(
        'session_trouble',
        [session.id, 'trouble', now.kind, now.since ?? ''],
        {
          agent: session.agent,
          name: session.name,
          kind: now.kind,
          reason: now.reason,
          since: now.since,
        },
        session.id,
      ),
    ]
  }
  if (old && !now) {
    return [
      make(
        'session_trouble_cleared',
        [session.id, 'trouble_cleared', old.kind, old.since ?? ''],
        { agent: session.agent, name: session.name, kind: old.kind },
        session.id,
      ),
    ]
  }
  return []
}

/** What an event keeps of a prompt or a reply: the gist, not the document. */
const EXCERPT_MAX = 300

const excerpt = (text: string | null): string | null =>
  text === null ? null : text.length > EXCERPT_MAX ? `${text.slice(0, EXCERPT_MAX - 1)}…` : text

/** A turn that finished, and a tool call refused without asking, since the previous snapshot. */
function diffTurns(
  old: Session | null,
  session: Session,
  ctx: DiffContext,
  make: MakeEvent,
): EngineEvent[] {
  const events: EngineEvent[] = []
  const turn = session.last_turn
  // -1: the previous snapshot predates turn records (see sessionSchema), so nothing is known to be new.
  const newTurn = old
    ? old.turns_completed >= 0 && session.turns_completed > old.turns_completed && turn !== null
    : turn !== null && after(turn.ended_at, ctx.since)
  if (newTurn && turn) {
    events.push(
      make(
        'turn_completed',
        [session.id, turn.ended_at],
        {
          agent: session.agent,
          name: session.name,
          prompt: excerpt(turn.prompt),
          reply: excerpt(turn.reply),
          duration_ms: turn.duration_ms,
          // Turns that finished between the two snapshots; the event describes the last of them.
          turns: old ? session.turns_completed - old.turns_completed : 1,
          tokens: Math.max(0, session.tokens.total - (old?.tokens.total ?? 0)),
        },
        session.id,
      ),
    )
  }
  const denial = session.last_denial
  const newDenial = old
    ? denial !== null && denial.at !== old.last_denial?.at
    : after(denial?.at, ctx.since)
  if (newDenial && denial) {
    events.push(
      make(
        'permission_denied',
        [session.id, denial.at],
        {
          name: session.name,
          tool: denial.tool,
          detail: denial.detail,
          reason: excerpt(denial.reason),
        },
        session.id,
      ),
    )
  }
  return events
}

function sessionDetails(s: Session): EventDetails<'session_started'> {
  return { agent: s.agent, name: s.name, cwd: s.cwd, status: s.status, reason: s.status_reason }
}

function after(value: string | null | undefined, since: number): boolean {
  return value !== null && value !== undefined && Date.parse(value) > since
}
