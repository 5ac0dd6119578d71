/**
 * The pushes every face receives, from one place: engine cycles become `state:changed` and
 * `events:appended`, PM progress `pm:status`, new briefings `briefing:changed`. The tray's IPC bridge
 * and `navi serve`'s SSE streams both subscribe here.
 */
import type { PushChannel, PushPayload } from '../../shared/ipc-contract.ts'
import type { PmRunStatus } from '../../shared/schemas/briefing.ts'
import type { Engine } from '../engine/index.ts'
import type { Pm } from '../pm/index.ts'

export type PushListener = (channel: PushChannel, payload: unknown) => void
/** Sends one push; the payload is checked against the channel's schema type where it is sent. */
export type Publish = <C extends PushChannel>(channel: C, payload: PushPayload<C>) => void

export interface PushHub {
  /** Returns the unsubscribe function. */
  subscribe(listener: PushListener): () => void
  /** Sends to every listener; one that throws never keeps the others from receiving it. */
  publish: Publish
  /** Detaches from the engine and the PM; listeners receive nothing more. */
  stop(): void
  /** The PM run in progress (its last status), or null when none is. */
  running(): PmRunStatus | null
}

export function createPushHub(sources: { engine: Engine; pm: Pm | null }): PushHub {
  const listeners = new Set<PushListener>()
  let running: PmRunStatus | null = null
  let stopped = false

  const publish: Publish = (channel, payload) => {
    if (stopped) return
    for (const listener of [...listeners]) {
      try {
        listener(channel, payload)
      } catch {
        // A broken face (a closed window, a dropped stream) must not silence the others.
      }
    }
  }

  const detach = [
    sources.engine.subscribe((events, state) => {
      publish('state:changed', state)
      if (events.length > 0) publish('events:appended', events)
    }),
    ...(sources.pm
      ? [
          sources.pm.onStatus((status) => {
            running = status.phase === 'done' || status.phase === 'failed' ? null : status
            publish('pm:status', status)
          }),
          sources.pm.onBriefing((state) => {
            running = null
            publish('briefing:changed', { state, running: null })
          }),
          sources.pm.onAnswerProgress((progress) => publish('pm:answer', progress)),
        ]
      : []),
  ]

  return {
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    publish,
    stop() {
      stopped = true
      for (const off of detach) off()
      listeners.clear()
    },
    running: () => running,
  }
}
