import { useState } from 'react'
import type { Session } from '../../../shared/schemas/session.ts'
import { invoke } from '../lib/api.ts'
import { useUiStore } from '../store/ui-store.ts'

/**
 * A reply to a session that waits on its user, typed at its prompt in its tmux pane (Navi checks the
 * pane shows that prompt first). Outside tmux Navi cannot type into a session: the box is not shown, and
 * "Go to session" is the way.
 */
export function ReplyBox({ session }: { session: Session }) {
  const notify = useUiStore((s) => s.notify)
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const waits = session.status === 'waiting_input' || session.status === 'idle'
  if (!waits || !session.tmux_pane || !session.tmux_socket) return null
  const send = async () => {
    const reply = text.trim()
    if (reply === '') return
    setBusy(true)
    const result = await invoke('session:reply', { session_id: session.id, text: reply })
    setBusy(false)
    if (!result.ok) return notify(`Could not reply: ${result.error.message}`)
    notify(result.data.message)
    if (result.data.done) setText('')
  }
  return (
    <form
      className="request-reason"
      data-testid="reply-box"
      onSubmit={(event) => {
        event.preventDefault()
        void send()
      }}
    >
      <input
        data-testid="reply-text"
        value={text}
        maxLength={4000}
        placeholder={`Reply to ${session.name}…`}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="small-button" disabled={busy || text.trim() === ''}>
        Reply
      </button>
    </form>
  )
}
