import { useEffect, useState } from 'react'
import type { EngineState } from '../../shared/ipc-contract.ts'

/** Placeholder view until the popover (issue 4): the projects the engine sees. */
export function App() {
  const [state, setState] = useState<EngineState | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    window.api.invoke('state:get', undefined).then((result) => {
      if (result.ok) setState(result.data)
      else setError(result.error.message)
    })
  }, [])

  if (error) return <p>Navi could not read its state: {error}</p>
  if (!state) return <p>Loading…</p>
  return (
    <main>
      <h1>Navi</h1>
      <p>No PM briefing yet</p>
      <ul>
        {state.projects.map((p) => (
          <li key={p.project_dir}>
            {p.name} — {p.session_status ?? 'no session'} — {p.branch ?? ''}
          </li>
        ))}
      </ul>
    </main>
  )
}
