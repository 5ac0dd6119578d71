/**
 * Which file of the built renderer a URL path names, and its content type: for `navi serve` and for the
 * tray's `navi://app/` scheme alike. Pure.
 */
import { extname, resolve, sep } from 'node:path'

export type StaticPath = { ok: true; path: string } | { ok: false; reason: 'bad_path' | 'outside' }

/**
 * The file under `root` for the (still percent-encoded) URL path: `/` and paths ending in `/` name
 * their `index.html`. Anything that decodes badly, holds a NUL or resolves outside `root` (`..`, encoded
 * or not) is refused.
 */
export function resolveStaticPath(root: string, rawPathname: string): StaticPath {
  if (!rawPathname.startsWith('/')) return { ok: false, reason: 'bad_path' }
  let decoded: string
  try {
    decoded = decodeURIComponent(rawPathname)
  } catch {
    return { ok: false, reason: 'bad_path' }
  }
  // A backslash is a separator on Windows: refuse it everywhere rather than reason about each platform.
  if (decoded.includes('\0') || decoded.includes('\\')) return { ok: false, reason: 'bad_path' }
  const wanted = decoded.endsWith('/') ? `${decoded}index.html` : decoded
  const base = resolve(root)
  const path = resolve(base, `.${wanted}`)
  if (!path.startsWith(base + sep)) return { ok: false, reason: 'outside' }
  return { ok: true, path }
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
}

/** The `Content-Type` for a file, by its extension; unknown ones are opaque bytes. */
export function contentTypeFor(path: string): string {
  return knownContentType(path) ?? 'application/octet-stream'
}

/** The `Content-Type` for a file of a known kind; undefined for any other. */
export function knownContentType(path: string): string | undefined {
  return CONTENT_TYPES[extname(path).toLowerCase()]
}
