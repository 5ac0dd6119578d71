import { describe, expect, it } from 'vitest'
import { mergeSettingPatch } from '../../shared/schemas/settings.ts'
import { settingPatchSchema, settingsSchema } from '../../shared/schemas/settings.ts'

const defaults = settingsSchema.parse({})

describe('settingPatchSchema', () => {
  it.each([
    [{ launch_at_login: true }, { launch_at_login: true }],
    [{ notifications: { commits: false } }, { notifications: { commits: false } }],
    [{ poll_interval: null }, { poll_interval: null }],
    [{ commit_group_window: 0 }, { commit_group_window: 0 }],
    [{ commit_group_window: '0' }, { commit_group_window: '0' }],
    [{ commit_group_window: '0s' }, { commit_group_window: '0s' }],
    [{}, {}],
  ])('keeps only the keys of %j', (patch, expected) => {
    expect(settingPatchSchema.parse(patch)).toEqual(expected)
  })

  it.each([
    { bogus: 1 },
    { notifications: { bogus: true } },
    { poll_interval: 'soon' },
    { poll_interval: '0s' },
    { batch_window: 0 },
    { commit_group_window: -1 },
    { global_shortcut: '' },
    { launch_at_login: 'yes' },
  ])('refuses %j', (patch) => {
    expect(settingPatchSchema.safeParse(patch).success).toBe(false)
  })
})

describe('mergeSettingPatch', () => {
  const cases: [string, Parameters<typeof mergeSettingPatch>, Partial<typeof defaults>][] = [
    [
      'one key, the rest kept',
      [{ ...defaults, launch_at_login: true }, { model: 'opus' }],
      { launch_at_login: true, model: 'opus' },
    ],
    [
      'notifications toggle by toggle',
      [
        { ...defaults, notifications: { ...defaults.notifications, commits: false } },
        { notifications: { needs_human: false } },
      ],
      {
        notifications: {
          commits: false,
          task_completed: true,
          needs_human: false,
          attention_items: true,
          delegated_tasks: true,
        },
      },
    ],
    [
      'null removes an override',
      [{ ...defaults, poll_interval: '10s' }, { poll_interval: null }],
      {},
    ],
    [
      'paused_until null is a value',
      [{ ...defaults, paused_until: '2026-01-01T00:00:00Z' }, { paused_until: null }],
      { paused_until: null },
    ],
  ]
  it.each(cases)('%s', (_, [settings, patch], expected) => {
    const merged = mergeSettingPatch(settings, patch)
    expect(merged).toEqual({ ...defaults, ...expected })
    expect('poll_interval' in merged).toBe('poll_interval' in expected)
  })
})
