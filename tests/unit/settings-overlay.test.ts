import { describe, expect, it } from 'vitest'
import { defaultConfig } from '../../electron/engine/core/config.ts'
import {
  applySettingsOverrides,
  pickOverrides,
  type SettingsOverrides,
} from '../../electron/engine/core/settings-overlay.ts'
import { parseSettings, settingsSchema } from '../../shared/schemas/settings.ts'

describe('applySettingsOverrides', () => {
  const base = { ...defaultConfig(), pollIntervalMs: 45_000 }
  it.each<[string, SettingsOverrides, (c: ReturnType<typeof defaultConfig>) => unknown, unknown]>([
    ['nothing set keeps config.yaml', {}, (c) => c, base],
    ['poll_interval', { poll_interval: '10s' }, (c) => c.pollIntervalMs, 10_000],
    ['poll_interval in seconds', { poll_interval: 5 }, (c) => c.pollIntervalMs, 5_000],
    ['batch_window', { batch_window: '1m' }, (c) => c.pm.batchWindowMs, 60_000],
    ['model', { model: 'opus' }, (c) => c.pm.model, 'opus'],
    [
      'claude_path with ~',
      { claude_path: '~/bin/claude' },
      (c) => c.pm.claudePath,
      '/home/ada/bin/claude',
    ],
    [
      'an unreadable duration keeps config.yaml',
      { poll_interval: 'soon' },
      (c) => c.pollIntervalMs,
      45_000,
    ],
    ['other PM keys untouched', { model: 'opus' }, (c) => c.pm.timeoutMs, base.pm.timeoutMs],
  ])('%s', (_, overrides, pick, expected) => {
    expect(pick(applySettingsOverrides(base, overrides, '/home/ada'))).toEqual(expected)
  })

  it('does not change its input', () => {
    const config = defaultConfig()
    applySettingsOverrides(config, { model: 'opus', poll_interval: '1s' }, '/h')
    expect(config).toEqual(defaultConfig())
  })
})

describe('pickOverrides', () => {
  it('keeps only the override keys that are set', () => {
    const settings = settingsSchema.parse({
      launch_at_login: true,
      model: 'opus',
      batch_window: 90,
    })
    expect(pickOverrides(settings)).toEqual({ model: 'opus', batch_window: 90 })
  })

  it('finds none in the defaults (a missing settings.json is read as no overrides, unparsed)', () => {
    expect(pickOverrides(parseSettings({}).settings)).toEqual({})
  })
})
