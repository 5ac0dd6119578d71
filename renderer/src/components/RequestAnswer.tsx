import { useState } from 'react'
import { answerToPending } from '../../../shared/schemas/answer.ts'
import type { Session } from '../../../shared/schemas/session.ts'
import { invoke } from '../lib/api.ts'
import { isAnswerable, relativeTime, singleLine } from '../store/selectors.ts'
import { useUiStore } from '../store/ui-store.ts'

/**
 * What a session waiting on permission asks, exactly (tool, command or file, the agent's words, how long
 * it has waited), and Allow / Deny / Deny with a reason while Navi's hook holds the request open. The
 * answer names the request as shown (id, tool, input digest): if it changed meanwhile, Navi refuses it.
 */
export function RequestAnswer({ session, now }: { session: Session; now: number }) {
  const notify = useUiStore((s) => s.notify)
  const [reasonOpen, setReasonOpen] = useState(false)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const pending = session.pending_request
  if (!pending || session.status !== 'needs_permission') return null
  const answerable = isAnswerable(session, now)

  const send = async (decision: 'allow' | 'deny', message?: string) => {
    const answer = answerToPending(session, decision, message)
    if (!answer) return
    setBusy(true)
    const result = await invoke('session:answer', answer)
    setBusy(false)
    if (!result.ok) notify(`Could not answer: ${result.error.message}`)
    else notify(result.data.message)
    if (result.ok && result.data.done) setReasonOpen(false)
  }

  return (
    <div className="detail-request" data-testid="request-answer" data-answerable={answerable}>
      <div className="request-call" data-testid="request-call">
        <span className="request-tool">{singleLine(pending.tool)}</span>
        {pending.detail && (
          <code className="request-detail ellipsis" title={singleLine(pending.detail)}>
            {singleLine(pending.detail)}
          </code>
        )}
      </div>
      <div data-testid="pending-request">
        {pending.description && (
          <span className="detail-request-words">“{singleLine(pending.description)}”</span>
        )}
        {pending.since && (
          <span className="muted nowrap"> asked {relativeTime(now, pending.since)}</span>
        )}
      </div>
      {answerable ? (
        <div className="request-actions">
          <button
            type="button"
            className="small-button"
            data-testid="answer-allow"
            disabled={busy}
            onClick={() => void send('allow')}
          >
            Allow
          </button>
          <button
            type="button"
            className="small-button"
            data-testid="answer-deny"
            disabled={busy}
            onClick={() => void send('deny')}
          >
            Deny
          </button>
          <button
            type="button"
            className="small-button"
            data-testid="answer-deny-reason"
            disabled={busy}
            onClick={() => setReasonOpen((open) => !open)}
          >
            Deny with a reason…
          </button>
          {reasonOpen && (
            <form
              className="request-reason"
              onSubmit={(event) => {
                event.preventDefault()
                void send('deny', reason.trim())
              }}
            >
              <input
                data-testid="answer-reason"
                value={reason}
                maxLength={2000}
                placeholder="What should it do instead?"
                onChange={(event) => setReason(event.target.value)}
              />
              <button type="submit" className="small-button" disabled={busy}>
                Send
              </button>
            </form>
          )}
        </div>
      ) : (
        <div className="muted" data-testid="request-not-answerable">
          Answer it in its terminal (Navi answers while its hook holds the request — Away — or in
          tmux)
        </div>
      )}
    </div>
  )
}
