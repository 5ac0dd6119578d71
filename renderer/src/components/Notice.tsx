import { useUiStore } from '../store/ui-store.ts'

/** The last command that did not work (refresh, go to session…), until dismissed. */
export function Notice() {
  const notice = useUiStore((s) => s.notice)
  const notify = useUiStore((s) => s.notify)
  if (!notice) return null
  return (
    <div className="notice" data-testid="notice" role="status">
      <span className="notice-text">{notice}</span>
      <button
        type="button"
        className="icon-button"
        aria-label="Dismiss"
        onClick={() => notify(null)}
      >
        ×
      </button>
    </div>
  )
}
