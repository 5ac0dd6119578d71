import { z } from 'zod'

/** A duration such as `30s`, `2m`, `1h` or a number of seconds. */
export const durationSchema = z.union([
  z.number().positive(),
  z
    .string()
    .regex(/^\d+(\.\d+)?\s*(ms|s|m|h)$/, 'expected a duration such as 500ms, 30s, 2m or 1h'),
])

export const registeredProjectSchema = z
  .object({
    path: z.string().min(1),
    name: z.string().min(1).optional(),
    /** Markdown checklist, relative to the project (or absolute): `- [ ]` items, `##` headings are PBIs. */
    tasks: z.string().min(1).optional(),
  })
  .strict()

/** `$NAVI_HOME/config.yaml` as written by the user. */
export const rawConfigSchema = z
  .object({
    projects: z.array(registeredProjectSchema).default([]),
    ignore: z.array(z.string()).default([]),
    poll_interval: durationSchema.default('30s'),
  })
  .strict()
export type RawConfig = z.infer<typeof rawConfigSchema>

/** Configuration after `~` expansion and unit conversion. */
export interface NaviConfig {
  projects: { path: string; name?: string; tasks?: string }[]
  ignore: string[]
  pollIntervalMs: number
}
