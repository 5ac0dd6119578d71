/**
 * Locks the popover's web contents down: no permissions, no navigation away from the app, no new windows or
 * webviews, and a strict Content-Security-Policy. Allowed links open in the user's browser instead.
 */
import { shell, type Session, type WebContents } from 'electron'
import {
  DEFAULT_ALLOWED_LINK_HOSTS,
  isAllowedExternalLink,
  isAllowedNavigation,
} from './link-policy.ts'

import { RENDERER_CSP } from '../../../shared/csp.ts'
import { errorText } from '../../../shared/log.ts'

export interface HardenSessionOptions {
  /** The CSP header added to every response; null adds none (the Vite dev server's inline preamble). */
  csp?: string | null
}

/** Denies every permission request and check, and sets the CSP header on every response. */
export function hardenSession(session: Session, options: HardenSessionOptions = {}): void {
  const csp = options.csp === undefined ? RENDERER_CSP : options.csp
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
  if (csp === null) return
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = Object.fromEntries(
      Object.entries(details.responseHeaders ?? {}).filter(
        ([name]) => name.toLowerCase() !== 'content-security-policy',
      ),
    )
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [csp] } })
  })
}

export interface HardenWebContentsOptions {
  /** The URL the app was loaded from (dev-server URL or the `file:` URL of index.html). */
  appUrl: string
  allowHosts?: readonly string[]
  /** Opens an allowed link outside the app; `shell.openExternal` by default. */
  openExternal?: (url: string) => void
}

/**
 * Keeps `contents` on the app: navigations and redirects elsewhere are cancelled, `window.open` and
 * `target=_blank` never create windows, webviews never attach. Allowed links open in the browser.
 */
export function hardenWebContents(contents: WebContents, options: HardenWebContentsOptions): void {
  const allowHosts = options.allowHosts ?? DEFAULT_ALLOWED_LINK_HOSTS
  const openExternal =
    options.openExternal ??
    ((url: string) =>
      void shell
        .openExternal(url)
        .catch((error: unknown) =>
          console.error(`navi: opening a link failed: ${errorText(error)}`),
        ))
  const openIfAllowed = (url: string) => {
    if (isAllowedExternalLink(url, allowHosts)) openExternal(url)
  }

  contents.on('will-navigate', (event) => {
    if (isAllowedNavigation(event.url, options.appUrl)) return
    event.preventDefault()
    openIfAllowed(event.url)
  })
  contents.on('will-redirect', (event) => {
    if (!isAllowedNavigation(event.url, options.appUrl)) event.preventDefault()
  })
  contents.setWindowOpenHandler(({ url }) => {
    openIfAllowed(url)
    return { action: 'deny' }
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
}
