/**
 * The app's Settings over `config.yaml`: the four override keys of `settings.json` win for what they set.
 * Pure: `adapters/navi-settings.ts` reads the file.
 */
import type { NaviConfig } from '../../../shared/schemas/config.ts'
import type { Settings } from '../../../shared/schemas/settings.ts'
import { parseDuration } from '../../../shared/duration.ts'
import { expandHome } from './paths.ts'

/** The keys of `settings.json` that override `config.yaml`; unset means "as config.yaml says". */
export type SettingsOverrides = Pick<
  Settings,
  'poll_interval' | 'batch_window' | 'model' | 'claude_path'
>

/** Only the override keys that are set. */
export function pickOverrides(settings: Settings): SettingsOverrides {
  const out: SettingsOverrides = {}
  if (settings.poll_interval !== undefined) out.poll_interval = settings.poll_interval
  if (settings.batch_window !== undefined) out.batch_window = settings.batch_window
  if (settings.model !== undefined) out.model = settings.model
  if (settings.claude_path !== undefined) out.claude_path = settings.claude_path
  return out
}

/**
 * `config` with the overrides applied: `poll_interval` → `pollIntervalMs`, `batch_window` →
 * `pm.batchWindowMs`, `model` → `pm.model`, `claude_path` → `pm.claudePath` (`~` expanded with `home`).
 * A duration that does not parse leaves config.yaml's value (the schema already refuses those).
 */
export function applySettingsOverrides(
  config: NaviConfig,
  overrides: SettingsOverrides,
  home: string,
): NaviConfig {
  const ms = (value: string | number | undefined): number | null =>
    value === undefined ? null : parseDuration(value)
  const pollIntervalMs = ms(overrides.poll_interval) ?? config.pollIntervalMs
  const batchWindowMs = ms(overrides.batch_window) ?? config.pm.batchWindowMs
  return {
    ...config,
    pollIntervalMs,
    pm: {
      ...config.pm,
      batchWindowMs,
      model: overrides.model ?? config.pm.model,
      claudePath:
        overrides.claude_path !== undefined
          ? expandHome(overrides.claude_path, home)
          : config.pm.claudePath,
    },
  }
}
