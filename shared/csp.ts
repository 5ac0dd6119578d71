/**
 * The renderer's Content-Security-Policy, for both transports (the tray's `navi://app/` responses and
 * `navi serve`'s pages): its own scripts, styles and data only, nothing may frame it or be posted from it.
 * `renderer/index.html` repeats it in a meta tag, less the two directives a meta tag cannot carry.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ')
