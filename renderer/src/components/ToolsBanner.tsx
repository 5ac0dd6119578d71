import { missingTools } from '../store/selectors.ts'
import { useToolsStore } from '../store/tools-store.ts'

/** Which of claude, git, tmux and gh are missing, and how to get each. */
export function ToolsBanner() {
  const tools = useToolsStore((s) => s.tools)
  const missing = missingTools(tools)
  if (missing.length === 0) return null
  return (
    <section className="banner" data-testid="tools-missing" role="status">
      <ul className="banner-list">
        {missing.map((t) => (
          <li key={t.name} data-tool={t.name}>
            <strong>{t.name}</strong> not found{' '}
            <span className="banner-fix">— {t.fix ?? 'install it and restart Navi'}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
