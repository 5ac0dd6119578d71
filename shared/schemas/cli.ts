import * as z from 'zod'
import { engineEventSchema } from './event.ts'
import { sessionSchema } from './session.ts'
import { lazySchema } from './lazy-schema.ts'

/** `navi status --json` prints an EngineState (shared/schemas/state.ts). */

/** `navi sessions --json` */
export const sessionsOutputSchema = lazySchema(() =>
  z.object({
    generated_at: z.string(),
    sessions: z.array(sessionSchema.extend({ project: z.string().nullable() })),
  }),
)
export type SessionsOutput = z.infer<typeof sessionsOutputSchema>

/** `navi events --json` */
export const eventsOutputSchema = lazySchema(() => z.object({ events: z.array(engineEventSchema) }))
export type EventsOutput = z.infer<typeof eventsOutputSchema>

/** `navi doctor --json` */
export const doctorCheckSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    ok: z.boolean(),
    detail: z.string(),
    fix: z.string().nullable(),
  }),
)
export const doctorOutputSchema = lazySchema(() =>
  z.object({
    checks: z.array(doctorCheckSchema),
    corrupt_lines: z.record(z.string(), z.number()),
    /** Files with lines skipped or values ignored, each with its path. */
    notes: z.array(z.string()).default([]),
    errors: z.array(z.string()),
    /** Navi's log and its newest error lines (what a running tray or `navi serve` survived). */
    log: z.object({ file: z.string(), recent_errors: z.array(z.string()) }).optional(),
  }),
)
export type DoctorCheck = z.infer<typeof doctorCheckSchema>
export type DoctorOutput = z.infer<typeof doctorOutputSchema>
