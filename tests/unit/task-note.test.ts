/** A task's relayed note as a desktop notification (electron/main/notifications/task-note.ts). */
import { describe, expect, it } from 'vitest'
import { taskNoteNotification } from '../../electron/main/notifications/task-note.ts'
import { settingsSchema } from '../../shared/schemas/settings.ts'
import type { Task } from '../../shared/schemas/task.ts'

const task = {
  id: 't12345678',
  project: null,
  cwd: '/code/apollo/',
  notes: [{}],
  status: 'running',
} as unknown as Task
const settings = settingsSchema.parse({})
const NOW = Date.parse('2026-11-26T10:00:00Z')

describe('taskNoteNotification', () => {
  it('one notification per task, plain text, named by the project directory', () => {
    const spec = taskNoteNotification(
      task,
      { title: 'Task done: x', body: 'line one\nline\u202e two' },
      settings,
      NOW,
    )
    expect(spec).toMatchObject({
      kind: 'task_note',
      project: 'apollo',
      title: 'Task done: x',
      body: 'line one line two',
      tag: 'task:t12345678',
    })
  })

  it('offers a reply field while the task waits (its question or plan), not while it works', () => {
    const waiting = { ...task, status: 'awaiting_approval' } as Task
    expect(
      taskNoteNotification(waiting, { title: 'Plan ready', body: 'p' }, settings, NOW)?.taskReply,
    ).toEqual({
      task_id: 't12345678',
    })
    expect(
      taskNoteNotification(task, { title: 't', body: 'b' }, settings, NOW)?.taskReply,
    ).toBeUndefined()
  })

  it('is not shown while paused or with its toggle off', () => {
    const paused = { ...settings, paused_until: '2026-11-26T11:00:00Z' }
    expect(taskNoteNotification(task, { title: 't', body: 'b' }, paused, NOW)).toBeNull()
    const off = {
      ...settings,
      notifications: { ...settings.notifications, delegated_tasks: false },
    }
    expect(taskNoteNotification(task, { title: 't', body: 'b' }, off, NOW)).toBeNull()
  })
})

describe('the delegated_tasks toggle', () => {
  it('is a key a settings patch may carry (the Settings view sends every toggle)', async () => {
    const { settingPatchSchema } = await import('../../shared/schemas/settings.ts')
    const all = settingsSchema.parse({}).notifications
    expect(settingPatchSchema.safeParse({ notifications: all }).success).toBe(true)
  })
})
