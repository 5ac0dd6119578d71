import * as z from 'zod'
import { agentKindSchema, sessionStatusSchema, troubleKindSchema } from './session.ts'
import { lazySchema } from './lazy-schema.ts'

export const eventTypeSchema = lazySchema(() =>
  z.enum([
    'commit',
    'branch_created',
    'task_started',
    'task_completed',
    'pbi_completed',
    'session_started',
    'session_ended',
    'session_status_change',
    'pr_created',
    'turn_completed',
    'permission_denied',
    'session_trouble',
    'session_trouble_cleared',
    'task_started_by_navi',
    'task_notify',
    'task_finished',
  ]),
)
export type EventType = z.infer<typeof eventTypeSchema>

// A field an older Navi did not write yet (or a hand-made line left out) gets a neutral value instead of
// costing the whole event; a field of the wrong type makes the line corrupt (skipped and counted).
// Made by the (lazy) schemas that use them, not when the module loads: every command loads this module.
const text = () => z.string().default('')
const maybeText = () => z.string().nullable().default(null)
const taskDetailsSchema = lazySchema(() =>
  z.object({
    pbi: text(),
    pbi_title: text(),
    task_id: text(),
    task_title: text(),
    source: text(),
  }),
)

/**
 * What each type of event carries (core/diff.ts builds them). Text fields hold what agents, repositories
 * and transcripts wrote: untrusted, to be shown through shared/event-text.ts or shared/text.ts.
 */
export const eventDetailsSchemas = lazySchema(
  () =>
    ({
      commit: z.object({
        sha: text(),
        message: text(),
        branch: maybeText(),
        author: z.string().optional(),
        committed_at: z.string().optional(),
        /** On the last of a burst too long to list one by one: how many more there were. */
        more_commits: z.number().int().optional(),
      }),
      branch_created: z.object({ branch: text(), sha: text() }),
      pr_created: z.object({
        branch: maybeText(),
        number: z.number().int().optional(),
        url: z.string().optional(),
      }),
      task_started: taskDetailsSchema,
      task_completed: taskDetailsSchema,
      pbi_completed: z.object({
        pbi: text(),
        title: text(),
        source: text(),
        tasks: z.number().int().optional(),
      }),
      session_started: z.object({
        agent: agentKindSchema.optional(),
        name: text(),
        cwd: text(),
        status: sessionStatusSchema.optional(),
        reason: maybeText(),
        /** An ended session that came back (`claude --resume`). */
        resumed: z.literal(true).optional(),
      }),
      session_ended: z.object({
        agent: agentKindSchema.optional(),
        name: text(),
        reason: maybeText(),
      }),
      session_status_change: z.object({
        from: sessionStatusSchema,
        to: sessionStatusSchema,
        reason: maybeText(),
        name: text(),
        agent: agentKindSchema.optional(),
      }),
      turn_completed: z.object({
        agent: agentKindSchema.optional(),
        name: text(),
        /** What the turn answered, and an excerpt of its final reply (each at most 300 characters). */
        prompt: maybeText(),
        reply: maybeText(),
        duration_ms: z.number().nullable().default(null),
        /** Turns that finished since the previous look; the event describes the last of them. */
        turns: z.number().int().default(1),
        /** Tokens the session spent since the previous look (its whole spend when first seen). */
        tokens: z.number().int().min(0).default(0),
      }),
      permission_denied: z.object({
        name: text(),
        tool: maybeText(),
        detail: maybeText(),
        reason: maybeText(),
      }),
      /** A session ran into trouble (engine/core/trouble.ts): stalled, failing, rate limited, waiting long. */
      session_trouble: z.object({
        agent: agentKindSchema.optional(),
        name: text(),
        kind: troubleKindSchema,
        reason: text(),
        since: maybeText(),
      }),
      /** The trouble of a session ended (it moved on, recovered or ended). */
      session_trouble_cleared: z.object({
        agent: agentKindSchema.optional(),
        name: text(),
        kind: troubleKindSchema,
      }),
      /** A task delegated from Navi started (`navi run`, the popover's New task). */
      task_started_by_navi: z.object({
        task_id: text(),
        /** The task as the user wrote it (clipped). */
        text: text(),
        agent: agentKindSchema.optional(),
        plan: z.boolean().default(false),
      }),
      /** What a delegated task relayed (`[NOTIFY]`, its question, its plan, "still working"). */
      task_notify: z.object({ task_id: text(), text: text(), note: text() }),
      /** A delegated task ended: completed, failed or cancelled, with why and what it cost. */
      task_finished: z.object({
        task_id: text(),
        text: text(),
        status: z.enum(['completed', 'failed', 'cancelled']),
        reason: maybeText(),
        cost_usd: z.number().nonnegative().default(0),
      }),
    }) satisfies Record<EventType, z.ZodType>,
)

export type EventDetails<T extends EventType> = z.infer<(typeof eventDetailsSchemas)[T]>
/** What a producer may leave out (the defaults fill it in when the event is parsed). */
export type EventDetailsInput<T extends EventType> = z.input<(typeof eventDetailsSchemas)[T]>

const eventBase = () => ({
  id: z.string().min(1),
  timestamp: z.string(),
  project: z.string(),
  session: z.string().optional(),
})
const eventOf = <T extends EventType>(type: T) =>
  z.object({ ...eventBase(), type: z.literal(type), details: eventDetailsSchemas[type] })

/**
 * One line of `$NAVI_HOME/pm/events.jsonl`: the seed's `{timestamp, type, project, details}` plus a
 * content-derived `id` (the same change always gets the same id, so restarts and two engines never
 * duplicate it) and the session it concerns. A union on `type`: each type's `details` has its own schema.
 */
export const engineEventSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    eventOf('commit'),
    eventOf('branch_created'),
    eventOf('task_started'),
    eventOf('task_completed'),
    eventOf('pbi_completed'),
    eventOf('session_started'),
    eventOf('session_ended'),
    eventOf('session_status_change'),
    eventOf('pr_created'),
    eventOf('turn_completed'),
    eventOf('permission_denied'),
    eventOf('session_trouble'),
    eventOf('session_trouble_cleared'),
    eventOf('task_started_by_navi'),
    eventOf('task_notify'),
    eventOf('task_finished'),
  ]),
)
export type EngineEvent = z.infer<typeof engineEventSchema>
/** An event as a producer or a test may write it: details with defaults may be left out. */
export type EngineEventInput = z.input<typeof engineEventSchema>
/** The event of one type: `EventOf<'commit'>['details'].sha` is a string. */
export type EventOf<T extends EventType> = Extract<EngineEvent, { type: T }>
