import * as z from 'zod'
import { pmPatternSchema, pmSuggestionSchema } from './suggestion.ts'
import { lazySchema } from './lazy-schema.ts'

/** What the PM returns (the union of seeds 000 and 001), enforced with `--json-schema`. */
export const pmOutputSchema = lazySchema(() =>
  z.object({
    /** 2–4 sentences: the PM's voice. */
    briefing: z.string().min(1),
    projects: z.array(
      z.object({
        name: z.string(),
        status: z.enum(['needs_input', 'pbi_complete', 'active', 'stale', 'idle']),
        summary: z.string(),
        current_work: z.string().optional(),
        recent_activity: z.string().optional(),
      }),
    ),
    attention_items: z
      .array(
        z.object({
          project: z.string(),
          priority: z.enum(['high', 'medium', 'low']),
          title: z.string(),
          description: z.string().optional(),
        }),
      )
      .default([]),
    breadcrumbs: z
      .array(
        z.object({ project: z.string(), message: z.string(), timestamp: z.string().optional() }),
      )
      .default([]),
    /** Proactive suggestions with their evidence (optional: an older PM output has none). */
    suggestions: z.array(pmSuggestionSchema).default([]),
    /** Patterns across days, each citing the daily digest lines it rests on. */
    patterns: z.array(pmPatternSchema).default([]),
  }),
)
export type PmOutput = z.infer<typeof pmOutputSchema>

export const pmTriggerSchema = lazySchema(() =>
  z.enum([
    'task_completed',
    'turn_completed',
    'pbi_completed',
    'commit',
    'on_demand',
    'initialization',
    /** A question from the user (`navi ask`): usage only, never a briefing's trigger. */
    'ask',
  ]),
)
export type PmTrigger = z.infer<typeof pmTriggerSchema>

/** `$NAVI_HOME/pm/last-output.json`: the last good briefing. */
export const cachedBriefingSchema = lazySchema(() =>
  z.object({
    output: pmOutputSchema,
    generated_at: z.string(),
    trigger: pmTriggerSchema,
  }),
)
export type CachedBriefing = z.infer<typeof cachedBriefingSchema>

/** What every face shows: the briefing, whether it is stale, and why. */
export const briefingStateSchema = lazySchema(() =>
  z.object({
    briefing: cachedBriefingSchema.nullable(),
    is_stale: z.boolean(),
    error: z.string().nullable(),
    /** Set when `claude` cannot be found: how to install it. */
    claude_missing: z.string().nullable(),
  }),
)
export type BriefingState = z.infer<typeof briefingStateSchema>

/** Progress of a PM run, for the UI's "updating…" line. */
export const pmRunStatusSchema = lazySchema(() =>
  z.object({
    phase: z.enum(['starting', 'reading_memory', 'thinking', 'writing_memory', 'done', 'failed']),
    trigger: pmTriggerSchema,
    at: z.string(),
    detail: z.string().optional(),
  }),
)
export type PmRunStatus = z.infer<typeof pmRunStatusSchema>

/** One line of `$NAVI_HOME/pm/usage.jsonl`. */
export const pmUsageSchema = lazySchema(() =>
  z.object({
    timestamp: z.string(),
    trigger: pmTriggerSchema,
    input_tokens: z.number(),
    output_tokens: z.number(),
    cost_usd: z.number(),
    duration_ms: z.number(),
    num_turns: z.number(),
    ok: z.boolean(),
  }),
)
export type PmUsage = z.infer<typeof pmUsageSchema>
