/**
 * Reading what `claude -p --json-schema` printed: the `json` envelope or the `stream-json` lines
 * (reference, sections 3 and 4). Pure: stdout text and exit code in, a typed reply out.
 *
 * Failure is read from `is_error`, `api_error_status` and the exit code, never from `subtype` (an
 * API error after retries is `subtype: "success"`, `is_error: true`). The CLI can exit 0 without
 * `structured_output` (the model answered text twice), so a reply is only a success once a briefing
 * validates against {@link pmOutputSchema}.
 */
import * as z from 'zod'
import { pmOutputSchema, type PmOutput } from '../../../shared/schemas/briefing.ts'
import { extractJsonCandidates } from './json-in-text.ts'

export { streamPhase, type PmPhase, type StreamPhase } from './stream-phase.ts'

/** Token and time counts of one CLI run, from its result envelope. */
export interface PmReplyUsage {
  /** `input_tokens` + cache creation + cache read: the whole prompt the model saw. */
  input_tokens: number
  output_tokens: number
  cost_usd: number
  duration_ms: number
  num_turns: number
}

/** A tool call the CLI refused (`permission_denials` of the envelope). */
export interface PermissionDenial {
  tool_name: string
  tool_use_id: string
  tool_input: unknown
}

interface ReplyCommon {
  usage: PmReplyUsage | null
  denials: PermissionDenial[]
  sessionId: string | null
  /** `api_error_status` of the envelope (429, 529, …), null when none. */
  apiErrorStatus: number | null
}

export type PmReply<T = PmOutput> =
  | (ReplyCommon & {
      ok: true
      output: T
      /** Where the briefing came from. */
      source: 'structured_output' | 'result_json' | 'result_markdown'
    })
  | (ReplyCommon & {
      ok: false
      /** One line a developer can act on. */
      reason: string
      /** Rate limit, overload or a server error: worth another attempt after a pause. */
      retryable: boolean
      /** False when stdout held no result envelope at all (crash, kill, bad flag, unknown session). */
      hasEnvelope: boolean
    })

const num = z.number().catch(0)

const envelopeSchema = z.looseObject({
  type: z.literal('result'),
  subtype: z.string().catch(''),
  is_error: z.boolean().catch(false),
  api_error_status: z.number().nullable().catch(null),
  result: z.string().optional().catch(undefined),
  errors: z.array(z.string()).optional().catch(undefined),
  session_id: z.string().nullable().catch(null),
  structured_output: z.unknown().optional(),
  duration_ms: num,
  num_turns: num,
  total_cost_usd: num,
  usage: z
    .looseObject({
      input_tokens: num,
      output_tokens: num,
      cache_creation_input_tokens: num,
      cache_read_input_tokens: num,
    })
    .optional()
    .catch(undefined),
  permission_denials: z
    .array(
      z.looseObject({ tool_name: z.string(), tool_use_id: z.string(), tool_input: z.unknown() }),
    )
    .catch([]),
})
type Envelope = z.infer<typeof envelopeSchema>

const initSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('init'),
  tools: z.array(z.string()).catch([]),
})

/** HTTP statuses worth retrying: rate limit, overload and server errors. */
export function isRetryableStatus(status: number | null): boolean {
  return status !== null && (status === 429 || status === 529 || (status >= 500 && status < 600))
}

const RETRYABLE_TEXT = /\b(rate.?limit|overloaded|server-side issue)\b/i

/** Parses stdout of a briefing run of `claude -p` (`json`, `json --verbose` array, or `stream-json`). */
export function parsePmReply(stdout: string, exitCode: number | null | undefined): PmReply {
  return parseClaudeReply(stdout, exitCode, pmOutputSchema, 'briefing')
}

/** `parsePmReply` for any structured output: `schema` says what a reply must be, `what` names it. */
export function parseClaudeReply<T>(
  stdout: string,
  exitCode: number | null | undefined,
  schema: z.ZodType<T>,
  what: string,
): PmReply<T> {
  const values = parseJsonValues(stdout)
  const envelope = lastEnvelope(values)
  const init = values.map((v) => initSchema.safeParse(v)).find((r) => r.success)?.data
  if (envelope === null) {
    const code = exitCode === null || exitCode === undefined ? 'no exit code' : `code ${exitCode}`
    return {
      ok: false,
      reason: `claude printed no result (${code})`,
      retryable: false,
      hasEnvelope: false,
      usage: null,
      denials: [],
      sessionId: null,
      apiErrorStatus: null,
    }
  }
  const common: ReplyCommon = {
    usage: usageOf(envelope),
    denials: envelope.permission_denials.map(({ tool_name, tool_use_id, tool_input }) => ({
      tool_name,
      tool_use_id,
      tool_input,
    })),
    sessionId: envelope.session_id,
    apiErrorStatus: envelope.api_error_status,
  }
  const failed = envelope.is_error || envelope.api_error_status !== null || exitCode !== 0
  if (failed) {
    const detail = envelope.errors?.join('; ') || envelope.result || envelope.subtype
    const exit = exitCode === 0 ? '' : ` (exit ${exitCode ?? 'none'})`
    return {
      ...common,
      ok: false,
      reason: `claude reported an error${exit}: ${detail || 'no detail'}`,
      retryable:
        isRetryableStatus(envelope.api_error_status) ||
        (envelope.is_error && RETRYABLE_TEXT.test(envelope.result ?? '')),
      hasEnvelope: true,
    }
  }
  const briefing = structuredOf(envelope, schema, what)
  if (briefing.ok) return { ...common, ok: true, output: briefing.output, source: briefing.source }
  const noTool =
    init !== undefined && !init.tools.includes('StructuredOutput')
      ? ' (the CLI offered no StructuredOutput tool: is the --json-schema valid?)'
      : ''
  return {
    ...common,
    ok: false,
    reason: briefing.reason + noTool,
    retryable: false,
    hasEnvelope: true,
  }
}

type StructuredOf<T> =
  | { ok: true; output: T; source: 'structured_output' | 'result_json' | 'result_markdown' }
  | { ok: false; reason: string }

/** `structured_output`, else `result` as JSON, else JSON inside the `result` text. */
function structuredOf<T>(envelope: Envelope, schema: z.ZodType<T>, what: string): StructuredOf<T> {
  const problems: string[] = []
  const attempt = (
    value: unknown,
    source: 'structured_output' | 'result_json' | 'result_markdown',
  ) => {
    const parsed = schema.safeParse(value)
    if (parsed.success) return { ok: true as const, output: parsed.data, source }
    problems.push(`${source}: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ').trim()}`)
    return null
  }
  if (envelope.structured_output !== undefined) {
    const hit = attempt(envelope.structured_output, 'structured_output')
    if (hit) return hit
  }
  const text = envelope.result ?? ''
  const whole = parseJsonValue(text.trim())
  if (whole !== undefined) {
    const hit = attempt(whole, 'result_json')
    if (hit) return hit
  } else {
    for (const candidate of extractJsonCandidates(text)) {
      const hit = attempt(candidate, 'result_markdown')
      if (hit) return hit
    }
  }
  if (problems.length > 0) return { ok: false, reason: `invalid ${what}: ${problems[0]}` }
  const excerpt = text.length > 160 ? `${text.slice(0, 160)}…` : text
  return { ok: false, reason: `no ${what} in the reply (text: ${JSON.stringify(excerpt)})` }
}

function usageOf(e: Envelope): PmReplyUsage {
  const u = e.usage
  const input = u ? u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens : 0
  return {
    input_tokens: input,
    output_tokens: u?.output_tokens ?? 0,
    cost_usd: e.total_cost_usd,
    duration_ms: e.duration_ms,
    num_turns: e.num_turns,
  }
}

/** The last `type: "result"` value: stream-json prints it last; `json --verbose` ends its array with it. */
function lastEnvelope(values: unknown[]): Envelope | null {
  for (let i = values.length - 1; i >= 0; i--) {
    const parsed = envelopeSchema.safeParse(values[i])
    if (parsed.success) return parsed.data
  }
  return null
}

/** The whole stdout as one JSON value (array items flattened), else each line that parses. */
function parseJsonValues(stdout: string): unknown[] {
  const whole = parseJsonValue(stdout.trim())
  if (Array.isArray(whole)) return whole
  if (whole !== undefined) return [whole]
  return stdout
    .split('\n')
    .map((line) => parseJsonValue(line.trim()))
    .filter((v) => v !== undefined)
}

function parseJsonValue(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    // A line that is not JSON (CLI chatter) carries no envelope; a missing envelope is reported.
    return undefined
  }
}
