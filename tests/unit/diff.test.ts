import { describe, expect, it } from 'vitest'
import { diffSnapshots, newsSince } from '../../electron/engine/core/diff.ts'
import type { GitState, ProjectSnapshot } from '../../shared/schemas/project.ts'
import type { Session, TaskList } from '../../shared/schemas/session.ts'
import { makeSession } from '../support/session-fixture.ts'
import { makeProject, detailOf } from '../support/pm-events-fixture.ts'

const NOW = Date.parse('2026-11-21T12:00:00Z')
const iso = (ms: number) => new Date(ms).toISOString()

function git(over: Partial<GitState> = {}): GitState {
  return {
    head_sha: 'a1',
    branch: 'main',
    detached: false,
    commits_ahead: 0,
    commits_behind: 0,
    upstream: null,
    dirty: false,
    branch_heads: { main: 'a1' },
    worktrees: [],
    recent_commits: [],
    pr: { state: 'none' },
    error: null,
    ...over,
  }
}

function session(id: string, over: Partial<Session> = {}): Session {
  return makeSession({
    id,
    name: `s-${id}`,
    project_dir: '/p',
    status: 'working',
    status_since: iso(NOW - 1000),
    started_at: iso(NOW - 5000),
    last_activity: iso(NOW - 1000),
    turns: 1,
    pid: 1,
    ...over,
  })
}

function list(
  tasks: [string, 'pending' | 'in_progress' | 'completed'][],
  over: Partial<TaskList> = {},
): TaskList {
  return {
    id: 'tasks:s1',
    title: 'Build it',
    source: 'claude_tasks',
    session_id: 's1',
    updated_at: iso(NOW - 500),
    tasks: tasks.map(([id, status]) => ({ id, title: `task ${id}`, status })),
    ...over,
  }
}

function snap(over: Partial<ProjectSnapshot> = {}): ProjectSnapshot {
  return makeProject({
    name: 'apollo',
    project_dir: '/p',
    head_sha: 'a1',
    captured_at: iso(NOW),
    git: git(),
    ...over,
  })
}

const ctx = { now: NOW, since: NOW - 10_000 }

/** What git listed since the told heads, newest first (subjects by sha), and how many it only counted. */
const listed = (subjects: Record<string, string>, truncated = 0) => ({
  commits: Object.entries(subjects).map(([sha, subject]) => ({ sha, subject, branch: 'main' })),
  truncated,
})

describe('diffSnapshots', () => {
  it('one commit event per new commit, oldest first, with sha, subject and branch', () => {
    const newCommits = listed({ c2: 'second', c1: 'first "quoted" $(rm -rf ~)' })
    const events = diffSnapshots(snap(), snap(), ctx, newCommits)
    expect(events.map((e) => [e.type, detailOf(e, 'sha'), detailOf(e, 'message')])).toEqual([
      ['commit', 'c1', 'first "quoted" $(rm -rf ~)'],
      ['commit', 'c2', 'second'],
    ])
    expect(events[0] && detailOf(events[0], 'branch')).toBe('main')
    expect(events[0]?.project).toBe('apollo')
  })

  it('commits beyond the listing cap are counted on the newest commit event', () => {
    const events = diffSnapshots(snap(), snap(), ctx, listed({ c2: 'second', c1: 'first' }, 3))
    expect(events.map((e) => [detailOf(e, 'sha'), detailOf(e, 'more_commits')])).toEqual([
      ['c1', undefined],
      ['c2', 3],
    ])
  })

  it('the same change gets the same id whenever it is observed', () => {
    const newCommits = listed({ c1: 'x' })
    const a = diffSnapshots(snap(), snap(), ctx, newCommits)
    const b = diffSnapshots(snap(), snap(), { now: NOW + 60_000, since: NOW }, newCommits)
    expect(a[0]?.id).toBe(b[0]?.id)
  })

  it('new branch → branch_created; none on first sight of a repo', () => {
    const next = snap({ git: git({ branch_heads: { main: 'a1', 'feat/x': 'a1' } }) })
    expect(diffSnapshots(snap(), next, ctx).map((e) => [e.type, detailOf(e, 'branch')])).toEqual([
      ['branch_created', 'feat/x'],
    ])
    expect(diffSnapshots(null, next, ctx)).toEqual([])
  })

  it('a PR that appears → pr_created, not when the previous state was unknown', () => {
    const next = snap({ git: git({ pr: { state: 'open', number: 7 } }) })
    expect(diffSnapshots(snap(), next, ctx).map((e) => e.type)).toEqual(['pr_created'])
    expect(diffSnapshots(snap({ git: git({ pr: { state: 'unknown' } }) }), next, ctx)).toEqual([])
  })

  it('session lifecycle: started, status change with reason, ended', () => {
    const started = diffSnapshots(snap(), snap({ sessions: [session('s1')] }), ctx)
    expect(started.map((e) => e.type)).toEqual(['session_started'])
    expect(started[0]?.session).toBe('s1')

    const waiting = session('s1', {
      status: 'needs_permission',
      status_reason: 'waiting for permission prompt',
    })
    const change = diffSnapshots(
      snap({ sessions: [session('s1')] }),
      snap({ sessions: [waiting] }),
      ctx,
    )
    expect(change).toHaveLength(1)
    expect(change[0]?.details).toMatchObject({
      from: 'working',
      to: 'needs_permission',
      reason: 'waiting for permission prompt',
    })

    const ended = diffSnapshots(
      snap({ sessions: [waiting] }),
      snap({ sessions: [session('s1', { status: 'ended' })] }),
      ctx,
    )
    expect(ended.map((e) => e.type)).toEqual(['session_ended'])
  })

  it('an old ended session seen for the first time is history, a recent one is news', () => {
    const old = session('s9', { status: 'ended', last_activity: iso(NOW - 3_600_000) })
    expect(diffSnapshots(null, snap({ sessions: [old] }), ctx)).toEqual([])
    const recent = session('s9', { status: 'ended', last_activity: iso(NOW - 1000) })
    expect(diffSnapshots(null, snap({ sessions: [recent] }), ctx).map((e) => e.type)).toEqual([
      'session_started',
      'session_ended',
    ])
  })

  it('tasks: started, completed, and pbi_completed when the last one is done', () => {
    const a = snap({
      task_lists: [
        list([
          ['1', 'pending'],
          ['2', 'pending'],
        ]),
      ],
    })
    const b = snap({
      task_lists: [
        list([
          ['1', 'in_progress'],
          ['2', 'pending'],
        ]),
      ],
    })
    const c = snap({
      task_lists: [
        list([
          ['1', 'completed'],
          ['2', 'completed'],
        ]),
      ],
    })
    expect(diffSnapshots(a, b, ctx).map((e) => [e.type, detailOf(e, 'task_id')])).toEqual([
      ['task_started', '1'],
    ])
    expect(
      diffSnapshots(b, c, ctx).map((e) => [e.type, detailOf(e, 'task_id') ?? detailOf(e, 'pbi')]),
    ).toEqual([
      ['task_completed', '1'],
      // Task 2 went from pending to completed between two snapshots: its start is not lost.
      ['task_started', '2'],
      ['task_completed', '2'],
      ['pbi_completed', 'tasks:s1'],
    ])
    expect(diffSnapshots(c, c, ctx)).toEqual([])
  })

  it('a task list last changed before `since` produces no events on first sight', () => {
    const done = list([['1', 'completed']], { updated_at: iso(NOW - 3_600_000) })
    expect(diffSnapshots(snap(), snap({ task_lists: [done] }), ctx)).toEqual([])
  })
})

describe('newsSince', () => {
  it('reaches one poll back before the previous cycle; with none, the first run is the line', () => {
    const base = { baselineAt: NOW - 86_400_000, now: NOW, graceMs: 30_000 }
    expect(newsSince({ ...base, lastCycle: NOW - 5_000 })).toBe(NOW - 35_000)
    expect(newsSince({ ...base, lastCycle: null })).toBe(NOW - 86_400_000)
    expect(newsSince({ ...base, lastCycle: null, baselineAt: null })).toBe(NOW)
  })

  it('a task created and completed just before the previous cycle, read only after it, is news', () => {
    // The previous cycle began at NOW - 1 s; the list's file was written 0.4 s before that, and its
    // watcher spoke only once that cycle had begun: this cycle is the first to read it.
    const lastCycle = NOW - 1_000
    const written = list([['1', 'completed']], {
      updated_at: iso(lastCycle - 400),
      moves: [{ task_id: '1', title: 'task 1', status: 'completed', at: iso(lastCycle - 450) }],
    })
    const since = newsSince({ lastCycle, baselineAt: null, now: NOW, graceMs: 30_000 })
    const events = diffSnapshots(snap(), snap({ task_lists: [written] }), { now: NOW, since })
    expect(events.map((e) => [e.type, detailOf(e, 'task_title') ?? null])).toEqual([
      ['task_started', 'task 1'],
      ['task_completed', 'task 1'],
      ['pbi_completed', null],
    ])
    // At the previous cycle's start itself (no grace), the same list was lost as history.
    expect(
      diffSnapshots(snap(), snap({ task_lists: [written] }), { now: NOW, since: lastCycle }),
    ).toEqual([])
  })
})

describe('diffSnapshots: task moves', () => {
  const move = (task_id: string, status: 'in_progress' | 'completed', ago: number) => ({
    task_id,
    title: `task ${task_id}`,
    status,
    at: iso(NOW - ago),
  })
  const typesOf = (events: ReturnType<typeof diffSnapshots>) =>
    events.map((e) => [e.type, detailOf(e, 'task_id') ?? detailOf(e, 'pbi'), e.timestamp])

  it('moves between two snapshots are told in the order and at the time they happened', () => {
    const a = snap({ task_lists: [list([['1', 'pending']], { moves: [] })] })
    // Task 1 was started, finished and reopened between the two looks: the snapshots alone show
    // pending → in_progress and would lose the completion.
    const moves = [
      move('1', 'in_progress', 900),
      move('1', 'completed', 600),
      move('1', 'in_progress', 300),
    ]
    const b = snap({ task_lists: [list([['1', 'in_progress']], { moves })] })
    expect(typesOf(diffSnapshots(a, b, ctx))).toEqual([
      ['task_started', '1', iso(NOW - 900)],
      ['task_completed', '1', iso(NOW - 600)],
    ])
    expect(diffSnapshots(b, b, ctx)).toEqual([])
  })

  it('a task finished with no recorded start is started at the same moment; the PBI at the last move', () => {
    const a = snap({
      task_lists: [
        list(
          [
            ['1', 'in_progress'],
            ['2', 'pending'],
          ],
          { moves: [move('1', 'in_progress', 5000)] },
        ),
      ],
    })
    const moves = [
      move('1', 'in_progress', 5000),
      move('2', 'completed', 800),
      move('1', 'completed', 400),
    ]
    const b = snap({
      task_lists: [
        list(
          [
            ['1', 'completed'],
            ['2', 'completed'],
          ],
          { moves },
        ),
      ],
    })
    expect(typesOf(diffSnapshots(a, b, ctx))).toEqual([
      ['task_started', '2', iso(NOW - 800)],
      ['task_completed', '2', iso(NOW - 800)],
      ['task_completed', '1', iso(NOW - 400)],
      ['pbi_completed', 'tasks:s1', iso(NOW - 400)],
    ])
  })

  it('a list seen for the first time tells only moves after `since`; an old snapshot without moves falls back to statuses', () => {
    const moves = [move('1', 'in_progress', 60_000), move('1', 'completed', 2000)]
    const b = snap({ task_lists: [list([['1', 'completed']], { moves })] })
    expect(typesOf(diffSnapshots(snap(), b, ctx))).toEqual([
      ['task_started', '1', iso(NOW - 2000)],
      ['task_completed', '1', iso(NOW - 2000)],
      ['pbi_completed', 'tasks:s1', iso(NOW - 2000)],
    ])
    const old = snap({ task_lists: [list([['1', 'in_progress']])] })
    expect(typesOf(diffSnapshots(old, b, ctx))).toEqual([
      ['task_completed', '1', iso(NOW - 2000)],
      ['pbi_completed', 'tasks:s1', iso(NOW - 2000)],
    ])
  })
})

describe('diffSnapshots: turns and denials', () => {
  const turn = (endedAt: number, prompt = 'fix it') => ({
    prompt,
    started_at: iso(endedAt - 4000),
    ended_at: iso(endedAt),
    duration_ms: 4000,
    reply: 'Fixed.',
  })

  it('a finished turn is one turn_completed with the prompt, the reply and how many turns finished', () => {
    const spent = (total: number) => ({
      input: 0,
      output: 0,
      cache_read: 0,
      cache_creation: 0,
      total,
    })
    const before = snap({
      sessions: [
        session('s1', { turns_completed: 1, last_turn: turn(NOW - 60_000), tokens: spent(1000) }),
      ],
    })
    const after = snap({
      sessions: [
        session('s1', {
          turns_completed: 3,
          last_turn: turn(NOW - 500, 'add tests'),
          tokens: spent(4500),
        }),
      ],
    })
    const events = diffSnapshots(before, after, ctx).filter((e) => e.type === 'turn_completed')
    expect(events.map((e) => [e.session, e.details])).toEqual([
      [
        's1',
        {
          agent: 'claude',
          name: 's-s1',
          prompt: 'add tests',
          reply: 'Fixed.',
          duration_ms: 4000,
          turns: 2,
          // What the session spent between the two looks.
          tokens: 3500,
        },
      ],
    ])
    expect(diffSnapshots(after, after, ctx)).toEqual([])
  })

  it('a snapshot from before turns were recorded (-1) reports no old turn as new', () => {
    const before = snap({ sessions: [session('s1', { turns_completed: -1 })] })
    const after = snap({
      sessions: [session('s1', { turns_completed: 40, last_turn: turn(NOW - 500) })],
    })
    expect(diffSnapshots(before, after, ctx).filter((e) => e.type === 'turn_completed')).toEqual([])
  })

  it('a new session reports its last turn only when it ended after the previous cycle', () => {
    const fresh = snap({
      sessions: [session('s1', { turns_completed: 1, last_turn: turn(NOW - 500) })],
    })
    const old = snap({
      sessions: [session('s1', { turns_completed: 1, last_turn: turn(NOW - 60_000) })],
    })
    const turns = (next: ProjectSnapshot) =>
      diffSnapshots(snap(), next, ctx).filter((e) => e.type === 'turn_completed')
    expect(turns(fresh)).toHaveLength(1)
    expect(turns(old)).toEqual([])
  })

  it('a new denial is one permission_denied with the tool, its detail and the reason', () => {
    const denial = {
      tool: 'Bash',
      detail: 'rm -rf build',
      reason: 'destructive',
      at: iso(NOW - 200),
    }
    const events = diffSnapshots(
      snap({ sessions: [session('s1')] }),
      snap({ sessions: [session('s1', { last_denial: denial })] }),
      ctx,
    )
    expect(events.map((e) => [e.type, e.details])).toEqual([
      [
        'permission_denied',
        { name: 's-s1', tool: 'Bash', detail: 'rm -rf build', reason: 'destructive' },
      ],
    ])
  })

  it('trouble that begins, changes and ends is one event each, named by when it began', () => {
    const stalled = {
      kind: 'stalled' as const,
      reason: 'no progress for 12 min',
      since: iso(NOW - 720_000),
    }
    const failing = {
      kind: 'failing_command' as const,
      reason: 'the same command failed 3 times in a row: npm test',
      since: iso(NOW - 60_000),
    }
    const at = (trouble: Session['trouble'], status: Session['status'] = 'working') =>
      snap({ sessions: [session('s1', { trouble, status })] })
    const kinds = (prev: ProjectSnapshot, next: ProjectSnapshot) =>
      diffSnapshots(prev, next, ctx)
        .filter((e) => e.type.startsWith('session_trouble'))
        .map((e) => [e.type, e.details])

    expect(kinds(at(null), at(stalled))).toEqual([
      [
        'session_trouble',
        {
          agent: 'claude',
          name: 's-s1',
          kind: 'stalled',
          reason: stalled.reason,
          since: stalled.since,
        },
      ],
    ])
    // Still stalled (its reason counts the minutes): nothing new.
    expect(kinds(at(stalled), at({ ...stalled, reason: 'no progress for 13 min' }))).toEqual([])
    expect(kinds(at(stalled), at(failing)).map(([type]) => type)).toEqual(['session_trouble'])
    expect(kinds(at(failing), at(null))).toEqual([
      ['session_trouble_cleared', { agent: 'claude', name: 's-s1', kind: 'failing_command' }],
    ])
    // An ended session's trouble is over; so is a vanished one's.
    expect(kinds(at(failing), at(null, 'ended')).map(([type]) => type)).toEqual([
      'session_trouble_cleared',
    ])
    expect(kinds(at(failing), snap({ sessions: [] })).map(([type]) => type)).toEqual([
      'session_trouble_cleared',
    ])
    // The same trouble seen by two engines (or after a restart) has the same id.
    const a = diffSnapshots(at(null), at(stalled), ctx).find((e) => e.type === 'session_trouble')
    const b = diffSnapshots(at(null), at(stalled), { ...ctx, now: NOW + 5000 }).find(
      (e) => e.type === 'session_trouble',
    )
    expect(a?.id).toBe(b?.id)
  })
})
