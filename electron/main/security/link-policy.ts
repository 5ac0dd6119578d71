/**
 * Which URLs the app lets through: links the user may open in the browser, and where the popover's own
 * window may navigate. Pure; `harden.ts` applies it.
 */

/** Hosts whose pages the popover may open in the user's browser (exact host names, no subdomains). */
export const DEFAULT_ALLOWED_LINK_HOSTS: readonly string[] = [
  'github.com',
  'docs.anthropic.com',
  'www.anthropic.com',
  'docs.claude.com',
  'code.claude.com',
  'npmjs.com',
  'www.npmjs.com',
]

function parse(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    // Not a URL: the link stays closed, which is the answer.
    return null
  }
}

/**
 * True for an https URL on an allowed host, on the default port and without credentials: anything else
 * (file:, javascript:, custom schemes, look-alike hosts, `user@host` tricks) stays closed.
 */
export function isAllowedExternalLink(
  url: string,
  allowHosts: readonly string[] = DEFAULT_ALLOWED_LINK_HOSTS,
): boolean {
  const parsed = parse(url)
  if (!parsed) return false
  if (parsed.protocol !== 'https:') return false
  if (parsed.username !== '' || parsed.password !== '' || parsed.port !== '') return false
  const host = parsed.hostname.toLowerCase()
  return allowHosts.some((allowed) => allowed.toLowerCase() === host)
}

/**
 * True when `url` is the app itself: the same origin as the app's dev-server URL, the same scheme and host
 * for the app's own scheme, or, for an app loaded from `file:`, the same file (query and hash may differ). Every other navigation is refused.
 */
export function isAllowedNavigation(url: string, appUrl: string): boolean {
  const target = parse(url)
  const app = parse(appUrl)
  if (!target || !app) return false
  if (app.protocol === 'file:')
    return target.protocol === 'file:' && target.pathname === app.pathname
  if (app.protocol === 'http:' || app.protocol === 'https:') return target.origin === app.origin
  // A custom scheme (the packaged renderer's `navi://app/`) has no origin in the URL standard.
  return (
    app.host !== '' &&
    target.protocol === app.protocol &&
    target.host === app.host &&
    target.username === '' &&
    target.password === ''
  )
}
