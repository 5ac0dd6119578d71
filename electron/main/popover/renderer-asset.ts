import { extname, isAbsolute, relative, resolve, sep } from 'node:path'

/** The scheme the built renderer is served on: a standard, secure origin instead of `file:`. */
export const RENDERER_SCHEME = 'navi'
export const RENDERER_HOST = 'app'
export const RENDERER_URL = `${RENDERER_SCHEME}://${RENDERER_HOST}/index.html`

const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
}

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
  let pathname: string
  try {
    pathname = decodeURIComponent(url.pathname)
  } catch {
    return null
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null
  const wanted = pathname === '/' ? '/index.html' : pathname
  const root = resolve(rootDir)
  const path = resolve(root, `.${wanted}`)
  const inside = relative(root, path)
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside))
    return null
  const mime = MIME[extname(path).toLowerCase()]
  return mime ? { path, mime } : null
}
