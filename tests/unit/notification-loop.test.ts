import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import type { NotificationSpec } from '../../electron/main/notifications/decide.ts'
import { createNotificationLoop } from '../../electron/main/notifications/notification-loop.ts'
import { settingsSchema, type Settings } from '../../shared/schemas/settings.ts'
import { makeEvent } from '../support/pm-events-fixture.ts'

const T0 = Date.parse('2026-11-21T12:00:00Z')
beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

function setUp(over: Partial<Settings> = {}, popoverVisible = false) {
  const shown: NotificationSpec[] = []
  const errors: unknown[] = []
  const loop = createNotificationLoop({
    getSettings: () => ({ ...settingsSchema.parse({}), commit_group_window: '30s', ...over }),
    isPopoverVisible: () => popoverVisible,
    show: (spec) => shown.push(spec),
    withdraw: () => undefined,
    onError: (error) => errors.push(error),
  })
  return { loop, shown, errors }
}

const commit = (sha: string) =>
  makeEvent('commit', 'navi', { sha, message: `m ${sha}`, branch: 'main' })

it('shows a commit group once its window has passed, on its own timer', () => {
  const { loop, shown } = setUp()
  loop.handleEvents([commit('a1')], [])
  vi.advanceTimersByTime(10_000)
  loop.handleEvents([commit('b2')], [])
  expect(shown).toEqual([])
  vi.advanceTimersByTime(20_000)
  expect(shown.map((s) => s.title)).toEqual(['navi: 2 commits'])
  vi.advanceTimersByTime(60_000)
  expect(shown).toHaveLength(1)
})

it('stop() cancels the pending group', () => {
  const { loop, shown } = setUp()
  loop.handleEvents([commit('a1')], [])
  loop.stop()
  vi.advanceTimersByTime(60_000)
  loop.handleEvents([commit('b2')], [])
  expect(shown).toEqual([])
})

it('shows nothing while the popover is visible', () => {
  const { loop, shown } = setUp({ commit_group_window: 0 }, true)
  loop.handleEvents([commit('a1')], [])
  vi.advanceTimersByTime(60_000)
  expect(shown).toEqual([])
})

it('a failing show is reported and the loop goes on', () => {
  const errors: unknown[] = []
  let calls = 0
  const loop = createNotificationLoop({
    getSettings: () => ({ ...settingsSchema.parse({}), commit_group_window: 0 }),
    isPopoverVisible: () => false,
    show: () => {
      calls++
      throw new Error('no notification server')
    },
    withdraw: () => undefined,
    onError: (error) => errors.push(error),
  })
  loop.handleEvents([commit('a1')], [])
  loop.handleEvents([makeEvent('task_completed', 'navi', { task_title: 'Ship it' })], [])
  expect(calls).toBe(2)
  expect(errors).toHaveLength(2)
})

it('seeded attention items are not announced; new ones are', () => {
  const { loop, shown } = setUp()
  const item = (title: string) => ({ project: 'navi', priority: 'high' as const, title })
  loop.seedAttention([item('Review PR')])
  loop.handleAttention([item('Review PR'), item('Fix CI')])
  expect(shown.map((s) => s.title)).toEqual(['navi: Fix CI'])
})
