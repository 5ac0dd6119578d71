import type {
  IpcChannel,
  IpcInput,
  IpcOutput,
  IpcResult,
  PushChannel,
  PushPayload,
  RendererApi,
} from '../../../shared/ipc-contract.ts'

/** A transport whose push stream can drop and come back (pushes sent meanwhile are lost). */
export interface ReconnectingApi extends RendererApi {
  /** Calls `listener` each time the push stream is open again after an interruption. */
  onReconnect(listener: () => void): () => void
}

/**
 * The contract over `navi serve`: calls are `POST /api/call/<channel>` with the input as JSON (no body for
 * channels without input), pushes arrive on ONE shared `EventSource('/api/stream')` as named events. The
 * auth cookie rides along because everything is same-origin; EventSource reconnects by itself, and
 * `onReconnect` says when it did, so the caller can reload what it missed.
 */
export function createHttpTransport(base = ''): ReconnectingApi {
  const listeners = new Map<PushChannel, Set<(payload: unknown) => void>>()
  const reconnectListeners = new Set<() => void>()
  let source: EventSource | null = null
  let interrupted = false

  const openSource = (): EventSource => {
    const opened = new EventSource(`${base}/api/stream`)
    opened.addEventListener('error', () => {
      interrupted = true
    })
    opened.addEventListener('open', () => {
      if (!interrupted) return
      interrupted = false
      for (const listener of reconnectListeners) listener()
    })
    return opened
  }

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
      source ??= openSource()
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
    onReconnect: (listener) => {
      reconnectListeners.add(listener)
      return () => {
        reconnectListeners.delete(listener)
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
