import { describe, expect, it } from 'vitest'
import { parseSettings, settingsSchema } from '../../shared/schemas/settings.ts'

const defaults = settingsSchema.parse({})

describe('parseSettings', () => {
  it('an empty object or a missing file is the defaults, without problems', () => {
    expect(parseSettings({})).toEqual({ settings: defaults, problems: [] })
    expect(parseSettings(undefined)).toEqual({ settings: defaults, problems: [] })
  })

  it.each<[string, unknown]>([
    ['null', null],
    ['an array', [{ launch_at_login: true }]],
    ['a string', 'launch_at_login: true'],
    ['a number', 42],
  ])('%s is the defaults, with a problem', (_name, raw) => {
    const { settings, problems } = parseSettings(raw)
    expect(settings).toEqual(defaults)
    expect(problems).toEqual(['settings are not an object; using defaults'])
  })

  it.each<[string, Record<string, unknown>]>([
    ['a wrong type', { launch_at_login: 'yes' }],
    ['a bad duration', { commit_group_window: 'soon' }],
    ['an empty shortcut', { global_shortcut: '' }],
    ['a bad override', { poll_interval: -5 }],
    ['notifications not an object', { notifications: 'off' }],
  ])('%s falls back to its default and keeps the other keys', (_name, bad) => {
    const good = {
      launch_at_login: true,
      model: 'opus',
      notifications: { ...defaults.notifications, commits: false },
    }
    const { settings, problems } = parseSettings({ ...good, ...bad })
    const key = Object.keys(bad)[0] as keyof typeof defaults
    expect(settings).toEqual({ ...defaults, ...good, [key]: defaults[key] })
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(new RegExp(`^${key}: .*using the default$`))
  })

  it('drops unknown keys, at the top and inside notifications, without a problem', () => {
    const { settings, problems } = parseSettings({
      theme: 'dark',
      __proto__pollution: 1,
      notifications: { commits: false, sound: true },
    })
    expect(settings).toEqual({
      ...defaults,
      notifications: { ...defaults.notifications, commits: false },
    })
    expect(settings).not.toHaveProperty('theme')
    expect(settings.notifications).not.toHaveProperty('sound')
    expect(problems).toEqual([])
  })

  it('a bad toggle falls back alone, keeping the other toggles', () => {
    const { settings, problems } = parseSettings({
      notifications: { commits: 'no', task_completed: false },
    })
    expect(settings.notifications).toEqual({
      ...defaults.notifications,
      task_completed: false,
    })
    expect(problems).toEqual([expect.stringMatching(/^notifications\.commits: /)])
  })

  it('fills missing toggles with their defaults', () => {
    const { settings } = parseSettings({ notifications: { needs_human: false } })
    expect(settings.notifications).toEqual({ ...defaults.notifications, needs_human: false })
  })

  it('keeps valid optional overrides and a null pause', () => {
    const raw = {
      poll_interval: '10s',
      batch_window: 60,
      claude_path: '/opt/claude',
      paused_until: null,
    }
    expect(parseSettings(raw).settings).toEqual({ ...defaults, ...raw })
  })

  it.each([
    ['toString', '{"toString":1}'],
    ['constructor', '{"constructor":1}'],
    ['__proto__', '{"__proto__":{"poll_interval":"1ms","launch_at_login":true}}'],
    ['hasOwnProperty and valueOf', '{"hasOwnProperty":1,"valueOf":{}}'],
    ['notifications.toString', '{"notifications":{"toString":true,"__proto__":false}}'],
  ])('ignores a %s key instead of crashing, and pollutes no prototype', (_name, text) => {
    const { settings } = parseSettings(JSON.parse(text))
    expect(settings).toEqual(defaults)
    expect(({} as Record<string, unknown>).poll_interval).toBeUndefined()
  })

  it('refuses a poll interval below the floor, keeping the rest', () => {
    const { settings, problems } = parseSettings({ poll_interval: '1ms', launch_at_login: true })
    expect(settings.poll_interval).toBeUndefined()
    expect(settings.launch_at_login).toBe(true)
    expect(problems.join('\n')).toMatch(/poll_interval: expected a poll interval of at least 1s/)
  })
})
