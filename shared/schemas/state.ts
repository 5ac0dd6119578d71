import * as z from 'zod'
import { projectSnapshotSchema } from './project.ts'
import { lazySchema } from './lazy-schema.ts'

/** The engine's state as every face (CLI, tray, browser) sees it: `navi status --json` prints one. */
export const engineStateSchema = lazySchema(() =>
  z.object({
    projects: z.array(projectSnapshotSchema),
    generated_at: z.string(),
    errors: z.array(z.string()),
  }),
)
export type EngineState = z.infer<typeof engineStateSchema>
