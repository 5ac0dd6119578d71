/** Fixture data for the popover's layout cases: empty, a realistic day, overflow, and many events. */
import {
  engineEventSchema,
  type EngineEvent,
  type EventType,
} from '../../../shared/schemas/event.ts'
import type { ProjectSnapshot } from '../../../shared/schemas/project.ts'
import { settingsSchema } from '../../../shared/schemas/settings.ts'
import { makeProject } from '../../support/pm-events-fixture.ts'
import { makeSession } from '../../support/session-fixture.ts'
import type { StubData } from './api-stub.ts'

const MIN = 60_000
const iso = (now: number, minutesAgo: number) => new Date(now - minutesAgo * MIN).toISOString()

export function emptyData(now: number): StubData {
  return {
    state: { projects: [], generated_at: iso(now, 0), errors: [] },
    events: [],
    briefing: {
      state: { briefing: null, is_stale: false, error: null, claude_missing: null },
      running: null,
    },
    settings: settingsSchema.parse({}),
    tools: ['claude', 'git', 'tmux', 'gh'].map((name) => ({
      name: name as 'claude',
      found: true,
      path: `/usr/bin/${name}`,
      fix: null,
    })),
  }
}

/** A realistic afternoon: the seed's three projects and two more, a briefing and a mixed event log. */
export function richData(now: number): StubData {
  const tasks = (titles: string[], done: number) =>
    titles.map((title, i) => ({
      id: String(i + 1),
      title,
      status:
        i < done
          ? ('completed' as const)
          : i === done
            ? ('in_progress' as const)
            : ('pending' as const),
    }))
  const naviTasks = tasks(
    [
      'Inbox budget',
      'Scheduler',
      'Tray icon state',
      'Popover zones',
      'Notifications',
      'Settings',
      'E2E',
    ],
    2,
  )
  const projects: ProjectSnapshot[] = [
    makeProject({
      name: 'apollo',
      attention: 'pbi_complete',
      branch: 'feat/research-agent',
      commits_ahead: 12,
      current_pbi: { id: 'PBI-8', title: 'Research Agent', tasks: counts(5, 5) },
      session_status: 'idle',
      last_activity: iso(now, 62),
      sessions: [
        makeSession({
          id: 's-apollo',
          name: 'apollo-main',
          status: 'idle',
          last_activity: iso(now, 62),
        }),
      ],
      git: gitState(now, 'feat/research-agent', [
        ['9f3c2a1', 'Connect resolver to the schema registry', 48],
        ['1b2d3e4', 'Schema migrations for sources', 95],
      ]),
    }),
    makeProject({
      name: 'navi',
      attention: 'needs_input',
      branch: 'main',
      current_pbi: { id: 'PBI-29', title: 'Orchestrator', tasks: counts(2, 7) },
      session_status: 'needs_permission',
      session_status_reason: 'Claude needs your permission to use Bash: npm test',
      last_activity: iso(now, 3),
      sessions: [
        makeSession({
          id: 's-navi',
          name: 'navi-7',
          status: 'needs_permission',
          status_reason: 'Claude needs your permission to use Bash: npm test',
          last_activity: iso(now, 3),
          tmux_pane: '%3',
          tmux_socket: '/tmp/tmux-0/default',
        }),
        makeSession({
          id: 's-navi-2',
          agent: 'codex',
          name: 'fix-ci',
          status: 'working',
          last_activity: iso(now, 1),
        }),
      ],
      task_lists: [
        { id: 'PBI-29', title: 'PBI-29 Orchestrator', source: 'checklist', tasks: naviTasks },
      ],
      git: gitState(now, 'main', [['c0ffee1', 'Add the inbox budget', 20]]),
    }),
    makeProject({
      name: 'mnemos',
      attention: 'idle',
      current_pbi: { id: 'PBI-3', title: 'Classification', tasks: counts(0, 4) },
      session_status: 'ended',
      last_activity: iso(now, 3 * 24 * 60),
    }),
    makeProject({
      name: 'website',
      attention: 'active',
      branch: 'redesign',
      session_status: 'working',
      session_status_reason: 'running Bash',
      last_activity: iso(now, 0.5),
    }),
    makeProject({
      name: 'dotfiles',
      attention: 'stale',
      branch: 'main',
      last_activity: iso(now, 26 * 60),
    }),
  ]
  const data = emptyData(now)
  return {
    ...data,
    state: { projects, generated_at: iso(now, 0), errors: [] },
    events: dayOfEvents(now),
    briefing: {
      state: {
        briefing: {
          output: {
            briefing:
              'Apollo finished PBI-8 while you were away: all 5 tasks done, the branch is 12 commits ahead and has no PR. Navi has been waiting on a permission prompt for 3 minutes.',
            projects: [],
            attention_items: [
              { project: 'apollo', priority: 'medium', title: 'All tasks done, create a PR?' },
              {
                project: 'navi',
                priority: 'high',
                title: 'Permission request pending',
                description: 'npm test',
              },
            ],
            breadcrumbs: [
              {
                project: 'apollo',
                message: 'You were about to review the resolver before merging.',
              },
            ],
            suggestions: [],
            patterns: [],
          },
          generated_at: iso(now, 2),
          trigger: 'task_completed',
        },
        is_stale: false,
        error: null,
        claude_missing: null,
      },
      running: null,
    },
  }
}

/** 30 projects with very long names, titles, reasons and commit subjects. */
export function overflowData(now: number): StubData {
  const long = 'an-extremely-long-project-name-that-keeps-going-and-going'
  const attention = ['needs_input', 'pbi_complete', 'active', 'stale', 'idle'] as const
  const projects = Array.from({ length: 30 }, (_, i) =>
    makeProject({
      name: `${long}-${i}`,
      attention: attention[i % 5] ?? 'idle',
      branch: `feature/${'very-long-branch-name-'.repeat(4)}${i}`,
      current_pbi: {
        id: `PBI-${100 + i}`,
        title: 'A product backlog item whose title is far too long to fit on one line of a popover',
        tasks: counts(i % 8, 8),
      },
      session_status: i % 5 === 0 ? 'needs_permission' : 'working',
      session_status_reason:
        i % 5 === 0 ? `Claude needs your permission to use Bash: ${'x'.repeat(200)}` : null,
      last_activity: iso(now, i * 7),
    }),
  )
  const events = Array.from({ length: 60 }, (_, i) =>
    event(now, i, 'commit', `${long}-${i % 30}`, {
      sha: `${String(i).padStart(7, 'a')}ffff`,
      message: `Refactor ${'the connection resolver and its schema registry '.repeat(5)}`,
      branch: 'main',
    }),
  )
  const rich = richData(now)
  return {
    ...rich,
    state: {
      projects,
      generated_at: iso(now, 0),
      errors: ['git failed in /work/x: fatal: not a git repository'],
    },
    events,
    tools: rich.tools.map((t) =>
      t.name === 'gh'
        ? { ...t, found: false, path: null, fix: 'brew install gh (or see https://cli.github.com)' }
        : t,
    ),
  }
}

/** `count` events, one a minute, newest first, of every type. */
export function manyEvents(now: number, count: number): EngineEvent[] {
  const types: EventType[] = [
    'commit',
    'task_completed',
    'session_status_change',
    'task_started',
    'branch_created',
  ]
  return Array.from({ length: count }, (_, i) => {
    const type = types[i % types.length] ?? 'commit'
    return event(now, i, type, ['apollo', 'navi', 'mnemos'][i % 3] ?? 'apollo', detailsFor(type, i))
  })
}

function dayOfEvents(now: number): EngineEvent[] {
  return [
    event(now, 1, 'task_completed', 'navi', { task_title: 'Scheduler', pbi: 'PBI-29' }),
    event(now, 3, 'session_status_change', 'navi', {
      name: 'navi-7',
      from: 'working',
      to: 'needs_permission',
      reason: 'Claude needs your permission to use Bash: npm test',
    }),
    event(now, 20, 'commit', 'navi', {
      sha: 'c0ffee1234',
      message: 'Add the inbox budget',
      branch: 'main',
    }),
    event(now, 48, 'commit', 'apollo', {
      sha: '9f3c2a1234',
      message: 'Connect resolver to the schema registry',
      branch: 'feat/research-agent',
      more_commits: 3,
    }),
    event(now, 50, 'task_completed', 'apollo', { task_title: 'Connection resolver' }),
    event(now, 62, 'pbi_completed', 'apollo', { title: 'PBI-8 Research Agent' }),
    event(now, 90, 'session_started', 'website', { agent: 'claude', name: 'redesign' }),
    event(now, 95, 'branch_created', 'website', { branch: 'redesign' }),
    event(now, 130, 'pr_created', 'dotfiles', { branch: 'main', number: 7 }),
    event(now, 200, 'session_ended', 'mnemos', { name: 'mnemos-1', reason: 'no longer found' }),
  ]
}

function detailsFor(type: EventType, i: number): Record<string, unknown> {
  if (type === 'commit')
    return {
      sha: `${i.toString(16).padStart(7, '0')}abc`,
      message: `Commit number ${i}`,
      branch: 'main',
    }
  if (type === 'session_status_change') return { name: `s-${i}`, from: 'working', to: 'idle' }
  if (type === 'branch_created') return { branch: `b-${i}` }
  return { task_title: `Task ${i}` }
}

function event(
  now: number,
  minutesAgo: number,
  type: EventType,
  project: string,
  details: Record<string, unknown>,
): EngineEvent {
  const id = `ev-${minutesAgo}-${type}`
  return engineEventSchema.parse({ id, timestamp: iso(now, minutesAgo), type, project, details })
}

function counts(done: number, total: number) {
  return { done, in_progress: done < total ? 1 : 0, todo: Math.max(0, total - done - 1), total }
}

function gitState(
  now: number,
  branch: string,
  commits: [string, string, number][],
): ProjectSnapshot['git'] {
  return {
    head_sha: commits[0]?.[0] ?? null,
    branch,
    detached: false,
    commits_ahead: 0,
    commits_behind: 0,
    upstream: null,
    dirty: false,
    branch_heads: {},
    worktrees: [{ path: `/work/${branch}`, branch, head_sha: null }],
    recent_commits: commits.map(([sha, subject, minutesAgo]) => ({
      sha: `${sha}${'0'.repeat(33)}`,
      subject,
      branch,
      timestamp: iso(now, minutesAgo),
    })),
    pr: { state: 'none' },
    error: null,
  }
}
