import { useEffect, useState } from 'react'
import type { AnsweringState } from '../../../shared/schemas/answer.ts'
import { invoke } from '../lib/api.ts'
import { useUiStore } from '../store/ui-store.ts'

/**
 * "Away": while on, Navi's hook holds every agent's permission request open (up to `answering.wait`) so
 * it can be answered from here; off, requests go straight to the agent's own dialog. Off by default.
 */
export function AwayToggle() {
  const notify = useUiStore((s) => s.notify)
  const [state, setState] = useState<AnsweringState | null>(null)
  useEffect(() => {
    let live = true
    void invoke('answering:get', undefined).then((result) => {
      if (live && result.ok && typeof result.data?.away !== 'undefined') setState(result.data)
    })
    return () => {
      live = false
    }
  }, [])
  if (!state) return null
  const away = state.away !== null
  const toggle = async () => {
    const result = await invoke('answering:set', { on: !away })
    if (!result.ok) return notify(`Could not change away: ${result.error.message}`)
    setState(result.data)
    notify(
      result.data.away !== null
        ? `Away: permission requests wait up to ${String(result.data.away)}s for your answer here`
        : 'Back: permission requests go to the agents\u2019 own dialogs',
    )
  }
  return (
    <button
      type="button"
      className={`small-button${away ? ' icon-button--on' : ''}`}
      data-testid="away-toggle"
      aria-pressed={away}
      title="Hold agents' permission requests for an answer from Navi"
      onClick={() => void toggle()}
    >
      {away ? 'Away' : 'At desk'}
    </button>
  )
}
