/** Quitting the tray asks before it cancels the tasks it runs (electron/main/quit-tasks.ts). */
import { describe, expect, it } from 'vitest'
import { quitQuestion } from '../../electron/main/quit-tasks.ts'
import type { Task } from '../../shared/schemas/task.ts'

const task = (id: string, status: Task['status'], host: number, text = `job ${id}`) =>
  ({ id, status, host_pid: host, text }) as Task

describe('quitQuestion', () => {
  it('asks only when this Navi runs an active task, and names them', () => {
    expect(quitQuestion([], 10)).toBeNull()
    expect(
      quitQuestion(
        [task('a', 'awaiting_approval', 10), task('b', 'running', 11), task('c', 'completed', 10)],
        10,
      ),
    ).toBeNull()
    const one = quitQuestion([task('a', 'running', 10, 'fix\u001b[2J the login')], 10)
    expect(one?.message).toBe('A delegated task is still running. Quitting Navi cancels it.')
    expect(one?.detail).toBe('• fix [2J the login')
    const many = quitQuestion(
      Array.from({ length: 7 }, (_, i) => task(String(i), i % 2 ? 'running' : 'implementing', 10)),
      10,
    )
    expect(many?.message).toMatch(/^7 delegated tasks are still running/)
    expect(many?.detail.split('\n')).toHaveLength(6)
    expect(many?.buttons).toEqual(['Quit and cancel', 'Keep Navi running'])
  })
})
