import { useState } from 'react'
import { useAskStore } from '../store/ask-store.ts'
import { singleLine } from '../store/selectors.ts'
import { useUiStore } from '../store/ui-store.ts'

/**
 * A question to the PM, under its briefing (opened by the PM header's "Ask"): the answer in its words
 * (inert), and the actions it offers as buttons the user may press. The PM never acts by itself.
 */
export function AskBox() {
  const [draft, setDraft] = useState('')
  const { open, question, pending, answer, partial, error, ask, clear } = useAskStore()
  const navigate = useUiStore((s) => s.navigate)
  const focusSession = useUiStore((s) => s.focusSession)
  if (!open) return null
  return (
    <div className="ask" data-testid="ask">
      <form
        className="ask-form"
        onSubmit={(event) => {
          event.preventDefault()
          void ask(draft)
          setDraft('')
        }}
      >
        <input
          className="ask-input"
          data-testid="ask-input"
          type="text"
          maxLength={2000}
          placeholder="Ask the PM…"
          aria-label="Ask the PM"
          value={draft}
          disabled={pending}
          // Opened on purpose: the question is typed at once.
          autoFocus
          onChange={(event) => setDraft(event.target.value)}
        />
      </form>
      {question && (pending || answer || error) && (
        <div className="ask-result" data-testid="ask-result" aria-live="polite">
          <div className="ask-question muted">{singleLine(question)}</div>
          {pending && !partial && <div className="updating">thinking…</div>}
          {pending && partial && (
            <p className="ask-answer ask-answer--partial" data-testid="ask-partial">
              {singleLine(partial)}
              <span className="updating"> writing…</span>
            </p>
          )}
          {answer && (
            <p className="ask-answer" data-testid="ask-answer">
              {singleLine(answer.answer)}
            </p>
          )}
          {error && (
            <p className="ask-error" data-testid="ask-error">
              {singleLine(error)}
            </p>
          )}
          {answer && answer.actions.length > 0 && (
            <div className="ask-actions">
              {answer.actions.map((action, i) => (
                <button
                  key={`${action.kind}-${i}`}
                  type="button"
                  className="small-button"
                  data-testid="ask-action"
                  onClick={() =>
                    // answer_request opens the project, whose detail holds Allow / Deny: the user decides.
                    action.kind === 'go_to_session' && action.session
                      ? void focusSession(action.session)
                      : navigate('project', action.project)
                  }
                >
                  {singleLine(action.label)}
                </button>
              ))}
            </div>
          )}
          {!pending && (
            <button type="button" className="link-button" onClick={clear}>
              Clear
            </button>
          )}
        </div>
      )}
    </div>
  )
}
