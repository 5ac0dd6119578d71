/** Where a delegated task runs (electron/tasks/core/resolve-directory.ts): a table of texts → directories. */
import { describe, expect, it } from 'vitest'
import {
  containsWord,
  resolveTaskDirectory,
  type ResolveInput,
} from '../../electron/tasks/core/resolve-directory.ts'

const projects = [
  { name: 'apollo', aliases: ['the site'], dir: '/code/apollo' },
  { name: 'hermes', aliases: [], dir: '/code/hermes' },
  { name: 'c++lib', aliases: [], dir: '/code/cpplib' },
]
const rules = [
  { keywords: ['notes', 'backlog', 'meeting notes'], dir: '/home/u/Notes', priority: 1 },
  { keywords: ['script', 'cron'], dir: '/code', priority: 4 },
]
const base: ResolveInput = { text: '', projects, rules, fallback: null }
const where = (text: string, over: Partial<ResolveInput> = {}) => {
  const r = resolveTaskDirectory({ ...base, ...over, text })
  return r.kind === 'resolved' ? r.dir : r.kind
}

describe('resolveTaskDirectory', () => {
  it.each([
    ['fix the login bug in apollo', '/code/apollo'],
    ['Fix the Login bug in APOLLO.', '/code/apollo'],
    ['update the footer of the site', '/code/apollo'],
    ['bump hermes to node 22', '/code/hermes'],
    ['build c++lib with -O2', '/code/cpplib'],
    // A priority-1 rule beats a project named in passing (seed 004: notes before projects).
    ['add "apollo alerts" to the backlog', '/home/u/Notes'],
    ['write up the meeting notes', '/home/u/Notes'],
    // Projects (priority 3) beat a priority-4 rule.
    ['write a cron script for hermes', '/code/hermes'],
    ['write a cron job that cleans tmp', '/code'],
  ])('%s → %s', (text, dir) => {
    expect(where(text)).toBe(dir)
  })

  it.each([
    // Word boundaries: none of these is a keyword or a project.
    ['turn off the notification sound', 'none'],
    ['apollonian gasket renderer', 'none'],
    ['rehermesize the logs', 'none'],
    ['description of the scripting engine', 'none'],
    ['', 'none'],
  ])('%s → nothing (ask)', (text, kind) => {
    expect(where(text)).toBe(kind)
  })

  it('is ambiguous when two projects at one priority are named, and lists them', () => {
    const r = resolveTaskDirectory({ ...base, text: 'port the apollo parser to hermes' })
    expect(r.kind).toBe('ambiguous')
    if (r.kind === 'ambiguous') {
      expect(r.candidates.map((c) => c.project)).toEqual(['apollo', 'hermes'])
      expect(r.candidates[0]?.why).toBe('"apollo" in the task')
    }
  })

  it('takes the default when nothing matches, and a choice over everything', () => {
    expect(where('tidy things up', { fallback: '/home/u' })).toBe('/home/u')
    expect(where('fix apollo', { project: 'hermes' })).toBe('/code/hermes')
    expect(where('fix apollo', { project: 'The Site' })).toBe('/code/apollo')
    expect(where('fix apollo', { cwd: '/tmp/x' })).toBe('/tmp/x')
    const unknown = resolveTaskDirectory({ ...base, text: 'x', project: 'zeus' })
    expect(unknown).toEqual({ kind: 'none', reason: 'no project is named "zeus"' })
  })

  it('names the project of a directory chosen by rule or --cwd when it is one', () => {
    const r = resolveTaskDirectory({ ...base, text: 'anything', cwd: '/code/apollo/' })
    expect(r).toMatchObject({ kind: 'resolved', project: 'apollo', why: '--cwd' })
  })
})

describe('containsWord', () => {
  it('matches whole words and phrases across whitespace, never inside a word', () => {
    expect(containsWord('set  up a\nnew repo', 'set up a')).toBe(true)
    expect(containsWord('setup a repo', 'set up a')).toBe(false)
    expect(containsWord('notes.md', 'notes')).toBe(true)
    expect(containsWord('footnotes', 'notes')).toBe(false)
    expect(containsWord('note_taking', 'note')).toBe(false)
    expect(containsWord('café', 'caf')).toBe(false)
    expect(containsWord('a (regex) [chars]', '(regex)')).toBe(true)
    expect(containsWord('anything', '  ')).toBe(false)
  })
})
