/**
 * Bundles a TypeScript entry the way the benchmarks bundle their programs (scripts/cli-bundle.ts), into
 * `out/<folder>/` of this checkout: the same depth as out/cli/, so the bundle finds resources/ as the real
 * one does. Returns the file (the entry's name given as `name`) and a function that removes the folder.
 */
import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { bundleCli, bundleNaviCli, NAVI_CLI_FILE } from '../../scripts/cli-bundle.ts'

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

/** The `navi` command as `npm run build:cli` builds it (launcher, code, fold worker), into `out/<folder>/`. */
export async function bundleNaviForTest(
  folder: string,
): Promise<{ file: string; dispose(): void }> {
  const dir = join(ROOT, 'out', folder)
  await bundleNaviCli({ outdir: dir, logLevel: 'silent' })
  return {
    file: join(dir, NAVI_CLI_FILE),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  }
}
