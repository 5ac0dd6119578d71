import { missingTools } from '../store/selectors.ts'
import { useToolsStore } from '../store/tools-store.ts'

/**
 * Missing tools: claude or git in a warning banner with how to install each; tmux and gh, which only add
 * detail (panes, pull requests), in one quiet line whose tooltip says how to get them.
 */
export function ToolsBanner() {
  const tools = useToolsStore((s) => s.tools)
  const { required, optional } = missingTools(tools)
  if (required.length === 0 && optional.length === 0) return null
  return (
    <section className="tools" data-testid="tools-missing" role="status">
      {required.length > 0 && (
        <ul className="banner banner-list">
          {required.map((t) => (
            <li key={t.name} data-tool={t.name}>
              <strong>{t.name}</strong> not found{' '}
              <span className="banner-fix">— {t.fix ?? 'install it and restart Navi'}</span>
            </li>
          ))}
        </ul>
      )}
      {optional.length > 0 && (
        <p
          className="banner-quiet"
          data-testid="tools-optional"
          title={optional.map((t) => `${t.name}: ${t.fix ?? 'not found'}`).join('\n')}
        >
          {optional.map((t) => t.name).join(' and ')} not found: {optionalEffect(optional)}
        </p>
      )}
    </section>
  )
}

function optionalEffect(optional: { name: string }[]): string {
  const effects: Record<string, string> = {
    tmux: 'no “Go to session”',
    gh: 'pull-request state unknown',
  }
  return optional.map((t) => effects[t.name] ?? 'less detail').join(', ')
}
