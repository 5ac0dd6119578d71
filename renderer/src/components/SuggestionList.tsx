import { useEffect, useState } from 'react'
import type { Suggestion } from '../../../shared/schemas/suggestion.ts'
import { invoke } from '../lib/api.ts'
import { useBriefingStore } from '../store/briefing-store.ts'
import { useProjectsStore } from '../store/projects-store.ts'
import { singleLine } from '../store/selectors.ts'
import { useUiStore } from '../store/ui-store.ts'

const KIND_LABEL: Record<Suggestion['kind'], string> = {
  open_pr: 'PR?',
  resume_project: 'Resume',
  unblock_session: 'Waiting',
  review_stall: 'Stuck?',
}

/**
 * What to do next, with the facts it rests on: Navi's rules (at once, from the projects) and the PM's.
 * Fetched again whenever the projects or the briefing change; the action is offered, never taken.
 */
export function SuggestionList() {
  const generatedAt = useProjectsStore((s) => s.state?.generated_at)
  const briefingAt = useBriefingStore((s) => s.state?.briefing?.generated_at)
  const dismiss = useBriefingStore((s) => s.dismiss)
  const navigate = useUiStore((s) => s.navigate)
  const focusSession = useUiStore((s) => s.focusSession)
  const [suggestions, setSuggestions] = useState<Suggestion[]>([])
  const [version, setVersion] = useState(0)
  useEffect(() => {
    let live = true
    void invoke('suggestions:list', undefined).then((result) => {
      // A server that answers nothing usable leaves the list empty rather than the popover broken.
      if (live && result.ok) setSuggestions(Array.isArray(result.data) ? result.data : [])
    })
    return () => {
      live = false
    }
  }, [generatedAt, briefingAt, version])
  if (suggestions.length === 0) return null
  return (
    <ul className="attention" aria-label="Suggestions">
      {suggestions.map((s) => (
        <li
          key={`${s.kind}:${s.project}:${s.title}`}
          className="attention-item suggestion"
          data-testid="suggestion"
          data-kind={s.kind}
          data-source={s.source}
          title={singleLine(s.evidence.join('; '))}
        >
          <span className="suggestion-kind">{KIND_LABEL[s.kind]}</span>
          <span className="attention-project">{singleLine(s.project)}</span>
          <span className="attention-title">
            {singleLine(s.title)}
            <span className="suggestion-evidence" data-testid="suggestion-evidence">
              {singleLine(s.evidence.join(' · '))}
            </span>
          </span>
          <span className="attention-buttons">
            {s.action && (
              <button
                type="button"
                className="link-button"
                data-testid="suggestion-action"
                onClick={() => {
                  const action = s.action
                  if (action?.type === 'go_to_session' && action.session_id) {
                    void focusSession(action.session_id)
                  } else if (action) navigate('project', action.project)
                }}
              >
                {s.action.type === 'go_to_session' ? 'Go' : 'Open'}
              </button>
            )}
            <button
              type="button"
              className="link-button"
              data-testid="suggestion-dismiss"
              aria-label={`Dismiss: ${singleLine(s.title)}`}
              onClick={() => void dismiss(s).then(() => setVersion((v) => v + 1))}
            >
              ✕
            </button>
          </span>
        </li>
      ))}
    </ul>
  )
}
