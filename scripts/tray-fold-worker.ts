/**
 * The tray's fold worker as CommonJS, beside electron-vite's main build (out/main/fold-worker.cjs):
 * electron-vite builds the main process as ES modules (the package's type), whose module variables slow
 * the fold's hot loops (scripts/cli-bundle.ts, buildFoldWorker). fold-pool.ts takes this one first; the
 * ES module one (out/main/fold-worker.js) stays for a build without this step. `npm run build` runs it.
 */
import { existsSync } from 'node:fs'
import { buildFoldWorker } from './cli-bundle.ts'

if (!existsSync('out/main')) {
  console.error('tray-fold-worker: out/main is missing; run `npx electron-vite build` first')
  process.exit(2)
}
await buildFoldWorker('out/main', 'info')
