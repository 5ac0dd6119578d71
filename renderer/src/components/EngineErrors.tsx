import { useShallow } from 'zustand/react/shallow'
import { useBriefingStore } from '../store/briefing-store.ts'
import { useEventsStore } from '../store/events-store.ts'
import { useProjectsStore } from '../store/projects-store.ts'
import { singleLine } from '../store/selectors.ts'

/** The engine's own errors and any failed load, compactly: the first one, the rest on hover. */
export function EngineErrors() {
  const errors = useProjectsStore(useShallow((s) => s.state?.errors ?? []))
  const loadErrors = [
    useProjectsStore((s) => s.error),
    useEventsStore((s) => s.error),
    useBriefingStore((s) => s.error),
  ].filter((e): e is string => e !== null)
  const all = [...loadErrors, ...errors]
  if (all.length === 0) return null
  return (
    <div
      className="errors"
      data-testid="engine-errors"
      title={all.map(singleLine).join('\n')}
      role="alert"
    >
      <span className="errors-mark">!</span>
      <span className="errors-text">{singleLine(all[0] ?? '')}</span>
      {all.length > 1 && <span className="errors-more">+{all.length - 1}</span>}
    </div>
  )
}
