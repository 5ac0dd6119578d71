import { z } from 'zod'
import { engineEventSchema } from './schemas/event.ts'
import { projectSnapshotSchema } from './schemas/project.ts'

/** The engine's state as every face (CLI, tray, browser) sees it. */
export const engineStateSchema = z.object({
  projects: z.array(projectSnapshotSchema),
  generated_at: z.string(),
  errors: z.array(z.string()),
})
export type EngineState = z.infer<typeof engineStateSchema>

/**
 * One typed contract for every transport (Electron IPC now, HTTP + SSE later). Channels are `domain:verb`;
 * each maps to its input and output schemas. The popover and the server are later issues; the contract
 * starts with what the engine can answer today.
 */
export const ipcContract = {
  'state:get': { input: z.void(), output: engineStateSchema },
  'events:list': {
    input: z.object({ sinceMs: z.number().optional(), project: z.string().optional() }),
    output: z.array(engineEventSchema),
  },
} as const

export const pushChannels = {
  'state:changed': engineStateSchema,
  'events:appended': z.array(engineEventSchema),
} as const

export type IpcChannel = keyof typeof ipcContract
export type IpcInput<C extends IpcChannel> = z.infer<(typeof ipcContract)[C]['input']>
export type IpcOutput<C extends IpcChannel> = z.infer<(typeof ipcContract)[C]['output']>
export type PushChannel = keyof typeof pushChannels
export type PushPayload<C extends PushChannel> = z.infer<(typeof pushChannels)[C]>

/** The envelope every call returns: handlers never throw across the bridge. */
export type IpcResult<T> =
  { ok: true; data: T } | { ok: false; error: { code: string; message: string } }

/** What the preload exposes as `window.api`, derived from the contract so drift fails typecheck. */
export interface RendererApi {
  invoke<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcResult<IpcOutput<C>>>
  on<C extends PushChannel>(channel: C, listener: (payload: PushPayload<C>) => void): () => void
}
