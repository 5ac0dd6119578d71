import { useEffect, useState } from 'react'
import type { Session } from '../../../shared/schemas/session.ts'
import { invoke } from '../lib/api.ts'
import { useUiStore } from '../store/ui-store.ts'

/**
 * One session's "answer from Navi": while on, Navi's hook holds that session's permission requests for an
 * answer from here (as Away does for every session). Off by default; the hook never approves by itself.
 */
export function HoldToggle({ session }: { session: Session }) {
  const notify = useUiStore((s) => s.notify)
  const [on, setOn] = useState<boolean | null>(null)
  useEffect(() => {
    let live = true
    void invoke('answering:get', undefined).then((result) => {
      if (live && result.ok && result.data?.sessions) setOn(session.id in result.data.sessions)
    })
    return () => {
      live = false
    }
  }, [session.id])
  if (on === null || session.agent !== 'claude' || session.status === 'ended') return null
  const toggle = async () => {
    const result = await invoke('answering:set', { session_id: session.id, on: !on })
    if (!result.ok) return notify(`Could not change it: ${result.error.message}`)
    setOn(session.id in result.data.sessions)
  }
  return (
    <button
      type="button"
      className="link-button hold-toggle"
      data-testid="hold-toggle"
      aria-pressed={on}
      title="Hold this session's permission requests for an answer from Navi"
      onClick={() => void toggle()}
    >
      {on ? 'Answering its requests here' : 'Answer its requests here'}
    </button>
  )
}
