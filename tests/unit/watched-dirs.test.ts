import { describe, expect, it } from 'vitest'
import { noHints } from '../../electron/engine/core/source-hints.ts'
import { naviFiles } from '../../electron/engine/core/paths.ts'
import {
  isOwnWrite,
  noteChange,
  noteNewlyWatched,
  watchedDirs,
} from '../../electron/engine/watched-dirs.ts'

const paths = { naviHome: '/n', claudeConfigDir: '/c', codexHome: '/x' }
const none = () => noHints()

describe('noteChange', () => {
  it.each([
    [
      'a transcript line appended',
      '/c/projects',
      'p/s.jsonl',
      { transcripts: ['/c/projects/p/s.jsonl'] },
    ],
    ['a task file of a list', '/c/tasks', 'list-1/3.json', { taskLists: ['list-1'] }],
    [
      'a rollout',
      '/x/sessions',
      '2026/11/24/rollout-a.jsonl',
      { rollouts: ['/x/sessions/2026/11/24/rollout-a.jsonl'] },
    ],
    ['a new project folder', '/c/projects', 'new-project', { full: true }],
    ['a root', '/c', 'projects', { full: true }],
    ['an event that names no file', '/c/sessions', null, { full: true }],
    ['a live-session file', '/c/sessions', '4242.json', { live: true }],
    ['the hook inbox', '/n/hooks', 'events.jsonl', { hooks: true }],
    ['a spooled hook event', '/n/hooks/spool', 'Ab3dE5gH9k.json', { hooks: true }],
    ['config.yaml', '/n', 'config.yaml', { config: true }],
    ['settings.json', '/n', 'settings.json', { config: true }],
  ] as const)('%s', (_name, dir, file, expected) => {
    const hints = none()
    const full = noteChange(hints, paths, dir, file)
    expect(full).toBe('full' in expected)
    expect(hints.full).toBe('full' in expected)
    expect([...hints.transcripts]).toEqual('transcripts' in expected ? expected.transcripts : [])
    expect([...hints.taskLists]).toEqual('taskLists' in expected ? expected.taskLists : [])
    expect([...hints.rollouts]).toEqual('rollouts' in expected ? expected.rollouts : [])
    if (!('full' in expected)) {
      expect({ live: hints.live, hooks: hints.hooks, config: hints.config }).toEqual({
        live: 'live' in expected,
        hooks: 'hooks' in expected,
        config: 'config' in expected,
      })
    }
  })
})

describe('the watch list', () => {
  it('covers the roots and the session folders; Navi’s own writes wake nothing but config.yaml', () => {
    expect(watchedDirs(paths).map((d) => d.path)).toEqual([
      '/c',
      '/x',
      '/n',
      '/c/projects',
      '/c/sessions',
      '/c/tasks',
      '/n/hooks',
      '/n/hooks/spool',
      '/x/sessions',
    ])
    expect(isOwnWrite(paths, '/n', 'events.jsonl.lock')).toBe(true)
    expect(isOwnWrite(paths, '/n', 'config.yaml')).toBe(false)
    expect(isOwnWrite(paths, '/n/hooks', 'events.jsonl')).toBe(false)
    // In the hook spool only a finished event is news: not the handler's temp file, not a drain's claim.
    expect(isOwnWrite(paths, '/n/hooks/spool', 'Ab3dE5gH9k.json')).toBe(false)
    expect(isOwnWrite(paths, '/n/hooks/spool', '.new.Ab3dE5gH9k')).toBe(true)
    expect(isOwnWrite(paths, '/n/hooks/spool', 'Ab3dE5gH9k.json.claimed.42')).toBe(true)
    expect(isOwnWrite(paths, '/n/hooks/spool', null)).toBe(false)
  })
})

describe('noteNewlyWatched', () => {
  const files = naviFiles(paths)
  it.each<[string, string, Partial<ReturnType<typeof noHints>>]>([
    ['the hook inbox', files.hooksDir, { hooks: true, full: false }],
    ['the hook spool', files.hookSpool, { hooks: true, full: false }],
    ['the live sessions', files.claudeSessions, { live: true, full: false }],
    ['NAVI_HOME (Navi made it)', paths.naviHome, { full: false, config: false }],
    ['the Claude config folder', paths.claudeConfigDir, { full: true }],
    ['the transcripts', files.claudeProjects, { full: true }],
    ["Codex's sessions", files.codexSessions, { full: true }],
  ])('a newly watched %s', (_name, dir, expected) => {
    const hints = noHints()
    noteNewlyWatched(hints, paths, [dir])
    expect(hints).toMatchObject(expected)
  })

  it('none newly watched asks for nothing', () => {
    const hints = noHints()
    noteNewlyWatched(hints, paths, [])
    expect(hints).toEqual(noHints())
  })
})
