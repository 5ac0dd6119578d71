/** The tray's context menu as data: the shell maps it onto Electron's `Menu`. */

export type MenuAction = 'open' | 'refresh' | 'pause' | 'resume' | 'settings' | 'quit'

export type MenuModelItem =
  { kind: 'action'; id: MenuAction; label: string; enabled: boolean } | { kind: 'separator' }

export interface MenuModelInput {
  /** Notifications are paused (`settings.paused_until` in the future). */
  paused: boolean
  /** A PM run is in progress, so another refresh would only queue. @default false */
  refreshing?: boolean
}

const action = (id: MenuAction, label: string, enabled = true): MenuModelItem => ({
  kind: 'action',
  id,
  label,
  enabled,
})

export function buildMenuModel(input: MenuModelInput): MenuModelItem[] {
  return [
    action('open', 'Open Navi'),
    action(
      'refresh',
      input.refreshing ? 'Refreshing briefing…' : 'Refresh briefing',
      !input.refreshing,
    ),
    { kind: 'separator' },
    input.paused
      ? action('resume', 'Resume notifications')
      : action('pause', 'Pause notifications for 1 hour'),
    action('settings', 'Settings…'),
    { kind: 'separator' },
    action('quit', 'Quit Navi'),
  ]
}
