import { describe, expect, it } from 'vitest'
import { ruleSuggestions } from '../../electron/pm/core/suggestion-rules.ts'
import type { ProjectSnapshot } from '../../shared/schemas/project.ts'
import { makeProject } from '../support/pm-events-fixture.ts'
import { makeSession } from '../support/session-fixture.ts'

const done = { id: 'PBI-8', title: 'Widget', tasks: { done: 3, in_progress: 0, todo: 0, total: 3 } }
const ready = (over: Partial<ProjectSnapshot> = {}) =>
  makeProject({ name: 'apollo', current_pbi: done, commits_ahead: 2, has_pr: false, ...over })

describe('ruleSuggestions: open_pr', () => {
  it('all tasks done, ahead, no PR: ready for a PR, with its evidence and "open the project"', () => {
    expect(ruleSuggestions([ready()])).toEqual([
      {
        kind: 'open_pr',
        project: 'apollo',
        title: 'PBI-8 Widget is done: ready for a PR?',
        evidence: [
          'all 3 tasks of PBI-8 Widget are done',
          'main is 2 commits ahead of its upstream',
          'no pull request is open for main',
        ],
        action: { type: 'open_project', project: 'apollo' },
        source: 'rule',
      },
    ])
  })

  it.each<[string, Partial<ProjectSnapshot>]>([
    ['a task left', { current_pbi: { ...done, tasks: { ...done.tasks, done: 2, todo: 1 } } }],
    [
      'no tasks at all',
      { current_pbi: { ...done, tasks: { done: 0, in_progress: 0, todo: 0, total: 0 } } },
    ],
    ['no task list', { current_pbi: null }],
    ['nothing ahead', { commits_ahead: 0 }],
    ['ahead unknown', { commits_ahead: null }],
    ['a PR is open', { has_pr: true }],
    ['PR state unknown (no gh)', { has_pr: null }],
    ['no branch (detached)', { branch: null }],
  ])('none when %s', (_name, over) => {
    expect(ruleSuggestions([ready(over)])).toEqual([])
  })
})

describe('ruleSuggestions: sessions in trouble', () => {
  it('a long wait is unblock_session, anything else review_stall; ended sessions say nothing', () => {
    const since = '2026-11-26T09:00:00.000Z'
    const project = makeProject({
      name: 'apollo',
      sessions: [
        makeSession({
          id: 's1',
          name: 'fixer',
          status: 'needs_permission',
          tmux_pane: '%1',
          trouble: { kind: 'waiting_long', reason: 'waiting on a permission for 20 min', since },
        }),
        makeSession({
          id: 's2',
          name: 'looper',
          status: 'working',
          trouble: { kind: 'failing_command', reason: 'npm test failed 3 times in a row', since },
        }),
        makeSession({
          id: 's3',
          status: 'ended',
          trouble: { kind: 'stalled', reason: 'x', since },
        }),
      ],
    })
    expect(ruleSuggestions([project])).toEqual([
      {
        kind: 'unblock_session',
        project: 'apollo',
        title: 'fixer is waiting on you',
        evidence: ['waiting on a permission for 20 min', `since ${since}`],
        action: { type: 'go_to_session', project: 'apollo', session_id: 's1' },
        source: 'rule',
      },
      {
        kind: 'review_stall',
        project: 'apollo',
        title: 'looper looks stuck',
        evidence: ['npm test failed 3 times in a row', `since ${since}`],
        action: { type: 'open_project', project: 'apollo' },
        source: 'rule',
      },
    ])
  })
})
