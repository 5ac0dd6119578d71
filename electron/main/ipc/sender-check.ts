export interface SenderFacts {
  /** URL of the frame that sent the call; null when the frame is already gone. */
  frameUrl: string | null
  /** Whether that frame is its page's main frame (no iframe may call the API). */
  isMainFrame: boolean
  /** `event.sender.id` */
  senderId: number
}

export interface TrustedRenderer {
  /** The renderer's URL: the dev server's, or `navi://app/index.html` (a `file:` URL works too). */
  appUrl: string
  /** `webContents.id` of the popover, the one renderer allowed to call. */
  popoverId: number
}

/**
 * Whether an IPC call may run: it must come from the popover's own web contents, from its main frame, and
 * that frame must show the app (same scheme and host, same dev-server origin, or the same file) — not a page
 * it navigated to.
 */
export function isTrustedSender(sender: SenderFacts, trusted: TrustedRenderer): boolean {
  if (sender.senderId !== trusted.popoverId) return false
  if (!sender.isMainFrame || sender.frameUrl === null) return false
  return isSameApp(sender.frameUrl, trusted.appUrl)
}

const parse = (url: string): URL | null => {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/** Same file for a `file:` app, same origin for http(s), same scheme and host for the app's own scheme. */
function isSameApp(frameUrl: string, appUrl: string): boolean {
  const frame = parse(frameUrl)
  const app = parse(appUrl)
  if (!frame || !app || frame.protocol !== app.protocol) return false
  if (app.protocol === 'file:') return frame.pathname === app.pathname
  if (app.protocol === 'http:' || app.protocol === 'https:') return frame.origin === app.origin
  // A custom standard scheme: WHATWG URL gives it an opaque origin, so compare the host.
  return frame.host === app.host && frame.username === '' && frame.password === ''
}
