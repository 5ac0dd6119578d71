import { knownContentType, resolveStaticPath } from '../../runtime/static-files.ts'

/** The scheme the built renderer is served on: a standard, secure origin instead of `file:`. */
export const RENDERER_SCHEME = 'navi'
export const RENDERER_HOST = 'app'
export const RENDERER_URL = `${RENDERER_SCHEME}://${RENDERER_HOST}/index.html`

/**
 * The file a `navi://app/…` request asks for, inside `rootDir` and nowhere else: another host, an
 * unknown file type, or a path that escapes the root (`..`, encoded separators, absolute paths) is
 * refused with null.
 */
export function resolveRendererAsset(
  rootDir: string,
  requestUrl: string,
): { path: string; mime: string } | null {
  let url: URL
  try {
    url = new URL(requestUrl)
  } catch {
    return null
  }
  if (url.protocol !== `${RENDERER_SCHEME}:` || url.host !== RENDERER_HOST) return null
  const resolved = resolveStaticPath(rootDir, url.pathname)
  if (!resolved.ok) return null
  const mime = knownContentType(resolved.path)
  return mime ? { path: resolved.path, mime } : null
}
