/**
 * Writes the packaged icons from the same drawing code the tray uses at run time:
 * `resources/icon.png` (512 px app icon for electron-builder) and `resources/tray/*.png`
 * (every tray state × theme at 1× and 2×, macOS `@2x` naming). Run: `npx tsx scripts/make-icons.ts`.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderAppIcon, renderTrayIcon } from '../electron/main/tray/icon-bitmap.ts'
import { encodePng } from '../electron/main/tray/png.ts'

const resources = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources')
const trayDir = join(resources, 'tray')
await mkdir(trayDir, { recursive: true })

await writeFile(join(resources, 'icon.png'), encodePng(renderAppIcon(512)))
let written = 1
for (const state of ['idle', 'working', 'attention'] as const) {
  for (const theme of ['light', 'dark', 'template'] as const) {
    for (const scale of [1, 2] as const) {
      // macOS picks up `…Template.png` / `…Template@2x.png` as template images by name.
      const name = `${state}-${theme === 'template' ? 'Template' : theme}${scale === 2 ? '@2x' : ''}.png`
      await writeFile(
        join(trayDir, name),
        encodePng(renderTrayIcon({ state, badge: 0, theme, scale })),
      )
      written++
    }
  }
}
console.log(`wrote ${written} icons under ${resources}`)
