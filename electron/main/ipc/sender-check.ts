import { isAllowedNavigation } from '../security/link-policy.ts'

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
  return isAllowedNavigation(sender.frameUrl, trusted.appUrl)
}
