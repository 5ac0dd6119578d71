import type {
  IpcChannel,
  IpcInput,
  IpcOutput,
  IpcResult,
  RendererApi,
} from '../../../shared/ipc-contract.ts'
import { createHttpTransport } from './http-transport.ts'

export type TransportKind = 'ipc' | 'http'

interface Picked {
  api: RendererApi
  kind: TransportKind
  onReconnect: (listener: () => void) => () => void
}

/** The Electron preload's `window.api` when present, else the `navi serve` HTTP transport. */
function pickTransport(): Picked {
  const preload = (window as { api?: RendererApi }).api
  // IPC has no connection to lose: pushes reach the page for as long as it lives.
  if (preload) return { api: preload, kind: 'ipc', onReconnect: () => () => undefined }
  const http = createHttpTransport()
  return { api: http, kind: 'http', onReconnect: http.onReconnect }
}

const picked = pickTransport()

/** Which transport this page talks over (shown as `data-transport` on the root). */
export const transport: TransportKind = picked.kind

/** The contract, over whichever transport; never throws (a broken bridge is an `ok: false` envelope). */
export async function invoke<C extends IpcChannel>(
  channel: C,
  input: IpcInput<C>,
): Promise<IpcResult<IpcOutput<C>>> {
  try {
    return await picked.api.invoke(channel, input)
  } catch (error) {
    return { ok: false, error: { code: 'bridge', message: String(error) } }
  }
}

export const on: RendererApi['on'] = (channel, listener) => picked.api.on(channel, listener)

/**
 * Calls `listener` when pushes may have been missed: the push stream dropped and is back. Returns the
 * unsubscribe.
 */
export const onPushesResumed = (listener: () => void): (() => void) => picked.onReconnect(listener)
