/**
 * The tray icon: its image, title and tooltip follow the derived tray state and the system theme; a click
 * toggles the popover, a right-click opens the context menu.
 */
import { Menu, nativeImage, nativeTheme, Tray, type NativeImage, type Rectangle } from 'electron'
import { renderTrayIcon, trayThemeFor } from './icon-bitmap.ts'
import { buildMenuModel, type MenuAction, type MenuModelInput } from './menu-model.ts'
import { encodePng } from './png.ts'
import type { TrayState } from './tray-state.ts'

export interface TrayDeps {
  /** A click on the icon (the icon's bounds, to place the popover). */
  onClick(bounds: Rectangle): void
  onMenuAction(action: MenuAction): void
  /** Read each time the menu is built. */
  getMenuState(): MenuModelInput
}

export interface TrayController {
  update(state: TrayState): void
  /** Rebuilds the menu (Linux keeps it attached, so it must follow pause and refresh changes). */
  refreshMenu(): void
  /** The icon's bounds; all zeros where the platform cannot tell. */
  bounds(): Rectangle
  /** False once destroyed (the smoke test checks that a live tray exists). */
  isAlive(): boolean
  destroy(): void
}

const INITIAL: TrayState = { icon: 'idle', badge: 0, tooltip: 'Navi', title: '' }

function trayImage(state: TrayState): NativeImage {
  const theme = trayThemeFor(process.platform, {
    darkColors: nativeTheme.shouldUseDarkColors,
    darkSystemUi:
      process.platform === 'win32'
        ? nativeTheme.shouldUseDarkColorsForSystemIntegratedUI
        : nativeTheme.shouldUseDarkColors,
  })
  const image = nativeImage.createEmpty()
  for (const scale of [1, 2] as const) {
    const bitmap = renderTrayIcon({ state: state.icon, badge: state.badge, theme, scale })
    // PNG rather than createFromBitmap: the raw bitmap layout is platform-dependent (BGRA, premultiplied).
    image.addRepresentation({ scaleFactor: scale, buffer: encodePng(bitmap) })
  }
  if (theme === 'template') image.setTemplateImage(true)
  return image
}

export function createTray(deps: TrayDeps): TrayController {
  let state = INITIAL
  const tray = new Tray(trayImage(state))
  tray.setToolTip(state.tooltip)
  if (process.platform === 'darwin') tray.setIgnoreDoubleClickEvents(true)

  const buildMenu = () =>
    Menu.buildFromTemplate(
      buildMenuModel(deps.getMenuState()).map((item) =>
        item.kind === 'separator'
          ? { type: 'separator' as const }
          : {
              id: item.id,
              label: item.label,
              enabled: item.enabled,
              click: () => deps.onMenuAction(item.id),
            },
      ),
    )

  // Linux (AppIndicator/StatusNotifier) sends no click events: the menu must stay attached, and its
  // "Open Navi" item is the way in. Elsewhere a click toggles and the menu pops up on right-click.
  const attachMenu = process.platform === 'linux'
  const refreshMenu = () => {
    if (attachMenu) tray.setContextMenu(buildMenu())
  }
  refreshMenu()
  tray.on('click', (_event, bounds) => deps.onClick(bounds))
  tray.on('right-click', () => {
    if (!attachMenu) tray.popUpContextMenu(buildMenu())
  })

  const redraw = () => tray.setImage(trayImage(state))
  nativeTheme.on('updated', redraw)

  return {
    update(next) {
      const imageChanged = next.icon !== state.icon || next.badge !== state.badge
      state = next
      if (imageChanged) redraw()
      tray.setToolTip(next.tooltip)
      if (process.platform === 'darwin') tray.setTitle(next.title)
    },
    refreshMenu,
    bounds: () => tray.getBounds(),
    isAlive: () => !tray.isDestroyed(),
    destroy() {
      nativeTheme.off('updated', redraw)
      tray.destroy()
    },
  }
}
