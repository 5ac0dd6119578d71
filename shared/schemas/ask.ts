import * as z from 'zod'
import { lazySchema } from './lazy-schema.ts'

/** A question to the PM (`navi ask`, the popover's question box). */
export const pmQuestionSchema = lazySchema(() =>
  z.object({ question: z.string().trim().min(1).max(2000) }),
)

/**
 * What the PM answers a question with, enforced with `--json-schema`. An action is only offered to the
 * user (the popover's buttons); the PM never acts by itself.
 */
export const pmAnswerSchema = lazySchema(() =>
  z.object({
    /** Plain prose, a few sentences; "I don't know" when the data does not tell. */
    answer: z.string().min(1).max(4000),
    actions: z
      .array(
        z.object({
          /** `answer_request`: show the session's pending request, where the user allows or denies it. */
          kind: z.enum(['open_project', 'go_to_session', 'answer_request']),
          project: z.string(),
          session: z.string().optional(),
          label: z.string().max(80),
        }),
      )
      .max(3)
      .default([]),
  }),
)
export type PmAnswer = z.infer<typeof pmAnswerSchema>

/** One question and its answer, kept so a follow-up can refer to it (`$NAVI_HOME/pm/asks.jsonl`). */
export const pmExchangeSchema = lazySchema(() =>
  z.object({
    question: z.string(),
    answer: z.string(),
    asked_at: z.string(),
  }),
)
export type PmExchange = z.infer<typeof pmExchangeSchema>

/** The outcome of one question: the answer, or why there is none. */
export const pmAskResultSchema = lazySchema(() =>
  z.object({
    answer: pmAnswerSchema.nullable(),
    error: z.string().nullable(),
  }),
)
export type PmAskResult = z.infer<typeof pmAskResultSchema>
