/**
 * The PM's answer to a question as it is being written: from the CLI's `stream-json` lines with partial
 * messages (`stream_event` deltas of its StructuredOutput call), the `answer` field so far. Pure.
 *
 * The answer arrives as the JSON input of the StructuredOutput tool, in pieces. Its text so far is read
 * out of the pieces joined: the `answer` string up to where it has come, an escape cut in half left for
 * the next piece. What it yields is only shown while the run goes on; the answer the user keeps is the
 * validated one at the end.
 */

interface StreamState {
  /** Index of the StructuredOutput content block of the current message, if one started. */
  block: number | null
  json: string
  text: string
}

const ANSWER = /"answer"\s*:\s*"((?:[^"\\]|\\.)*)/

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null
}

/** The answer text in the JSON so far, or null while its field has not begun. */
export function answerSoFar(json: string): string | null {
  const match = ANSWER.exec(json)
  if (!match) return null
  try {
    return JSON.parse(`"${match[1] ?? ''}"`) as string
  } catch {
    return null
  }
}

/** Feeds stream lines; `push` returns the answer text when it grew, else null. */
export function createAnswerStream(): { push(line: string): string | null } {
  const state: StreamState = { block: null, json: '', text: '' }
  return {
    push(line) {
      if (!line.includes('"stream_event"')) return null
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch {
        return null
      }
      const event = record(record(value)?.event)
      if (!event) return null
      if (event.type === 'message_start') {
        state.block = null
        state.json = ''
        return null
      }
      const block = record(event.content_block)
      if (event.type === 'content_block_start' && block?.type === 'tool_use') {
        if (block.name === 'StructuredOutput') {
          state.block = typeof event.index === 'number' ? event.index : null
          state.json = ''
        }
        return null
      }
      const delta = record(event.delta)
      if (
        event.type !== 'content_block_delta' ||
        event.index !== state.block ||
        delta?.type !== 'input_json_delta' ||
        typeof delta.partial_json !== 'string'
      ) {
        return null
      }
      state.json += delta.partial_json
      const text = answerSoFar(state.json)
      if (text === null || text.length <= state.text.length) return null
      state.text = text
      return text
    },
  }
}
