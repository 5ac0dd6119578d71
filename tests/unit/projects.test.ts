import { describe, expect, it } from 'vitest'
import { groupProjects, nameProjects } from '../../electron/engine/core/projects.ts'
import { buildSnapshot, sortByAttention } from '../../electron/engine/core/snapshot.ts'
import type { ProjectSnapshot } from '../../shared/schemas/project.ts'
import type { Session } from '../../shared/schemas/session.ts'
import { makeSession } from '../support/session-fixture.ts'

const NOW = Date.parse('2026-11-21T12:00:00Z')
const iso = (ms: number) => new Date(ms).toISOString()

function session(id: string, cwd: string, over: Partial<Session> = {}): Session {
  return makeSession({
    id,
    cwd,
    started_at: iso(NOW - 9000),
    last_activity: iso(NOW - 1000),
    ...over,
  })
}

const repos: Record<string, string> = {
  '/w/apollo': '/w/apollo',
  '/w/apollo/src': '/w/apollo',
  '/w/apollo-wt': '/w/apollo',
}

describe('groupProjects', () => {
  it('groups sessions anywhere inside a repo or its worktrees; a cwd outside any repo is its own project', () => {
    const groups = groupProjects({
      sessions: [
        session('a', '/w/apollo/src'),
        session('b', '/w/apollo-wt'),
        session('c', '/tmp/loose'),
      ],
      repoRootOf: (dir) => repos[dir] ?? null,
      registered: [{ path: '/w/mnemos', name: 'mnemos' }],
      isIgnored: () => false,
    })
    const byDir = new Map(groups.map((g) => [g.projectDir, g]))
    expect(byDir.get('/w/apollo')?.sessions.map((s) => s.id)).toEqual(['a', 'b'])
    expect(byDir.get('/w/apollo')?.sessions[0]?.project_dir).toBe('/w/apollo')
    expect(byDir.get('/tmp/loose')?.isGit).toBe(false)
    expect(byDir.get('/w/mnemos')).toMatchObject({
      registered: true,
      configuredName: 'mnemos',
      sessions: [],
    })
  })

  it('ignored paths drop sessions and registered projects', () => {
    const groups = groupProjects({
      sessions: [session('a', '/scratch/x')],
      repoRootOf: () => null,
      registered: [{ path: '/scratch/y' }],
      isIgnored: (dir) => dir.startsWith('/scratch'),
    })
    expect(groups).toEqual([])
  })
})

describe('nameProjects', () => {
  it('uses the directory name, adds parents on collision, keeps configured names', () => {
    const group = (projectDir: string, configuredName: string | null = null) => ({
      projectDir,
      isGit: true,
      registered: false,
      configuredName,
      tasksFile: null,
      sessions: [],
    })
    const names = nameProjects([
      group('/work/api'),
      group('/oss/api'),
      group('/w/navi'),
      group('/x/y', 'navi'),
    ])
    expect(names.get('/work/api')).toBe('work/api')
    expect(names.get('/oss/api')).toBe('oss/api')
    expect(names.get('/x/y')).toBe('navi')
    expect(names.get('/w/navi')).toBe('w/navi')
    expect(new Set(names.values()).size).toBe(4)
  })

  it('a name once given stays when a namesake project appears later', () => {
    const group = (projectDir: string) => ({
      projectDir,
      isGit: true,
      registered: false,
      configuredName: null,
      tasksFile: null,
      sessions: [],
    })
    const first = nameProjects([group('/work/api')])
    expect(first.get('/work/api')).toBe('api')
    const later = nameProjects([group('/work/api'), group('/oss/api')], first)
    expect(later.get('/work/api')).toBe('api')
    expect(later.get('/oss/api')).toBe('oss/api')
  })
})

describe('buildSnapshot + sortByAttention', () => {
  const base = { git: null, checklists: [], errors: [], now: NOW }
  const group = (dir: string, sessions: Session[], registered = false) => ({
    projectDir: dir,
    isGit: false,
    registered,
    configuredName: null,
    tasksFile: null,
    sessions: sessions.map((s) => ({ ...s, project_dir: dir })),
  })

  it('orders needs input → pbi complete → active → stale → idle', () => {
    const waiting = buildSnapshot({
      ...base,
      name: 'w',
      group: group('/w', [session('1', '/w', { status: 'needs_permission' })]),
    })
    const done = buildSnapshot({
      ...base,
      name: 'd',
      group: group('/d', [
        session('2', '/d', {
          status: 'ended',
          last_activity: iso(NOW - 5000),
          task_lists: [
            {
              id: 'l',
              title: 'L',
              source: 'claude_tasks',
              tasks: [{ id: '1', title: 't', status: 'completed' }],
            },
          ],
        }),
      ]),
    })
    const active = buildSnapshot({
      ...base,
      name: 'a',
      group: group('/a', [session('3', '/a', { status: 'working' })]),
    })
    const stale = buildSnapshot({
      ...base,
      name: 's',
      now: NOW,
      group: group('/s', [
        session('4', '/s', {
          status: 'ended',
          last_activity: iso(NOW - 3 * 86_400_000),
          task_lists: [
            {
              id: 'm',
              title: 'M',
              source: 'claude_tasks',
              tasks: [{ id: '1', title: 't', status: 'pending' }],
            },
          ],
        }),
      ]),
    })
    const idle = buildSnapshot({ ...base, name: 'i', group: group('/i', [], true) })
    const all = [idle, stale, active, done, waiting].filter((x) => x !== null)
    expect(all).toHaveLength(5)
    expect(sortByAttention(all).map((p) => [p.name, p.attention])).toEqual([
      ['w', 'needs_input'],
      ['d', 'pbi_complete'],
      ['a', 'active'],
      ['s', 'stale'],
      ['i', 'idle'],
    ])
  })

  it('sorts within a group newest first, never-active last, and ties by name', () => {
    const project = (name: string, attention: ProjectSnapshot['attention'], at: string | null) =>
      ({ name, attention, last_activity: at }) as ProjectSnapshot
    const sorted = sortByAttention([
      project('never-b', 'idle', null),
      project('old', 'idle', '2026-01-01T00:00:00.000Z'),
      project('never-a', 'idle', 'not a time'),
      project('tie-b', 'idle', '2026-02-01T00:00:00.000Z'),
      project('new', 'idle', '2026-03-01T00:00:00.000Z'),
      project('tie-a', 'idle', '2026-02-01T00:00:00.000Z'),
      project('waiting', 'needs_input', '2025-01-01T00:00:00.000Z'),
    ])
    expect(sorted.map((p) => p.name)).toEqual([
      'waiting',
      'new',
      'tie-a',
      'tie-b',
      'old',
      'never-a',
      'never-b',
    ])
  })

  it('ties by name the same whatever the locale: case-insensitive, then as written', () => {
    const tied = (name: string) =>
      ({ name, attention: 'idle', last_activity: null }) as unknown as ProjectSnapshot
    const names = ['beta', 'Zeta', 'alpha', 'Beta', 'été', 'api-2', 'api']
    const sorted = sortByAttention(names.map(tied)).map((p) => p.name)
    expect(sorted).toEqual(['alpha', 'api', 'api-2', 'Beta', 'beta', 'Zeta', 'été'])
    expect(sortByAttention([...names].reverse().map(tied)).map((p) => p.name)).toEqual(sorted)
  })

  it('drops an unregistered project with nothing in the last week', () => {
    const old = session('1', '/o', { status: 'ended', last_activity: iso(NOW - 8 * 86_400_000) })
    expect(buildSnapshot({ ...base, name: 'o', group: group('/o', [old]) })).toBeNull()
  })
})

describe('groupProjects: paths from other machines', () => {
  it('folds the drive letter of a Windows cwd, so C:\\x and c:\\x are one project', () => {
    const groups = groupProjects({
      sessions: [session('a', 'C:\\Users\\tom\\app'), session('b', 'c:\\Users\\tom\\app')],
      repoRootOf: () => null,
      registered: [],
      isIgnored: () => false,
    })
    expect(groups.map((g) => [g.projectDir, g.sessions.length])).toEqual([
      ['C:\\Users\\tom\\app', 2],
    ])
  })
})
