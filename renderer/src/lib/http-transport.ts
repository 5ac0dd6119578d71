import type {
  IpcChannel,
  IpcInput,
  IpcOutput,
  IpcResult,
  PushChannel,
  PushPayload,
  RendererApi,
} from '../../../shared/ipc-contract.ts'

/**
 * The contract over `navi serve`: calls are `POST /api/call/<channel>` with the input as JSON (no body for
 * channels without input), pushes arrive on ONE shared `EventSource('/api/stream')` as named events. The
 * auth cookie rides along because everything is same-origin; EventSource reconnects by itself.
 */
export function createHttpTransport(base = ''): RendererApi {
  const listeners = new Map<PushChannel, Set<(payload: unknown) => void>>()
  let source: EventSource | null = null

  const dispatch = (channel: PushChannel) => (message: MessageEvent<string>) => {
    let payload: unknown
    try {
      payload = JSON.parse(message.data)
    } catch {
      return
    }
    for (const listener of listeners.get(channel) ?? []) listener(payload)
  }

  return {
    invoke: <C extends IpcChannel>(channel: C, input: IpcInput<C>) =>
      call(base, channel, input) as Promise<IpcResult<IpcOutput<C>>>,
    on: <C extends PushChannel>(channel: C, listener: (payload: PushPayload<C>) => void) => {
      source ??= new EventSource(`${base}/api/stream`)
      let set = listeners.get(channel)
      if (!set) {
        set = new Set()
        listeners.set(channel, set)
        source.addEventListener(channel, dispatch(channel))
      }
      const untyped = listener as (payload: unknown) => void
      set.add(untyped)
      return () => {
        set.delete(untyped)
      }
    },
  }
}

async function call(base: string, channel: string, input: unknown): Promise<IpcResult<unknown>> {
  try {
    const response = await fetch(`${base}/api/call/${encodeURIComponent(channel)}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      ...(input === undefined ? {} : { body: JSON.stringify(input) }),
    })
    const text = await response.text()
    const envelope = parseEnvelope(text)
    if (envelope) return envelope
    return {
      ok: false,
      error: {
        code: `http_${response.status}`,
        message:
          response.status === 401
            ? 'Not signed in: open the URL that `navi serve` printed.'
            : text.slice(0, 200) || response.statusText,
      },
    }
  } catch (error) {
    return {
      ok: false,
      error: { code: 'network', message: `Navi is not reachable (${String(error)})` },
    }
  }
}

function parseEnvelope(text: string): IpcResult<unknown> | null {
  try {
    const value: unknown = JSON.parse(text)
    if (value !== null && typeof value === 'object' && 'ok' in value) {
      return value as IpcResult<unknown>
    }
  } catch {
    // not JSON: an error page or a proxy's text
  }
  return null
}
