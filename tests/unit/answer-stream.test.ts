import { describe, expect, it } from 'vitest'
import { answerSoFar, createAnswerStream } from '../../electron/pm/core/answer-stream.ts'

const event = (e: Record<string, unknown>) => JSON.stringify({ type: 'stream_event', event: e })
const start = (index: number, name: string) =>
  event({
    type: 'content_block_start',
    index,
    content_block: { type: 'tool_use', name, input: {} },
  })
const delta = (index: number, partial_json: string) =>
  event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } })

describe('answerSoFar', () => {
  it.each([
    ['{"answ', null],
    ['{"answer": "', ''],
    ['{"answer":"Apollo had', 'Apollo had'],
    ['{"answer":"a \\"quoted', 'a "quoted'],
    // An escape cut in half waits for its next piece.
    ['{"answer":"line\\', 'line'],
    ['{"answer":"caf\\u00', null],
    ['{"answer":"done","actions":[', 'done'],
  ])('%s → %s', (json, text) => {
    expect(answerSoFar(json)).toBe(text)
  })
})

describe('createAnswerStream', () => {
  it('yields the StructuredOutput answer as it grows, and nothing from other blocks or lines', () => {
    const stream = createAnswerStream()
    const lines = [
      '{"type":"system","subtype":"init"}',
      event({ type: 'message_start', message: {} }),
      start(0, 'Read'),
      delta(0, '{"file_path":"/x", "answer":"not this"'),
      event({ type: 'message_start', message: {} }),
      start(1, 'StructuredOutput'),
      delta(1, '{"ans'),
      delta(1, 'wer":"Apollo '),
      delta(1, 'had one \\'),
      delta(1, '"commit\\" today"'),
      delta(1, ',"actions":[]}'),
      'not json',
    ]
    const yielded = lines.map((line) => stream.push(line)).filter((t) => t !== null)
    expect(yielded).toEqual(['Apollo ', 'Apollo had one ', 'Apollo had one "commit" today'])
  })
})
