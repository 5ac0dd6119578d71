/**
 * `assembleClaudeSessionsReusing`: a settled session whose sources did not change is the very object of
 * the cycle before; one whose transcript was read, whose hook state or pid changed, or that the clock can
 * still change, is assembled again at the new time. Without reuse every session is assembled again.
 */
import { describe, expect, it } from 'vitest'
import type { ClaudeSources } from '../../electron/engine/core/claude-sessions.ts'
import {
  assembleClaudeSessionsReusing,
  SETTLED_AFTER_MS,
} from '../../electron/engine/core/claude-session-memo.ts'
import {
  emptyTranscriptSummary,
  foldTranscriptLine,
} from '../../electron/engine/core/transcript-fold.ts'
import { claudeSources, hookState } from '../support/claude-records.ts'

const T0 = Date.parse('2026-11-24T12:00:00Z')
const at = (ms: number) => new Date(ms).toISOString()

/** A session whose only line is a prompt `ageMs` before T0 (no live file: it ended). */
function transcript(id: string, dir = '-p', ageMs = 10 * 60_000) {
  const summary = emptyTranscriptSummary(id, `/c/projects/${dir}/${id}.jsonl`)
  foldTranscriptLine(
    summary,
    {
      sessionId: id,
      cwd: '/p',
      type: 'user',
      timestamp: at(T0 - ageMs),
      message: { role: 'user', content: `work in ${id}` },
    },
    T0,
  )
  return summary
}

const sources = (over: Partial<ClaudeSources>) => claudeSources(T0, over)

const none = new Set<string>()
const byId = <S extends { id: string }>(sessions: S[], id: string) =>
  sessions.find((s) => s.id === id)

describe('assembleClaudeSessionsReusing', () => {
  const a = transcript('aaaa1111-0000-4000-8000-000000000001')
  const b = transcript('bbbb2222-0000-4000-8000-000000000002')
  const first = assembleClaudeSessionsReusing(sources({ transcripts: [a, b] }), null)

  it('keeps the sessions whose sources are the same objects and were not read', () => {
    const next = assembleClaudeSessionsReusing(sources({ transcripts: [a, b], now: T0 + 1000 }), {
      previous: first.assembly,
      readPaths: none,
      readSessions: none,
    })
    expect(byId(next.sessions, a.sessionId)).toBe(byId(first.sessions, a.sessionId))
    expect(byId(next.sessions, b.sessionId)).toBe(byId(first.sessions, b.sessionId))
  })

  it('assembles again a session whose transcript was read (it grew in place)', () => {
    foldTranscriptLine(
      b,
      {
        sessionId: b.sessionId,
        cwd: '/p',
        type: 'user',
        timestamp: at(T0 + 500),
        message: { role: 'user', content: 'more' },
      },
      T0 + 1000,
    )
    const next = assembleClaudeSessionsReusing(sources({ transcripts: [a, b], now: T0 + 1000 }), {
      previous: first.assembly,
      readPaths: new Set([b.path]),
      readSessions: none,
    })
    expect(byId(next.sessions, a.sessionId)).toBe(byId(first.sessions, a.sessionId))
    expect(byId(next.sessions, b.sessionId)).not.toBe(byId(first.sessions, b.sessionId))
    expect(byId(next.sessions, b.sessionId)?.last_prompt).toBe('more')
  })

  it('assembles again a session whose side transcripts were read, or whose hook state changed', () => {
    const hooks = new Map([[a.sessionId, hookState(T0, { sessionId: a.sessionId, cwd: '/p' })]])
    const withHook = assembleClaudeSessionsReusing(
      sources({ transcripts: [a, b], hooks, now: T0 + 1000 }),
      { previous: first.assembly, readPaths: none, readSessions: new Set([b.sessionId]) },
    )
    expect(byId(withHook.sessions, a.sessionId)).not.toBe(byId(first.sessions, a.sessionId))
    expect(byId(withHook.sessions, b.sessionId)).not.toBe(byId(first.sessions, b.sessionId))
  })

  it('assembles again when a recorded pid dies, and when the live-files folder appears', () => {
    const hooks = new Map([
      [a.sessionId, hookState(T0, { sessionId: a.sessionId, cwd: '/p', agentPid: 4242 })],
    ])
    const alive = assembleClaudeSessionsReusing(
      sources({ transcripts: [a], hooks, pidAlive: new Map([[4242, true]]) }),
      null,
    )
    const died = assembleClaudeSessionsReusing(
      sources({ transcripts: [a], hooks, pidAlive: new Map([[4242, false]]) }),
      { previous: alive.assembly, readPaths: none, readSessions: none },
    )
    expect(died.sessions[0]).not.toBe(alive.sessions[0])
    const noLiveFolder = assembleClaudeSessionsReusing(
      sources({
        transcripts: [a],
        hooks,
        pidAlive: new Map([[4242, false]]),
        liveFilesSupported: false,
      }),
      { previous: died.assembly, readPaths: none, readSessions: none },
    )
    expect(noLiveFolder.sessions[0]).not.toBe(died.sessions[0])
  })

  it('tells a second transcript of one session id by its path', () => {
    const copy = transcript(a.sessionId, '-elsewhere')
    const both = assembleClaudeSessionsReusing(sources({ transcripts: [a, copy] }), null)
    expect(both.sessions).toHaveLength(2)
    const next = assembleClaudeSessionsReusing(sources({ transcripts: [a, copy] }), {
      previous: both.assembly,
      readPaths: new Set([copy.path]),
      readSessions: none,
    })
    const kept = next.sessions.filter((s) => both.sessions.includes(s))
    expect(kept).toHaveLength(1)
    expect(kept[0]?.transcript_path).toBe(a.path)
    expect(next.sessions.find((s) => !both.sessions.includes(s))?.transcript_path).toBe(copy.path)
  })

  it('decides again a session the clock can still change: one active within SETTLED_AFTER_MS', () => {
    const recent = transcript('cccc3333-0000-4000-8000-000000000003', '-p', SETTLED_AFTER_MS / 2)
    const noLiveFiles = { liveFilesSupported: false }
    const before = assembleClaudeSessionsReusing(
      sources({ transcripts: [recent], ...noLiveFiles }),
      null,
    )
    // Without a live file, a session written moments ago still counts as running (the grace).
    expect(before.sessions[0]?.status).not.toBe('ended')
    const later = T0 + SETTLED_AFTER_MS
    const next = assembleClaudeSessionsReusing(
      sources({ transcripts: [recent], now: later, ...noLiveFiles }),
      {
        previous: before.assembly,
        readPaths: none,
        readSessions: none,
      },
    )
    expect(next.sessions[0]).not.toBe(before.sessions[0])
    expect(next.sessions[0]?.status).toBe('ended')
  })

  it('without reuse, decides every session at the new time', () => {
    const later = assembleClaudeSessionsReusing(
      sources({ transcripts: [a], now: T0 + 3_600_000 }),
      null,
    )
    expect(later.sessions[0]).not.toBe(byId(first.sessions, a.sessionId))
  })
})
