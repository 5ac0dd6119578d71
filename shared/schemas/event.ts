import { z } from 'zod'

export const eventTypeSchema = z.enum([
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
])
export type EventType = z.infer<typeof eventTypeSchema>

/**
 * One line of `$NAVI_HOME/pm/events.jsonl`: the seed's `{timestamp, type, project, details}` plus a
 * content-derived `id` (the same change always gets the same id, so restarts and two engines never
 * duplicate it) and the session it concerns.
 */
export const engineEventSchema = z.object({
  id: z.string(),
  timestamp: z.string(),
  type: eventTypeSchema,
  project: z.string(),
  session: z.string().optional(),
  details: z.record(z.string(), z.unknown()),
})
export type EngineEvent = z.infer<typeof engineEventSchema>
