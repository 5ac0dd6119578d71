/**
 * The answer cache's checks (electron/runtime/answer-cache/answer-cache.ts): saved answers hold only with the
 * same key, inside their clock window, every path's stamp and every pid's life as recorded; a recorded
 * run's answers are kept only when it wrote and started nothing and nothing it read changed near or
 * during its read.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  utimesSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  ANSWER_FILES_KEPT,
  ANSWERS_FORMAT,
  answerKey,
  answersFile,
  freshAnswers,
  RACY_MARGIN_MS,
  unfitToKeep,
  type SavedAnswers,
} from '../../electron/runtime/answer-cache/answer-cache.ts'
import { stampOf, type PathStamp } from '../../electron/runtime/answer-cache/path-stamp.ts'
import type { Recording } from '../../electron/runtime/answer-cache/input-recorder.ts'
import { keepAnswers } from '../../electron/runtime/answer-cache/kept-answers.ts'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'navi-answers-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const NOW = Date.now()

function saved(over: Partial<SavedAnswers> = {}): { file: string; input: SavedAnswers } {
  const input: SavedAnswers = {
    format: ANSWERS_FORMAT,
    key: 'k',
    computedAt: NOW - 1000,
    until: NOW + 60_000,
    observed: [],
    pids: [],
    answers: [{ channel: 'state:get', input: null, output: { projects: [] } }],
    ...over,
  }
  const file = answersFile(dir, 'state:get', undefined)
  writeFileSync(file, JSON.stringify(input))
  return { file, input }
}

/** Saved answers read from a file made here (`input`), and from `others`. */
function savedOverInput(others: Array<[string, PathStamp]>) {
  const input = join(dir, 'input.jsonl')
  writeFileSync(input, 'x')
  return { file: saved({ observed: [[input, stampOf(input)], ...others] }).file, input }
}

/** A recording of a run that read `files` (as they are now) and did nothing else, but for `over`. */
function recordingOf(over: Partial<Recording>, files: string[]): Recording {
  return {
    observed: new Map(files.map((f) => [f, stampOf(f)])),
    written: [],
    unfit: [],
    pids: new Map(),
    startedAt: Date.now(),
    ...over,
  }
}

describe('freshAnswers', () => {
  it('holds with everything as recorded', () => {
    const { file } = savedOverInput([[join(dir, 'gone'), 'ENOENT']])
    const found = freshAnswers(file, 'k', NOW, () => true)
    expect(found.fresh && found.saved.answers[0]?.output).toEqual({ projects: [] })
  })

  it('holds while a path known to be there is there, and a folder known by its inode is that folder', () => {
    const sub = join(dir, 'sub')
    mkdirSync(sub)
    const folder = stampOf(sub)
    const { file } = saved({
      observed: [
        [join(dir, 'input.jsonl'), 'exists'],
        [sub, typeof folder === 'string' ? folder : [folder[0], folder[1], -1, -1, -1]],
      ],
    })
    writeFileSync(join(dir, 'input.jsonl'), 'x')
    writeFileSync(join(sub, 'made-beside'), '')
    expect(freshAnswers(file, 'k', NOW).fresh).toBe(true)
    rmSync(join(dir, 'input.jsonl'))
    expect(freshAnswers(file, 'k', NOW)).toEqual({
      fresh: false,
      reason: `changed: ${join(dir, 'input.jsonl')}`,
    })
  })

  it('does not stat what is under a folder still missing, and sees it when the folder appears', () => {
    const gone = join(dir, 'gone')
    const { file } = saved({
      observed: [
        [gone, 'ENOENT'],
        [join(gone, '.git'), 'ENOENT'],
        [join(gone, 'deeper', '.git'), 'ENOENT'],
      ],
    })
    expect(freshAnswers(file, 'k', NOW).fresh).toBe(true)
    mkdirSync(join(gone, 'deeper', '.git'), { recursive: true })
    expect(freshAnswers(file, 'k', NOW)).toEqual({ fresh: false, reason: `changed: ${gone}` })
  })

  it('does not hold when a path changed, appeared or vanished', () => {
    const { file, input } = savedOverInput([[join(dir, 'new'), 'ENOENT']])
    writeFileSync(input, 'xy')
    expect(freshAnswers(file, 'k', NOW)).toEqual({ fresh: false, reason: `changed: ${input}` })
    saved({ observed: [[join(dir, 'new'), 'ENOENT']] })
    writeFileSync(join(dir, 'new'), '')
    expect(freshAnswers(file, 'k', NOW).fresh).toBe(false)
    saved({ observed: [[input, stampOf(input)]] })
    rmSync(input)
    expect(freshAnswers(file, 'k', NOW).fresh).toBe(false)
  })

  it('does not hold for another key, outside its clock window, or when a pid lives or dies', () => {
    const { file } = saved({ pids: [[4242, true]] })
    expect(freshAnswers(file, 'other', NOW, () => true)).toEqual({ fresh: false, reason: 'key' })
    expect(freshAnswers(file, 'k', NOW + 60_000, () => true).fresh).toBe(false)
    // A clock set back before they were computed proves nothing.
    expect(freshAnswers(file, 'k', NOW - 2000, () => true).fresh).toBe(false)
    expect(freshAnswers(file, 'k', NOW, () => false)).toEqual({ fresh: false, reason: 'pid 4242' })
    expect(freshAnswers(file, 'k', NOW, () => true).fresh).toBe(true)
    // No horizon: only the files and pids decide.
    saved({ until: null })
    expect(freshAnswers(file, 'k', NOW + 365 * 24 * 3_600_000, () => true).fresh).toBe(true)
  })

  it('does not hold for a missing or damaged file', () => {
    const file = answersFile(dir, 'sessions:list', { all: true })
    expect(freshAnswers(file, 'k', NOW).fresh).toBe(false)
    writeFileSync(file, '{"format":')
    expect(freshAnswers(file, 'k', NOW).fresh).toBe(false)
  })
})

describe('answersFile and answerKey', () => {
  it('names one file per first question, and keys by build, user and the engine environment', () => {
    expect(answersFile(dir, 'sessions:list', { all: true })).not.toBe(
      answersFile(dir, 'sessions:list', { all: false }),
    )
    const env = { HOME: '/h', NAVI_HOME: '/n', CLAUDE_CONFIG_DIR: '/c', PATH: '/bin' }
    expect(answerKey('b1', env)).toBe(answerKey('b1', { ...env, PATH: '/usr/bin', TERM: 'x' }))
    expect(answerKey('b1', env)).not.toBe(answerKey('b2', env))
    for (const name of ['NAVI_HOME', 'CLAUDE_CONFIG_DIR', 'HOME', 'TMUX_TMPDIR', 'GIT_DIR'])
      expect(answerKey('b1', { ...env, [name]: '/elsewhere' }), name).not.toBe(answerKey('b1', env))
  })
})

describe('unfitToKeep', () => {
  const old = (file: string) => {
    writeFileSync(file, 'x')
    const past = (Date.now() - 10 * RACY_MARGIN_MS) / 1000
    utimesSync(file, past, past)
  }

  it('keeps a run that only read paths that had not changed just before', () => {
    const file = join(dir, 'old')
    old(file)
    const recording = recordingOf({ startedAt: Date.now() + 2 * RACY_MARGIN_MS }, [file])
    expect(unfitToKeep(recording)).toBeNull()
  })

  it('refuses a run that wrote, started something, or read a path changed just before', () => {
    expect(unfitToKeep(recordingOf({ written: ['/x'] }, []))).toBe('wrote /x')
    expect(unfitToKeep(recordingOf({ unfit: ['child_process loaded'] }, []))).toBe(
      'child_process loaded',
    )
    const file = join(dir, 'old')
    old(file)
    // Its ctime is now (nobody can set it back): too close to a run starting now.
    expect(unfitToKeep(recordingOf({}, [file]))).toBe(`changed just before: ${file}`)
  })
})

describe('keepAnswers', () => {
  it('keeps the newest files of answers only: a question with a time in it is new each time', async () => {
    const clean = recordingOf({}, [])
    const since = (i: number) => ({ since: new Date(NOW - i * 1000).toISOString() })
    for (let i = 0; i < ANSWER_FILES_KEPT + 4; i++) {
      const kept = await keepAnswers(
        { cacheDir: dir, key: 'k' },
        clean,
        [{ channel: 'events:list', input: since(i), output: { events: [] } }],
        { computedAt: NOW, until: NOW + 60_000 },
      )
      expect(kept).toBeNull()
    }
    const files = readdirSync(dir).filter((n) => n.startsWith('answers-'))
    expect(files).toHaveLength(ANSWER_FILES_KEPT)
    const last = answersFile(dir, 'events:list', since(ANSWER_FILES_KEPT + 3))
    expect(freshAnswers(last, 'k', NOW).fresh).toBe(true)
    // They quote prompts and replies: the user's alone.
    expect(statSync(last).mode & 0o777).toBe(0o600)
  })

  it('keeps nothing the clock may change at once', async () => {
    const clean = recordingOf({ startedAt: NOW }, [])
    const kept = await keepAnswers(
      { cacheDir: dir, key: 'k' },
      clean,
      [{ channel: 'state:get', input: undefined, output: {} }],
      { computedAt: NOW, until: NOW },
      NOW,
    )
    expect(kept).toMatch(/clock/)
    expect(readdirSync(dir)).toEqual([])
  })
})
