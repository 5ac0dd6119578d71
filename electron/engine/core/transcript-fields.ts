/**
 * The fields of a Claude transcript line that `foldTranscriptLine` reads, as a projection
 * (core/json-projection.ts): everything else of a line (tool-result bodies, files written, thinking text,
 * file-history snapshots) is stepped over unread. Pure data.
 *
 * Kept in step with the fold by a test that folds every line of the real corpus and of a generated one
 * both ways, parsed whole and projected, and requires equal summaries (tests/unit/transcript-fields.test.ts).
 * A fold that starts reading another field must name it here.
 */
import { compileProjection, type Projection } from './json-projection-spec.ts'
import { TOOL_DETAIL_KEYS } from './tool-detail.ts'

/** A tool call's input: the words that describe it (tool-detail.ts), TodoWrite's list, task fields. */
const toolInput: Projection = {
  fields: Object.fromEntries(
    [...TOOL_DETAIL_KEYS, 'todos', 'subject', 'taskId', 'status'].map((key) => [key, 'keep']),
  ),
}

/** A block of `message.content`: its kind, text, tool call or tool result (the result's body is not read). */
const contentBlock: Projection = {
  fields: {
    type: 'keep',
    text: 'keep',
    id: 'keep',
    name: 'keep',
    input: toolInput,
    tool_use_id: 'keep',
    is_error: 'keep',
  },
}

export const TRANSCRIPT_LINE_FIELDS: Projection = {
  fields: {
    type: 'keep',
    subtype: 'keep',
    timestamp: 'keep',
    sessionId: 'keep',
    isSidechain: 'keep',
    cwd: 'keep',
    gitBranch: 'keep',
    version: 'keep',
    entrypoint: 'keep',
    isMeta: 'keep',
    isCompactSummary: 'keep',
    isApiErrorMessage: 'keep',
    apiErrorStatus: 'keep',
    origin: { fields: { kind: 'keep' } },
    promptSource: 'keep',
    turnOrigin: 'keep',
    // system lines: turn_duration, api_error retries, 1.0.x Stop-hook results.
    durationMs: 'keep',
    retryAttempt: 'keep',
    maxRetries: 'keep',
    error: 'keep',
    content: 'keep',
    // last-prompt and title lines.
    lastPrompt: 'keep',
    summary: 'keep',
    aiTitle: 'keep',
    customTitle: 'keep',
    message: {
      fields: {
        id: 'keep',
        usage: {
          fields: {
            input_tokens: 'keep',
            output_tokens: 'keep',
            cache_read_input_tokens: 'keep',
            cache_creation_input_tokens: 'keep',
          },
        },
        stop_reason: 'keep',
        content: { strings: true, items: contentBlock },
      },
    },
    // Of a tool's result, only what names a sub-agent, a TodoWrite list or a task.
    toolUseResult: {
      fields: { newTodos: 'keep', agentId: 'keep', task: 'keep', success: 'keep' },
    },
  },
}

export const TRANSCRIPT_PROJECTION = compileProjection(TRANSCRIPT_LINE_FIELDS)
