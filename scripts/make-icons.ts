/**
 * Writes `resources/icon.png`, the 512 px app icon electron-builder packages, from the same drawing code
 * as the tray (whose icons are drawn at run time, so none are stored). Run: `npx tsx scripts/make-icons.ts`.
 */
import { writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderAppIcon } from '../electron/main/tray/icon-bitmap.ts'
import { encodePng } from '../electron/main/tray/png.ts'

const icon = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'icon.png')
await writeFile(icon, encodePng(renderAppIcon(512)))
console.log(`wrote ${icon}`)
