/**
 * Plain project snapshots and engine events for the PM's pure tests and benchmarks (inbox, scheduler):
 * neutral defaults, and a seeded generator of realistic volumes (commits, tasks, status changes across
 * many projects).
 */
import type { EngineEvent, EventType } from '../../shared/schemas/event.ts'
import type { ProjectSnapshot } from '../../shared/schemas/project.ts'
import type { SessionStatus } from '../../shared/schemas/session.ts'
import { createRandom } from './seeded-random.ts'
import { makeSession } from './session-fixture.ts'

export function makeProject(
  over: Partial<ProjectSnapshot> & Pick<ProjectSnapshot, 'name'>,
): ProjectSnapshot {
  return {
    project_dir: `/work/${over.name}`,
    is_git: true,
    registered: false,
    session_names: [],
    head_sha: 'a'.repeat(40),
    branch: 'main',
    commits_ahead: 0,
    dirty: false,
    has_pr: false,
    current_pbi: null,
    activity: { turns_last_hour: 0, last_turn: null },
    session_status: null,
    session_status_reason: null,
    last_activity: null,
    captured_at: '2026-02-16T15:00:00.000Z',
    attention: 'idle',
    git: null,
    sessions: [],
    task_lists: [],
    errors: [],
    ...over,
  }
}

let counter = 0
/** An event with a unique id (a counter: events never collide unless a test reuses one object). */
/** One field of an event's details, whatever its type (tests look at several types at once). */
export function detailOf(event: EngineEvent, key: string): unknown {
  return (event.details as Record<string, unknown>)[key]
}

export function makeEvent(
  type: EventType,
  project: string,
  details: Record<string, unknown> = {},
  timestamp = '2026-02-16T15:00:00.000Z',
): EngineEvent {
  counter++
  // Cast, not parsed: the PM's and the notifier's tests hand in partial and odd details on purpose, to
  // show those parts cope with whatever a log line held (the schema itself is tested in event-line).
  return { id: `ev-${counter}-${type}`, timestamp, type, project, details } as EngineEvent
}

const VERBS = ['implement', 'fix', 'refactor', 'add tests for', 'document', 'rename', 'speed up']
const THINGS = [
  'connection resolver',
  'session status derivation from hooks and transcripts',
  'git watcher debounce',
  'the briefing cache and its staleness marker',
  'inbox budget',
  'tray icon state',
  'memory safety valve',
]
const STATUSES: SessionStatus[] = ['working', 'needs_permission', 'waiting_input', 'idle']
/** Rough mix of a busy day: status changes and commits dominate. */
const MIX: [EventType, number][] = [
  ['session_status_change', 0.34],
  ['commit', 0.26],
  ['task_started', 0.12],
  ['task_completed', 0.12],
  ['session_started', 0.05],
  ['session_ended', 0.05],
  ['branch_created', 0.03],
  ['pbi_completed', 0.02],
  ['pr_created', 0.01],
]

export interface GeneratedCorpus {
  projects: ProjectSnapshot[]
  events: EngineEvent[]
}

/**
 * `count` events spread over the `spanMs` before `now` across `projectCount` projects, each with two live
 * sessions carrying long prompts (the heavy case for the inbox's project part).
 */
export function generateCorpus(options: {
  count: number
  projectCount?: number
  now: number
  spanMs?: number
  seed?: number
}): GeneratedCorpus {
  const { count, projectCount = 20, now, spanMs = 24 * 60 * 60_000, seed = 42 } = options
  const rand = createRandom(seed)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!
  const phrase = () => `${pick(VERBS)} ${pick(THINGS)}`
  const slug = () => pick(THINGS).replace(/\s+/g, '-')
  const names = Array.from(
    { length: projectCount },
    (_, i) => `project-${String(i + 1).padStart(2, '0')}`,
  )
  const iso = (ms: number) => new Date(ms).toISOString()

  const projects = names.map((name, i) =>
    makeProject({
      name,
      attention: i % 5 === 0 ? 'needs_input' : i % 3 === 0 ? 'stale' : 'active',
      session_status: i % 5 === 0 ? 'needs_permission' : 'working',
      session_status_reason:
        i % 5 === 0 ? `Claude needs your permission to use Bash (${phrase()})` : null,
      branch: `feat/${name}-${slug()}`,
      commits_ahead: Math.floor(rand() * 20),
      dirty: rand() < 0.5,
      current_pbi: {
        id: `PBI-${i + 1}`,
        title: phrase(),
        tasks: { done: 3, in_progress: 1, todo: 2, total: 6 },
      },
      last_activity: iso(now - Math.floor(rand() * 3_600_000)),
      sessions: [0, 1].map((s) =>
        makeSession({
          id: `${name}-s${s}`,
          name: `${name}-${s === 0 ? 'main' : 'review'}`,
          status: pick(STATUSES),
          status_reason: rand() < 0.3 ? `waiting: ${phrase()}` : null,
          last_prompt:
            `${phrase()}, then ${phrase()}, and make sure ${phrase()} still works. `.repeat(3),
        }),
      ),
    }),
  )

  const events: EngineEvent[] = []
  for (let i = 0; i < count; i++) {
    let roll = rand()
    const type = MIX.find(([, weight]) => (roll -= weight) < 0)?.[0] ?? 'commit'
    const project = pick(names)
    const timestamp = iso(now - Math.floor(rand() * spanMs))
    const sha = Math.floor(rand() * 2 ** 48)
      .toString(16)
      .padStart(12, '0')
      .repeat(4)
      .slice(0, 40)
    const details: Record<EventType, () => Record<string, unknown>> = {
      commit: () => ({ sha, message: phrase(), branch: `feat/${slug()}`, author: 'Dev' }),
      task_started: () => taskDetails(phrase, rand),
      task_completed: () => taskDetails(phrase, rand),
      pbi_completed: () => ({ pbi: 'PBI-8', title: phrase(), source: 'checklist', tasks: 6 }),
      task_started_by_navi: () => ({
        task_id: 't0000abcd',
        text: phrase(),
        agent: 'claude',
        plan: false,
      }),
      task_notify: () => ({ task_id: 't0000abcd', text: phrase(), note: phrase() }),
      task_finished: () => ({
        task_id: 't0000abcd',
        text: phrase(),
        status: 'completed',
        reason: null,
        cost_usd: 0.01,
      }),
      turn_completed: () => ({
        agent: 'claude',
        name: 'main',
        prompt: phrase(),
        reply: phrase(),
        duration_ms: Math.floor(rand() * 600_000),
        turns: 1,
      }),
      permission_denied: () => ({
        name: 'main',
        tool: 'Bash',
        detail: 'rm -rf build',
        reason: phrase(),
      }),
      session_status_change: () => ({
        from: pick(STATUSES),
        to: pick(STATUSES),
        reason: rand() < 0.3 ? phrase() : null,
        name: 'main',
        agent: 'claude',
      }),
      session_started: () => ({
        agent: 'claude',
        name: 'main',
        cwd: `/work/${project}`,
        status: 'working',
        reason: null,
      }),
      session_ended: () => ({ agent: 'claude', name: 'main', reason: 'process exited' }),
      session_trouble: () => ({
        agent: 'claude',
        name: 'main',
        kind: 'stalled',
        reason: 'no progress for 12 min',
        since: timestamp,
      }),
      session_trouble_cleared: () => ({ agent: 'claude', name: 'main', kind: 'stalled' }),
      branch_created: () => ({ branch: `feat/${slug()}`, sha }),
      pr_created: () => ({
        branch: `feat/${slug()}`,
        number: Math.floor(rand() * 500),
        url: 'https://github.com/o/r/pull/1',
      }),
    }
    events.push(makeEvent(type, project, details[type](), timestamp))
  }
  return { projects, events }
}

function taskDetails(phrase: () => string, rand: () => number): Record<string, unknown> {
  return {
    pbi: 'PBI-8',
    pbi_title: phrase(),
    task_id: `8-${Math.floor(rand() * 9)}`,
    task_title: phrase(),
    source: 'claude_tasks',
  }
}
