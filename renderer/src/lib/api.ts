import type {
  IpcChannel,
  IpcInput,
  IpcOutput,
  IpcResult,
  RendererApi,
} from '../../../shared/ipc-contract.ts'
import { createHttpTransport } from './http-transport.ts'

export type TransportKind = 'ipc' | 'http'

/** The Electron preload's `window.api` when present, else the `navi serve` HTTP transport. */
function pickTransport(): { api: RendererApi; kind: TransportKind } {
  const preload = (window as { api?: RendererApi }).api
  return preload ? { api: preload, kind: 'ipc' } : { api: createHttpTransport(), kind: 'http' }
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
