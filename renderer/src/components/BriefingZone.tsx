import { useBriefingStore } from '../store/briefing-store.ts'
import { AskBox } from './AskBox.tsx'
import { useAskStore } from '../store/ask-store.ts'
import { relativeTime, singleLine, sortAttentionItems, updatingText } from '../store/selectors.ts'
import { SuggestionList } from './SuggestionList.tsx'
import { useUiStore } from '../store/ui-store.ts'

/** Zone 1: the PM's briefing, what needs attention, and breadcrumbs when you come back. */
export function BriefingZone() {
  const state = useBriefingStore((s) => s.state)
  const running = useBriefingStore((s) => s.running)
  const refresh = useBriefingStore((s) => s.refresh)
  const dismiss = useBriefingStore((s) => s.dismiss)
  const askOpen = useAskStore((s) => s.open)
  const toggleAsk = useAskStore((s) => s.toggle)
  const now = useUiStore((s) => s.now)
  const showBreadcrumbs = useUiStore((s) => s.showBreadcrumbs)
  const briefing = state?.briefing ?? null
  const updating = updatingText(running)
  const attention = briefing ? sortAttentionItems(briefing.output.attention_items) : []
  const breadcrumbs = showBreadcrumbs && briefing ? briefing.output.breadcrumbs : []
  // An older cached briefing has none (the PM's output schema made them optional).
  const patterns = briefing?.output.patterns ?? []

  return (
    <section className="zone zone--briefing" data-testid="zone-briefing" aria-label="PM briefing">
      <header className="zone-head">
        <h2 className="zone-title">PM</h2>
        <span className="zone-meta">
          {updating ? (
            <span className="updating" data-testid="briefing-updating">
              <span className="pulse" aria-hidden="true" />
              {updating}
            </span>
          ) : (
            briefing && (
              <span data-testid="briefing-updated" title={briefing.generated_at}>
                updated {relativeTime(now, briefing.generated_at)}
              </span>
            )
          )}
          {state?.is_stale && (
            <span
              className="stale"
              data-testid="briefing-stale"
              title={state.error ?? 'The last PM run did not finish; this briefing is old.'}
            >
              stale
            </span>
          )}
        </span>
        <button
          type="button"
          className="link-button ask-toggle"
          data-testid="ask-toggle"
          aria-expanded={askOpen}
          onClick={toggleAsk}
        >
          Ask
        </button>
        <button
          type="button"
          className="icon-button"
          data-testid="refresh-button"
          title="Refresh the briefing (r)"
          aria-label="Refresh the briefing"
          disabled={updating !== null}
          onClick={() => refresh()}
        >
          ↻
        </button>
      </header>
      <div className="briefing-body">
        {state?.claude_missing && (
          <p className="claude-missing" data-testid="claude-missing">
            <strong>No briefing:</strong> {state.claude_missing}
          </p>
        )}
        {briefing ? (
          <p className="briefing-text" data-testid="briefing-text">
            {singleLine(briefing.output.briefing)}
          </p>
        ) : (
          // The missing claude above already says why there is none.
          !state?.claude_missing && (
            <p className="briefing-empty" data-testid="briefing-empty">
              No PM briefing yet
            </p>
          )
        )}
        {attention.length > 0 && (
          <ul className="attention">
            {attention.map((item, i) => (
              <li
                key={`${item.project}-${i}`}
                className={`attention-item attention-item--${item.priority}`}
                data-testid="attention-item"
                data-priority={item.priority}
                title={singleLine(item.description ?? item.title)}
              >
                <span className="attention-mark" aria-hidden="true">
                  ⚠
                </span>
                <span className="attention-project">{singleLine(item.project)}</span>
                <span className="attention-title">{singleLine(item.title)}</span>
                <span className="attention-buttons">
                  <button
                    type="button"
                    className="link-button"
                    data-testid="attention-snooze"
                    title="Hide it for an hour"
                    onClick={() => void dismiss(item, 60)}
                  >
                    1h
                  </button>
                  <button
                    type="button"
                    className="link-button"
                    data-testid="attention-dismiss"
                    title="Dismiss: hidden while the PM lists it"
                    aria-label={`Dismiss: ${singleLine(item.title)}`}
                    onClick={() => void dismiss(item)}
                  >
                    ✕
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
        <SuggestionList />
        {patterns.length > 0 && (
          <ul className="breadcrumbs" aria-label="Patterns">
            {patterns.map((p, i) => (
              <li
                key={`${p.project}-${i}`}
                className="breadcrumb"
                data-testid="pattern"
                title={singleLine(p.cites.join(', '))}
              >
                <span className="breadcrumb-project">{singleLine(p.project)}</span>
                <span className="breadcrumb-text">
                  {singleLine(p.statement)}{' '}
                  <span className="muted">({singleLine(p.cites.join(', '))})</span>
                </span>
              </li>
            ))}
          </ul>
        )}
        {breadcrumbs.length > 0 && (
          <ul className="breadcrumbs" aria-label="While you were away">
            {breadcrumbs.map((b, i) => (
              <li key={`${b.project}-${i}`} className="breadcrumb" data-testid="breadcrumb">
                <span className="breadcrumb-project">{singleLine(b.project)}</span>
                <span className="breadcrumb-text">{singleLine(b.message)}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <AskBox />
    </section>
  )
}
