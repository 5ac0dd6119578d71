/**
 * Serves the built renderer on `navi://app/` rather than `file:`: with the GrantFileProtocolExtraPrivileges
 * fuse off, a `file:` page cannot load its own module scripts (Chromium's CORS rules), and a standard,
 * secure origin lets the page reach nothing on disk beyond `out/renderer`.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { protocol } from 'electron'
import { RENDERER_CSP } from '../../../shared/csp.ts'
import { RENDERER_SCHEME, resolveRendererAsset } from './renderer-asset.ts'

/** Must run before the app is ready. */
export function registerRendererScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: RENDERER_SCHEME, privileges: { standard: true, secure: true, codeCache: true } },
  ])
}

/** Answers `navi://app/…` from the built renderer directory (inside app.asar when packaged). */
export function serveRenderer(rootDir = join(import.meta.dirname, '../renderer')): void {
  protocol.handle(RENDERER_SCHEME, async (request) => {
    const asset = resolveRendererAsset(rootDir, request.url)
    const body = asset ? await readFile(asset.path).catch(() => null) : null
    if (!asset || !body) return new Response('not found', { status: 404 })
    return new Response(new Uint8Array(body), {
      headers: {
        'Content-Type': asset.mime,
        'Content-Security-Policy': RENDERER_CSP,
        'X-Content-Type-Options': 'nosniff',
      },
    })
  })
}
