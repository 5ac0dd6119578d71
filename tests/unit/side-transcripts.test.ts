import { describe, expect, it } from 'vitest'
import {
  duplicateTranscriptNotes,
  mainTranscriptsById,
  sideSpendByParent,
  sideTranscriptKind,
} from '../../electron/engine/core/side-transcripts.ts'
import {
  emptyTranscriptSummary,
  foldTranscriptLine,
} from '../../electron/engine/core/transcript-fold.ts'
import { isBulkyTranscriptLine } from '../../electron/engine/adapters/claude-transcripts.ts'

function transcript(path: string, id: string, tokens: number, extra: object = {}) {
  const s = emptyTranscriptSummary(id, path)
  foldTranscriptLine(s, {
    type: 'assistant',
    isSidechain: true,
    sessionId: 'parent',
    cwd: '/w/app',
    timestamp: '2026-11-01T00:00:00.000Z',
    message: { id: `m-${path}`, usage: { input_tokens: tokens, output_tokens: 0 } },
    ...extra,
  })
  return s
}

describe('side transcripts', () => {
  it('names sub-agent and compaction files apart', () => {
    expect(sideTranscriptKind('agent-a1b2.jsonl')).toBe('subagent')
    expect(sideTranscriptKind('agent-acompact-946d2b.jsonl')).toBe('compaction')
    expect(sideTranscriptKind('9f1c.jsonl')).toBeNull()
    expect(sideTranscriptKind('agent-a1b2.meta.json')).toBeNull()
  })

  it('adds sub-agent and compaction spend to the parent; only sub-agents count as sub-agents', () => {
    const spend = sideSpendByParent([
      { parentSessionId: 'p', kind: 'subagent', summary: transcript('/a', 'agent-1', 100) },
      { parentSessionId: 'p', kind: 'subagent', summary: transcript('/b', 'agent-2', 20) },
      {
        parentSessionId: 'p',
        kind: 'compaction',
        summary: transcript('/c', 'agent-acompact-1', 5),
      },
    ]).get('p')
    expect(spend?.total.total).toBe(125)
    expect(spend?.subagents.total).toBe(120)
    expect(spend?.subagentFiles).toBe(2)
    // The sidechain lines' cwd, for a session whose main file is empty or gone.
    expect(spend?.cwd).toBe('/w/app')
  })

  it('keeps both transcripts of a duplicated session id, the newest under the plain id, and reports it', () => {
    const older = transcript('/c/projects/one/s.jsonl', 's', 1, {
      timestamp: '2026-01-01T00:00:00.000Z',
    })
    const newer = transcript('/c/projects/two/s.jsonl', 's', 1, {
      timestamp: '2026-02-01T00:00:00.000Z',
    })
    const byId = mainTranscriptsById([older, newer])
    expect(byId.get('s')).toBe(newer)
    expect(byId.get('s@one')).toBe(older)
    expect(duplicateTranscriptNotes([older, newer])).toEqual([
      'session s has 2 transcripts: /c/projects/one/s.jsonl, /c/projects/two/s.jsonl',
    ])
  })

  it('answers again when a transcript folded in place became the newest, or the list changed', () => {
    const one = transcript('/c/projects/one/s.jsonl', 's', 1, {
      timestamp: '2026-01-01T00:00:00.000Z',
    })
    const two = transcript('/c/projects/two/s.jsonl', 's', 1, {
      timestamp: '2026-02-01T00:00:00.000Z',
    })
    const list = [one, two]
    expect(mainTranscriptsById(list).get('s')).toBe(two)
    // The same list, asked again: the same answer.
    expect(mainTranscriptsById(list)).toBe(mainTranscriptsById([one, two]))
    // `one` grows: a later line makes it the newest, in place.
    foldTranscriptLine(one, {
      type: 'user',
      sessionId: 's',
      cwd: '/w/app',
      timestamp: '2026-03-01T00:00:00.000Z',
      message: { role: 'user', content: 'again' },
    })
    const after = mainTranscriptsById(list)
    expect(after.get('s')).toBe(one)
    expect(after.get('s@two')).toBe(two)
    expect([...after.keys()]).toEqual(['s', 's@two'])
    // A third transcript joins (the newest, November): it is counted, in its place.
    const three = transcript('/c/projects/three/t.jsonl', 't', 1)
    expect([...mainTranscriptsById([...list, three]).keys()]).toEqual(['t', 's', 's@two'])
  })

  it('notes every duplicated session id once, with all its transcripts, in the order the ids first come', () => {
    const at = (path: string, id: string) => transcript(path, id, 1)
    const files = [
      at('/p/one/b.jsonl', 'b'),
      at('/p/one/a.jsonl', 'a'),
      at('/p/two/a.jsonl', 'a'),
      at('/p/one/c.jsonl', 'c'),
      at('/p/two/b.jsonl', 'b'),
      at('/p/three/a.jsonl', 'a'),
    ]
    expect(duplicateTranscriptNotes(files)).toEqual([
      'session b has 2 transcripts: /p/one/b.jsonl, /p/two/b.jsonl',
      'session a has 3 transcripts: /p/one/a.jsonl, /p/two/a.jsonl, /p/three/a.jsonl',
    ])
    expect(
      duplicateTranscriptNotes(files.filter((f) => f.sessionId !== 'a' && f.sessionId !== 'b')),
    ).toEqual([])
  })

  it('skips 2.1.330 bulky lines by their head, and nothing else', () => {
    expect(
      isBulkyTranscriptLine('{"type":"api-request-shape","sessionId":"s","shapeHash":"4b"}'),
    ).toBe(true)
    expect(isBulkyTranscriptLine('{"type":"api-request-blob","sessionId":"s"}')).toBe(true)
    const snapshot = (prompt: string) =>
      `{"parentUuid":"1","isSidechain":false,"attachment":{"type":"prompt_snapshot","systemPrompt":["${prompt}"]}}`
    // A real snapshot is the whole system prompt, tens of KB; a small one is folded like any attachment.
    expect(isBulkyTranscriptLine(snapshot('p'.repeat(8000)))).toBe(true)
    expect(isBulkyTranscriptLine(snapshot('p'))).toBe(false)
    expect(isBulkyTranscriptLine('{"type":"api-request","sessionId":"s"}')).toBe(false)
    expect(isBulkyTranscriptLine('{"type":"user","message":{"content":"prompt_snapshot"}}')).toBe(
      false,
    )
  })
})

describe('side transcripts: activity', () => {
  it('a session is as recent as its latest sub-agent line', () => {
    const early = transcript('/a', 'agent-1', 1, { timestamp: '2026-11-01T10:00:00.000Z' })
    const late = transcript('/b', 'agent-2', 1, { timestamp: '2026-11-01T12:00:00.000Z' })
    const spend = sideSpendByParent([
      { parentSessionId: 'p', kind: 'subagent', summary: late },
      { parentSessionId: 'p', kind: 'subagent', summary: early },
    ]).get('p')
    expect([spend?.firstActivity, spend?.lastActivity]).toEqual([
      '2026-11-01T10:00:00.000Z',
      '2026-11-01T12:00:00.000Z',
    ])
  })
})
