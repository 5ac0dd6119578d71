import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The built renderer: `NAVI_RENDERER_DIR` when set, else `out/renderer` of the package this file belongs
 * to, found by walking up to Navi's package.json (the sources run by tsx and the bundle at
 * `out/cli/` sit at different depths).
 */
export function resolveRendererDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
  from: string = dirname(fileURLToPath(import.meta.url)),
): string {
  if (env.NAVI_RENDERER_DIR) return resolve(env.NAVI_RENDERER_DIR)
  const root = findPackageRoot(from)
  return join(root ?? resolve(from, '..', '..', '..'), 'out', 'renderer')
}

function findPackageRoot(start: string): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && isNaviManifest(manifest)) return dir
    if (dirname(dir) === dir) return null
  }
}

function isNaviManifest(file: string): boolean {
  try {
    const pkg: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return typeof pkg === 'object' && pkg !== null && 'name' in pkg && pkg.name === 'navi'
  } catch {
    // Unreadable or not JSON: not Navi's manifest, so the search goes on up.
    return false
  }
}
