import { settingsSchema, type SettingPatch, type Settings } from '../../shared/schemas/settings.ts'

/**
 * `settings` with `patch` applied: each key the patch names replaces its value, except `notifications`,
 * merged toggle by toggle, and `null` for an optional key, which removes it. Keys the patch does not
 * name are kept as they are. Pure.
 */
export function mergeSettingPatch(settings: Settings, patch: SettingPatch): Settings {
  const { notifications, ...rest } = patch
  const next: Record<string, unknown> = {
    ...settings,
    notifications: { ...settings.notifications, ...notifications },
  }
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue
    // paused_until is the one key whose null is a value ("not paused") rather than "unset".
    if (value === null && key !== 'paused_until') delete next[key]
    else next[key] = value
  }
  return settingsSchema.parse(next)
}
