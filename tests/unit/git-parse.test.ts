import { describe, expect, it } from 'vitest'
import {
  branchForTip,
  isObjectId,
  parseBranchHeads,
  parseGhPrView,
  parseLogRecords,
  parseStatusV2,
  parseWorktreeList,
  planNewCommitsQuery,
} from '../../electron/engine/core/git-parse.ts'

const A = 'a'.repeat(40)
const B = 'b'.repeat(40)
const C = 'c'.repeat(40)
const US = '\x1f'

describe('parseLogRecords', () => {
  it('reads NUL-terminated records with hostile subjects verbatim', () => {
    const hostile = 'fix: "quotes" \'single\'\ttab $(rm -rf ~) `id`'
    const text = [
      [A, B, 'Ada Lovelace', '2026-01-02T03:04:05+00:00', hostile].join(US),
      [B, B, 'Bob', '2026-01-01T00:00:00+00:00', 'second'].join(US),
      '',
    ].join('\0')
    const records = parseLogRecords(text)
    expect(records).toEqual([
      {
        sha: A,
        source: B,
        author: 'Ada Lovelace',
        timestamp: '2026-01-02T03:04:05+00:00',
        subject: hostile,
      },
      {
        sha: B,
        source: B,
        author: 'Bob',
        timestamp: '2026-01-01T00:00:00+00:00',
        subject: 'second',
      },
    ])
  })

  it('keeps a separator inside the subject and skips malformed records', () => {
    const text = [
      [A, 'HEAD', 'x', 't', `a${US}b`].join(US),
      'not a record',
      ['zz', 'HEAD', 'x', 't', 's'].join(US),
      [C, 'HEAD'].join(US),
    ].join('\0')
    const records = parseLogRecords(text)
    expect(records.map((r) => r.subject)).toEqual([`a${US}b`])
  })

  it('tolerates a newline before a record (log without -z terminators)', () => {
    expect(parseLogRecords(`\n${[A, 'HEAD', 'x', 't', 'msg'].join(US)}\0`)).toHaveLength(1)
  })
})

describe('parseBranchHeads', () => {
  it('maps branch names (with slashes) to shas and ignores other refs and junk', () => {
    const text = `${A} refs/heads/main\n${B} refs/heads/feature/x\n${C} refs/tags/v1\ngarbage\n`
    expect(parseBranchHeads(text)).toEqual({ main: A, 'feature/x': B })
  })
})

describe('parseWorktreeList', () => {
  it('reads the -z form, main first, detached branch null, bare skipped', () => {
    const text = [
      'worktree /repo',
      `HEAD ${A}`,
      'branch refs/heads/main',
      '',
      'worktree /wt/feature',
      `HEAD ${B}`,
      'detached',
      '',
      'worktree /bare.git',
      'bare',
      '',
    ].join('\0')
    expect(parseWorktreeList(text)).toEqual([
      { path: '/repo', branch: 'main', head_sha: A },
      { path: '/wt/feature', branch: null, head_sha: B },
    ])
  })

  it('reads the newline form and paths with spaces', () => {
    const text = `worktree /my repo\nHEAD ${A}\nbranch refs/heads/dev\n\n`
    expect(parseWorktreeList(text)).toEqual([{ path: '/my repo', branch: 'dev', head_sha: A }])
  })
})

describe('parseStatusV2', () => {
  it('reads branch, upstream, ahead/behind and counts entries (rename takes two fields)', () => {
    const text = [
      `# branch.oid ${A}`,
      '# branch.head main',
      '# branch.upstream origin/main',
      '# branch.ab +2 -1',
      '2 R. N... 100644 100644 100644 abc abc R100 new name',
      'old name',
      '1 .M N... 100644 100644 100644 abc abc file',
      '? untracked',
      '',
    ].join('\0')
    expect(parseStatusV2(text)).toEqual({
      headSha: A,
      branch: 'main',
      detached: false,
      upstream: 'origin/main',
      ahead: 2,
      behind: 1,
      changedEntries: 3,
    })
  })

  it('reads a detached, clean HEAD without upstream', () => {
    const s = parseStatusV2(`# branch.oid ${B}\0# branch.head (detached)\0`)
    expect(s).toMatchObject({
      headSha: B,
      branch: null,
      detached: true,
      upstream: null,
      ahead: null,
    })
    expect(s.changedEntries).toBe(0)
  })

  it('reads an unborn branch: no head sha', () => {
    const s = parseStatusV2('# branch.oid (initial)\0# branch.head main\0? a\0')
    expect(s).toMatchObject({ headSha: null, branch: 'main', changedEntries: 1 })
  })

  it('an upstream that is gone has no ahead/behind', () => {
    const s = parseStatusV2(`# branch.oid ${A}\0# branch.head x\0# branch.upstream origin/x\0`)
    expect(s).toMatchObject({ upstream: 'origin/x', ahead: null, behind: null })
  })
})

describe('planNewCommitsQuery', () => {
  it('is null on first sight and when no head moved', () => {
    expect(planNewCommitsQuery({ main: A }, null)).toBeNull()
    expect(planNewCommitsQuery({ main: A, copy: A }, { main: A })).toBeNull()
  })

  it('walks only moved or new heads and excludes every old head', () => {
    expect(planNewCommitsQuery({ main: B, dev: A }, { main: A, gone: C })).toEqual({
      include: [B],
      exclude: [A, C],
    })
  })

  it('drops anything that is not an object id (an option-looking string from a corrupt snapshot)', () => {
    expect(planNewCommitsQuery({ main: B }, { main: '--output=/tmp/x', old: A })).toEqual({
      include: [B],
      exclude: [A],
    })
    expect(isObjectId('--all')).toBe(false)
    expect(isObjectId('f'.repeat(64))).toBe(true)
  })
})

describe('branchForTip', () => {
  it('prefers the current branch, then the first branch at that tip, else null', () => {
    const heads = { alpha: A, main: A, dev: B }
    expect(branchForTip(A, heads, 'main')).toBe('main')
    expect(branchForTip(A, heads, 'dev')).toBe('alpha')
    expect(branchForTip(C, heads, 'main')).toBeNull()
  })
})

describe('parseGhPrView', () => {
  it('maps gh states and keeps number and url', () => {
    const out = JSON.stringify({ state: 'OPEN', number: 7, url: 'https://github.com/o/r/pull/7' })
    expect(parseGhPrView(0, out, '')).toEqual({
      state: 'open',
      number: 7,
      url: 'https://github.com/o/r/pull/7',
    })
    expect(parseGhPrView(0, '{"state":"MERGED","number":1}', '').state).toBe('merged')
  })

  it('no PR is none; auth, remote and garbage failures are unknown', () => {
    expect(parseGhPrView(1, '', 'no pull requests found for branch "x"')).toEqual({ state: 'none' })
    expect(
      parseGhPrView(4, '', 'To get started with GitHub CLI, please run: gh auth login'),
    ).toEqual({
      state: 'unknown',
    })
    expect(parseGhPrView(0, 'not json', '')).toEqual({ state: 'unknown' })
    expect(parseGhPrView(0, '{"state":"DRAFTY"}', '')).toEqual({ state: 'unknown' })
    expect(parseGhPrView(undefined, '', '')).toEqual({ state: 'unknown' })
  })
})
