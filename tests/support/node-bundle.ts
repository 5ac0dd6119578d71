/**
 * Bundles a TypeScript entry the way `npm run build:cli` bundles the CLI (Node ESM, packages external),
 * into `out/<folder>/` of this checkout: the same depth as out/cli/, so the bundle finds node_modules and
 * resources/ as the real one does. Returns the file and a function that removes the folder.
 */
import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'

const ROOT = resolve(import.meta.dirname, '../..')

export async function bundleForNode(
  entry: string,
  folder: string,
  name: string,
): Promise<{ file: string; dispose(): void }> {
  const dir = join(ROOT, 'out', folder)
  const file = join(dir, name)
  await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: file,
    logLevel: 'silent',
  })
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) }
}
