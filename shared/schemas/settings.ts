import * as z from 'zod'
import { durationOrZeroSchema, durationSchema, pollIntervalSchema } from './config.ts'
import { lazySchema } from './lazy-schema.ts'

/** Which notifications the app shows; each can be turned off on its own. */
export const notificationTogglesSchema = lazySchema(() =>
  z.object({
    commits: z.boolean().default(true),
    task_completed: z.boolean().default(true),
    needs_human: z.boolean().default(true),
    attention_items: z.boolean().default(true),
    /** What a delegated task relays: its notes, its question or plan, done or failed, "still working". */
    delegated_tasks: z.boolean().default(true),
  }),
)
export type NotificationToggles = z.infer<typeof notificationTogglesSchema>

/**
 * `$NAVI_HOME/settings.json`: what the Settings view changes. Every face writes it through the one settings
 * store (electron/runtime/settings-store.ts); the engine and the CLI read the optional keys as overrides
 * of `config.yaml` (unset means "as config.yaml says").
 */
export const settingsSchema = lazySchema(() =>
  z.object({
    notifications: notificationTogglesSchema.default(notificationTogglesSchema.parse({})),
    /** Commits to one project within this window become one notification; 0 notifies at once. @default '30s' */
    commit_group_window: durationOrZeroSchema.default('30s'),
    /** ISO time until which no notification is shown ("Pause notifications for 1 h"). */
    paused_until: z.string().nullable().default(null),
    launch_at_login: z.boolean().default(false),
    /**
     * Electron accelerator that toggles the popover. A global shortcut takes the keys from every app, so
     * the default is one that apps rarely bind (Cmd+Shift+N is New Folder in Finder and a private window
     * in browsers). @default 'CommandOrControl+Alt+Shift+N'
     */
    global_shortcut: z.string().min(1).default('CommandOrControl+Alt+Shift+N'),
    /** Overrides of config.yaml's `poll_interval`, `pm.batch_window`, `pm.model`, `pm.claude_path`. */
    poll_interval: pollIntervalSchema.optional(),
    batch_window: durationSchema.optional(),
    model: z.string().min(1).optional(),
    claude_path: z.string().min(1).optional(),
  }),
)
export type Settings = z.infer<typeof settingsSchema>

/**
 * One change from the Settings view: only the keys it names, checked against the schema and with no
 * default filled in (zod's `.partial()` keeps inner defaults, so a one-key patch would reset the others).
 * `notifications` may name some toggles only; `null` for an override key removes it (back to config.yaml).
 */
export const settingPatchSchema = lazySchema(() =>
  z.strictObject({
    notifications: z
      .strictObject({
        commits: z.boolean(),
        task_completed: z.boolean(),
        needs_human: z.boolean(),
        attention_items: z.boolean(),
        delegated_tasks: z.boolean(),
      })
      .partial()
      .optional(),
    commit_group_window: durationOrZeroSchema.optional(),
    paused_until: z.string().nullable().optional(),
    launch_at_login: z.boolean().optional(),
    global_shortcut: z.string().min(1).optional(),
    poll_interval: pollIntervalSchema.nullable().optional(),
    batch_window: durationSchema.nullable().optional(),
    model: z.string().min(1).nullable().optional(),
    claude_path: z.string().min(1).nullable().optional(),
  }),
)
export type SettingPatch = z.infer<typeof settingPatchSchema>

/**
 * Normalize whatever is on disk: unknown keys dropped, bad values replaced by their defaults one key at a time
 * (a single bad toggle must not reset the rest), and the problems reported.
 */
/** Set by the built CLI's build (scripts/cli-bundle.ts): the settings with nothing set, as JSON. */
declare const __NAVI_DEFAULT_SETTINGS_JSON__: string | undefined

/**
 * The settings with nothing set. The built command carries what its build computed from the schema: a
 * command with no settings.json (the usual case) then never builds the settings schema (~1 ms of every
 * command that loads the engine).
 */
export function defaultSettings(): Settings {
  if (typeof __NAVI_DEFAULT_SETTINGS_JSON__ === 'string')
    return JSON.parse(__NAVI_DEFAULT_SETTINGS_JSON__) as Settings
  return settingsSchema.parse({})
}

export function parseSettings(raw: unknown): { settings: Settings; problems: string[] } {
  const problems: string[] = []
  const source = isPlainObject(raw) ? raw : {}
  if (source !== raw && raw !== undefined)
    problems.push('settings are not an object; using defaults')
  if (Object.keys(source).length === 0) return { settings: defaultSettings(), problems }
  const kept: Record<string, unknown> = {}
  const shape = settingsSchema.shape
  for (const [key, value] of Object.entries(source)) {
    // Own keys only: `key in shape` is true for "toString", "constructor" or "__proto__" too.
    if (!Object.hasOwn(shape, key)) continue
    if (key === 'notifications' && isPlainObject(value)) {
      kept.notifications = keepValidToggles(value, problems)
      continue
    }
    const field = shape[key as keyof typeof shape]
    const checked = field.safeParse(value)
    if (checked.success) kept[key] = value
    else
      problems.push(`${key}: ${checked.error.issues[0]?.message ?? 'invalid'}; using the default`)
  }
  return { settings: settingsSchema.parse(kept), problems }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function keepValidToggles(
  value: Record<string, unknown>,
  problems: string[],
): Record<string, boolean> {
  const toggles: Record<string, boolean> = {}
  for (const [name, toggle] of Object.entries(value)) {
    if (!Object.hasOwn(notificationTogglesSchema.shape, name)) continue
    if (typeof toggle === 'boolean') toggles[name] = toggle
    else problems.push(`notifications.${name}: expected true or false; using the default`)
  }
  return toggles
}

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
