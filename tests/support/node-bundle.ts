/**
 * Bundles a TypeScript entry the way `npm run build:cli` bundles the CLI (scripts/cli-bundle.mjs), into
 * `out/<folder>/` of this checkout: the same depth as out/cli/, so the bundle finds resources/ as the real
 * one does. Returns the file (the entry's name given as `name`) and a function that removes the folder.
 */
import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { bundleCli } from '../../scripts/cli-bundle.ts'

const ROOT = resolve(import.meta.dirname, '../..')

export async function bundleForNode(
  entry: string,
  folder: string,
  name: string,
): Promise<{ file: string; dispose(): void }> {
  const dir = join(ROOT, 'out', folder)
  const file = join(dir, name)
  await bundleCli({ entry: join(ROOT, entry), outdir: dir, logLevel: 'silent' })
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) }
}
