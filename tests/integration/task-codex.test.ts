/**
 * Acceptance: a task delegated to the real codex (`codex exec --json`) against the scripted Responses API
 * goes through the same lifecycle as claude's: it runs in the resolved project (its command's effect is on
 * disk), `[NOTIFY]` is relayed, `[CLARIFY]` pauses it and the reply resumes the same thread
 * (`exec resume`), and a plan waits for approval in Codex's read-only sandbox.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasCodexBinary } from '../support/codex-driver.ts'
import { execCommand, textAnswer } from '../support/scripted-responses-api.ts'
import { createTaskWorld } from '../support/task-world.ts'

const supported = hasCodexBinary()

describe('a task delegated to the real codex', () => {
  it.skipIf(!supported)(
    supported
      ? 'navi run --agent codex: runs there, relays [NOTIFY], asks back with [CLARIFY] and resumes its thread'
      : 'codex tasks (skipped: no codex binary)',
    async () => {
      const w = await createTaskWorld('codex', { codex: true })
      const api = w.codexApi!
      try {
        api.enqueue(textAnswer('[CLARIFY] Which file holds the backlog?'))
        const started = await w.tasks.start({
          text: 'add a line to the backlog',
          project: 'apollo',
          agent: 'codex',
          permission_mode: 'acceptEdits',
          model: 'gpt-task-model',
        })
        if (!started.ok) throw new Error(started.error)
        const asked = await w.tasks.settled(started.task.id)
        expect(asked, asked.status_reason ?? '').toMatchObject({
          status: 'awaiting_clarification',
          question: 'Which file holds the backlog?',
        })
        expect(asked.session_id).toMatch(/^[0-9a-f-]{36}$/)
        expect((api.requests[0]?.body as { model?: string }).model).toBe('gpt-task-model')
        // The relay conventions reached the model as developer instructions.
        expect(JSON.stringify(api.requests[0]?.body)).toContain('delegated from Navi')

        const file = join(w.repo.dir, 'BACKLOG.md')
        api.enqueue(
          execCommand(`echo '- a line' >> ${file}`),
          textAnswer('[NOTIFY] Added one line to BACKLOG.md'),
        )
        const before = api.requests.length
        const replied = await w.tasks.reply(started.task.id, 'BACKLOG.md, please')
        expect(replied.done, replied.message).toBe(true)
        const done = await w.tasks.settled(started.task.id)
        expect(done, done.status_reason ?? '').toMatchObject({
          status: 'completed',
          runs: 2,
          session_id: asked.session_id,
        })
        expect(await readFile(file, 'utf8')).toBe('- a line\n')
        expect(done.notes.map((n) => n.text)).toEqual([
          'Which file holds the backlog?',
          'Added one line to BACKLOG.md',
        ])
        expect(done.tokens.total).toBeGreaterThan(0)
        // The resumed run is the same conversation: the question before, the reply now.
        const resumed = JSON.stringify(api.requests[before]?.body)
        expect(resumed).toContain('BACKLOG.md, please')
        expect(resumed).toContain('Which file holds the backlog?')
      } finally {
        await w.cleanup()
      }
    },
  )

  it.skipIf(!supported)(
    supported
      ? 'a codex plan runs in the read-only sandbox and waits; reject ends it with nothing written'
      : 'codex plans (skipped: no codex binary)',
    async () => {
      const w = await createTaskWorld('codex-plan', { codex: true })
      const api = w.codexApi!
      const file = join(w.repo.dir, 'planned.txt')
      try {
        // The model tries to write while planning: the read-only sandbox refuses it.
        api.enqueue(execCommand(`touch ${file}`), textAnswer('[NOTIFY] Plan:\n1. touch the file'))
        const started = await w.tasks.start({
          text: 'refactor the touch handling',
          project: 'apollo',
          agent: 'codex',
          permission_mode: 'acceptEdits',
        })
        if (!started.ok) throw new Error(started.error)
        const planned = await w.tasks.settled(started.task.id)
        expect(planned, planned.status_reason ?? '').toMatchObject({
          status: 'awaiting_approval',
          plan_text: 'Plan:\n1. touch the file',
        })
        expect(existsSync(file)).toBe(false)
        const rejected = await w.tasks.reply(started.task.id, 'reject')
        expect(rejected.task?.status).toBe('cancelled')
        expect(existsSync(file)).toBe(false)
      } finally {
        await w.cleanup()
      }
    },
  )
})
