/** What the PM (and Navi's own rules) suggest the developer do next, with the evidence. */
import * as z from 'zod'
import { lazySchema } from './lazy-schema.ts'

export const suggestionKindSchema = lazySchema(() =>
  z.enum(['open_pr', 'resume_project', 'unblock_session', 'review_stall']),
)
export type SuggestionKind = z.infer<typeof suggestionKindSchema>

/** What a face offers to do about it; Navi never does it by itself. */
export const suggestionActionSchema = lazySchema(() =>
  z.object({
    type: z.enum(['open_project', 'go_to_session']),
    project: z.string(),
    session_id: z.string().optional(),
  }),
)

/** A suggestion as the PM writes it (its output schema). */
export const pmSuggestionSchema = lazySchema(() =>
  z.object({
    kind: suggestionKindSchema,
    project: z.string(),
    /** One short line: "PBI-8 is done: ready for a PR?" */
    title: z.string(),
    /** The facts it rests on, one per line. */
    evidence: z.array(z.string()).default([]),
    action: suggestionActionSchema.optional(),
  }),
)

/** A suggestion as the faces show it: from Navi's deterministic rules or from the PM. */
export const suggestionSchema = lazySchema(() =>
  pmSuggestionSchema.extend({
    source: z.enum(['rule', 'pm']),
  }),
)
export type Suggestion = z.infer<typeof suggestionSchema>

/**
 * A pattern across days the PM noticed ("the third time apollo stalled on integration tasks"), citing the
 * daily digest lines it rests on (`<day> <project>`, as the inbox lists them).
 */
export const pmPatternSchema = lazySchema(() =>
  z.object({
    project: z.string(),
    statement: z.string(),
    cites: z.array(z.string()).min(1),
  }),
)
export type PmPattern = z.infer<typeof pmPatternSchema>
