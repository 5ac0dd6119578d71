/** A new task from what a face sent (electron/tasks/core/new-task.ts): where, plan, model, permissions. */
import { describe, expect, it } from 'vitest'
import { newTask, previewTask } from '../../electron/tasks/core/new-task.ts'
import { defaultConfig } from '../../electron/engine/core/config.ts'
import { taskStartInputSchema } from '../../shared/schemas/task.ts'

const projects = [
  { name: 'apollo', aliases: [], dir: '/code/apollo' },
  { name: 'hermes', aliases: [], dir: '/code/hermes' },
]
const settings = {
  ...defaultConfig().tasks,
  permissionMode: 'dontAsk',
  allowedTools: ['Read'],
  perProject: {
    hermes: { permissionMode: 'acceptEdits', allowedTools: ['Edit', 'Bash(npm test)'] },
  },
}
const make = (raw: Record<string, unknown>) =>
  newTask({
    input: taskStartInputSchema.parse(raw),
    settings,
    projects,
    id: 't0000abcd',
    sessionId: 's-1',
    hostPid: 7,
    now: '2026-11-26T10:00:00.000Z',
  })

describe('newTask', () => {
  it('takes the general permissions, a project’s own over them, and the user’s choice over both', () => {
    expect(make({ text: 'fix apollo' })).toMatchObject({
      ok: true,
      task: { cwd: '/code/apollo', permission_mode: 'dontAsk', allowed_tools: ['Read'] },
    })
    expect(make({ text: 'fix hermes' })).toMatchObject({
      ok: true,
      task: { permission_mode: 'acceptEdits', allowed_tools: ['Edit', 'Bash(npm test)'] },
    })
    expect(make({ text: 'fix hermes', permission_mode: 'plan' })).toMatchObject({
      ok: true,
      task: { permission_mode: 'plan', skip_permissions: false },
    })
  })

  it('plans on a keyword unless told, starts queued with the given session, and asks where unclear', () => {
    expect(make({ text: 'refactor apollo' })).toMatchObject({ ok: true, task: { plan: true } })
    expect(make({ text: 'refactor apollo', plan: false })).toMatchObject({ task: { plan: false } })
    expect(make({ text: 'fix apollo' })).toMatchObject({
      task: { status: 'queued', session_id: 's-1', host_pid: 7, runs: 0, agent: 'claude' },
    })
    expect(make({ text: 'port apollo to hermes' })).toMatchObject({
      ok: false,
      error: 'which project? the task could run in apollo, hermes',
    })
    expect(make({ text: 'tidy up' })).toMatchObject({ ok: false, error: /^which project\?/ })
    expect(make({ text: 'x', cwd: 'relative/dir' })).toMatchObject({ ok: false })
  })

  it('takes a model alias or id, never a value that reads as a flag', () => {
    expect(
      taskStartInputSchema.safeParse({ text: 'x', model: 'claude-sonnet-5[1m]' }).success,
    ).toBe(true)
    expect(taskStartInputSchema.safeParse({ text: 'x', model: 'openai/gpt-5.1' }).success).toBe(
      true,
    )
    for (const model of ['--dangerously-skip-permissions', '-p', 'a b', 'x;rm -rf ~', '']) {
      expect(taskStartInputSchema.safeParse({ text: 'x', model }).success).toBe(false)
    }
  })

  it('previews where a text would run and whether it would plan', () => {
    expect(previewTask('migrate hermes', settings, projects)).toEqual({
      dir: '/code/hermes',
      project: 'hermes',
      why: '"hermes" in the task',
      candidates: [],
      plan_keyword: 'migrate',
    })
  })
})
