/**
 * Acceptance: controlling delegated tasks run by the real claude against the scripted API. Cancel and the
 * safety timeout end the agent's whole process group (a shell command it started included); a task's
 * permission request, with the user's defaults, is held by Navi's hook and answered from Navi; two tasks for
 * one project queue, the second starts when the first ends, and a restarted Navi still has both.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { processesMarked } from '../../electron/engine/adapters/process.ts'
import { createNaviTaskService } from '../../electron/runtime/tasks.ts'
import { taskRunId } from '../../electron/tasks/agent-run.ts'
import { answerOf } from '../support/answer-world.ts'
import { claudeIsAtLeast, hermeticBaseEnv } from '../support/claude-env.ts'
import { text, toolUse } from '../support/scripted-api.ts'
import { createTaskWorld } from '../support/task-world.ts'
import { waitUntil } from '../support/wait.ts'

/** Pids of processes whose command line holds `marker`. */
async function processesWith(marker: string): Promise<number[]> {
  const { stdout } = await execa('pgrep', ['-f', marker], { reject: false })
  return stdout
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .filter((pid) => pid !== process.pid)
}

describe('controlling a delegated task', () => {
  it.each(['cancel', 'timeout'] as const)(
    '%s ends the agent and every process it started',
    async (how) => {
      const w = await createTaskWorld(how, {
        // The timeout has to leave claude time to start and run its command on a loaded machine.
        tasksConfig: ['allowed_tools: [Bash]', ...(how === 'timeout' ? ['timeout: 12s'] : [])],
      })
      const marker = `navi-task-${how}-${String(process.pid)}`
      try {
        w.api.enqueue(
          // Claude Code refuses a standalone `sleep`; a node that waits is a long command as any build.
          toolUse('Bash', {
            command: `node -e "setTimeout(() => {}, 300000)" ${marker}`,
            description: 'wait a long time',
          }),
          text('slept'),
        )
        const started = await w.tasks.start({ text: 'wait for the build', project: 'apollo' })
        if (!started.ok) throw new Error(started.error)
        const sleepers = await waitUntil(
          async () => {
            const pids = await processesWith(`setTimeout.*${marker}`)
            return pids.length > 0 ? pids : null
          },
          60_000,
          'the shell command the agent started',
          100,
        )
        const agent = (await w.tasks.get(started.task.id))?.pid
        expect(agent).toBeGreaterThan(1)
        // What claude's shell started carries the task's mark, so an end finds it outside claude's tree.
        if (existsSync('/proc/self/environ')) {
          expect(processesMarked(taskRunId(started.task.id))).toEqual(
            expect.arrayContaining([agent, ...sleepers]),
          )
        }
        if (how === 'cancel') {
          const cancelled = await w.tasks.cancel(started.task.id)
          expect(cancelled.done).toBe(true)
        }
        const ended = await w.tasks.settled(started.task.id)
        expect(ended.status).toBe(how === 'cancel' ? 'cancelled' : 'failed')
        if (how === 'timeout') expect(ended.status_reason).toBe('timed out after 12s')
        // Nothing of the group survives: the agent, its shell, the sleep.
        await waitUntil(
          async () => (await processesWith(marker)).length === 0,
          10_000,
          `no process left of ${sleepers.join(', ')}`,
          100,
        )
        expect(() => process.kill(agent!, 0)).toThrow()
      } finally {
        await w.cleanup()
      }
    },
  )

  it.skipIf(!claudeIsAtLeast('2.1.300'))(
    "with the user's defaults, a task's permission request is answered from Navi and the tool runs (skipped before 2.1.300: print mode ran no PermissionRequest hook)",
    async () => {
      const w = await createTaskWorld('permission', { hooks: true })
      try {
        const file = join(w.repo.dir, 'NOTES.md')
        w.api.enqueue(
          toolUse('Write', { file_path: file, content: 'noted\n' }),
          text('[NOTIFY] Wrote NOTES.md'),
        )
        const started = await w.tasks.start({ text: 'write the notes file', project: 'apollo' })
        if (!started.ok) throw new Error(started.error)
        const session = await waitUntil(
          async () => {
            await w.runtime.engine.refresh()
            const task = await w.tasks.get(started.task.id)
            const s = w.runtime.engine.getSessions().find((x) => x.id === task?.session_id)
            return s?.pending_request?.answer_until ? s : null
          },
          60_000,
          "the task's request held by Navi's hook",
          100,
        )
        expect(session.pending_request).toMatchObject({ tool: 'Write' })
        expect(existsSync(file)).toBe(false)
        const answered = await w.runtime.handlers['session:answer'](answerOf(session, 'allow'))
        expect(answered.done, answered.message).toBe(true)
        const done = await w.tasks.settled(started.task.id)
        expect(done.status).toBe('completed')
        expect(existsSync(file)).toBe(true)
      } finally {
        await w.cleanup()
      }
    },
  )

  it('two tasks for one project: the second queues, starts when the first ends, and a restart keeps both', async () => {
    const w = await createTaskWorld('queue')
    try {
      let release = false
      w.api.enqueue(
        text('[NOTIFY] first done', { holdUntil: () => release }),
        text('[NOTIFY] second done'),
      )
      const first = await w.tasks.start({ text: 'first job', project: 'apollo' })
      const second = await w.tasks.start({ text: 'second job', project: 'apollo' })
      if (!first.ok || !second.ok) throw new Error('not started')
      expect(first.task.status).toBe('running')
      expect(second.task).toMatchObject({
        status: 'queued',
        status_reason: `waits for task ${first.task.id} in the same directory`,
      })
      // Another Navi (a restart) reads both from disk, as they are.
      const other = createNaviTaskService({
        paths: w.runtime.paths,
        config: () => w.runtime.config.get().config,
        state: () => null,
        env: {},
        logger: w.runtime.logger,
        notify: () => undefined,
      })
      const seen = await other.list()
      expect(seen.map((t) => [t.id, t.status])).toEqual([
        [second.task.id, 'queued'],
        [first.task.id, 'running'],
      ])
      await other.stop()
      release = true
      expect((await w.tasks.settled(first.task.id)).status).toBe('completed')
      await waitUntil(
        async () => (await w.tasks.get(second.task.id))?.status === 'completed',
        60_000,
        'the second task, started after the first',
      )
      const both = await w.tasks.list()
      expect(both.every((t) => t.status === 'completed')).toBe(true)
      const second2 = both.find((t) => t.id === second.task.id)!
      const first2 = both.find((t) => t.id === first.task.id)!
      expect(Date.parse(second2.started_at!)).toBeGreaterThanOrEqual(Date.parse(first2.ended_at!))
    } finally {
      await w.cleanup()
    }
  })

  it('the heartbeat relays "still working" on schedule (a fake clock, the real claude working)', async () => {
    const w = await createTaskWorld('heartbeat')
    let now = Date.parse('2026-11-26T10:00:00Z')
    const notes: string[] = []
    const tasks = createNaviTaskService({
      paths: w.runtime.paths,
      config: () => w.runtime.config.get().config,
      state: () => w.runtime.engine.getState(),
      env: { ...hermeticBaseEnv(), ...w.claudeEnv, NAVI_CLAUDE_BIN: w.naviEnv.NAVI_CLAUDE_BIN },
      logger: w.runtime.logger,
      notify: (_task, _title, body) => notes.push(body),
      clock: () => now,
      heartbeatCheckMs: 20,
    })
    let release = false
    try {
      w.api.enqueue(text('[NOTIFY] finally done', { holdUntil: () => release }))
      const started = await tasks.start({ text: 'a long job', project: 'apollo' })
      if (!started.ok) throw new Error(started.error)
      await waitUntil(
        async () => (await tasks.get(started.task.id))?.pid ?? null,
        30_000,
        'the run',
      )
      now += 4 * 60_000
      // Nothing before the interval (5m by default)…
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(notes).toEqual([])
      now += 60_000
      await waitUntil(() => notes.includes('still working, 5m'), 5_000, 'the 5m heartbeat')
      now += 5 * 60_000
      await waitUntil(() => notes.includes('still working, 10m'), 5_000, 'the 10m heartbeat')
      expect(notes.filter((n) => n.startsWith('still working'))).toEqual([
        'still working, 5m',
        'still working, 10m',
      ])
      release = true
      expect((await tasks.settled(started.task.id)).status).toBe('completed')
    } finally {
      release = true
      await tasks.stop()
      await w.cleanup()
    }
  })
})
