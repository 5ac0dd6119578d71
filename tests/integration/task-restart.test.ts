/**
 * Acceptance: a Navi that starts finds the tasks a stopped Navi left behind (records written as that Navi
 * wrote them, with pids of real processes): a queued task is taken over and run by the real claude; a task
 * whose agent ended unseen is marked failed with what is known; a task whose agent outlived its Navi is
 * said to run on its own, and cancelling it ends the agent's process group.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Task } from '../../shared/schemas/task.ts'
import { taskRecord } from '../support/task-records.ts'
import { text, toolUse } from '../support/scripted-api.ts'
import { createTaskWorld } from '../support/task-world.ts'
import { waitUntil } from '../support/wait.ts'

/** The pid of a process that has exited (a Navi that is gone). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'])
  await new Promise((resolve) => child.on('exit', resolve))
  return child.pid!
}

const record = (over: Partial<Task>): Task =>
  taskRecord({
    id: 't0000aaaa',
    text: 'left behind',
    cwd: '/',
    host_pid: null,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    ...over,
  })

describe('tasks a stopped Navi left behind', () => {
  it('are taken over, recorded, or followed and cancellable, by the next Navi', async () => {
    const w = await createTaskWorld('restart', { tasksConfig: ['allowed_tools: [Write]'] })
    // An "agent" that outlived its Navi: a real process leading its own group, with a child.
    const agent = spawn(
      process.execPath,
      [
        '-e',
        'require("child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 300000)"], { stdio: "ignore" }); setTimeout(() => {}, 300000)',
      ],
      {
        detached: true,
        stdio: 'ignore',
      },
    )
    try {
      const gone = await deadPid()
      const dir = join(w.runtime.paths.naviHome, 'tasks')
      const file = join(w.repo.dir, 'TAKEN.md')
      const write = (t: Task) => writeFile(join(dir, `${t.id}.json`), JSON.stringify(t))
      const { mkdir } = await import('node:fs/promises')
      await mkdir(dir, { recursive: true })
      await write(
        record({
          id: 't0000queu',
          text: 'write the taken file',
          allowed_tools: ['Write'],
          cwd: w.repo.dir,
          host_pid: gone,
          session_id: '6f1c2a4e-1111-4222-8333-944455556666',
        }),
      )
      await write(
        record({
          id: 't0000endd',
          status: 'running',
          cwd: w.repo.dir,
          host_pid: gone,
          pid: gone,
          runs: 1,
          session_id: 'a1',
        }),
      )
      await write(
        record({
          id: 't0000outl',
          status: 'running',
          cwd: '/tmp',
          host_pid: gone,
          pid: agent.pid!,
          runs: 1,
        }),
      )
      w.api.enqueue(
        toolUse('Write', { file_path: file, content: 'taken\n' }),
        text('[NOTIFY] Wrote TAKEN.md'),
      )
      // The running Navi of the world reconciles what it lists (and at its start).
      const seen = await w.tasks.list()
      const byId = (id: string) => seen.find((t) => t.id === id)
      expect(byId('t0000endd')).toMatchObject({
        status: 'failed',
        status_reason: 'its agent ended while no Navi watched it; its session a1 has what it did',
      })
      expect(byId('t0000outl')?.status_reason).toMatch(
        /its Navi stopped; the agent \(pid \d+\) still runs on its own/,
      )
      // The queued one is taken over and run here.
      const taken = await waitUntil(
        async () => ((await w.tasks.get('t0000queu'))?.status === 'completed' ? true : null),
        60_000,
        'the queued task, taken over and run',
      )
      expect(taken).toBe(true)
      expect(existsSync(file), JSON.stringify(await w.tasks.get('t0000queu'))).toBe(true)
      // Cancelling the outliving one ends its group.
      const cancelled = await w.tasks.cancel('t0000outl')
      expect(cancelled).toMatchObject({ done: true, task: { status: 'cancelled' } })
      await waitUntil(
        () => {
          try {
            process.kill(agent.pid!, 0)
            return false
          } catch {
            return true
          }
        },
        10_000,
        'the outliving agent to end',
      )
      expect((await w.tasks.get('t0000outl'))?.status).toBe('cancelled')
    } finally {
      try {
        process.kill(-agent.pid!, 'SIGKILL')
      } catch {
        // Ended by the test.
      }
      await w.cleanup()
    }
  })
})
