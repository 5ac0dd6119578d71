/**
 * Task records on disk (electron/tasks/task-store.ts): atomic records, a record that cannot be read is
 * skipped and named, an exclusive claim so two Navi processes never both run a task, handoff markers, and
 * ids named by a unique prefix.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createTaskStore, findTask } from '../../electron/tasks/task-store.ts'
import { taskRecord } from '../support/task-records.ts'

const homes: string[] = []
afterEach(async () => {
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true })
})

async function store() {
  const naviHome = await mkdtemp(join(tmpdir(), 'navi-task-store-'))
  homes.push(naviHome)
  return createTaskStore({ naviHome, claudeConfigDir: naviHome, codexHome: naviHome })
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'])
  await new Promise((resolve) => child.on('exit', resolve))
  return child.pid!
}

describe('task store', () => {
  it('keeps records, newest first, and names one it cannot read without losing the others', async () => {
    const s = await store()
    await s.save(taskRecord({ id: 't0000aaaa', created_at: '2026-11-26T10:00:00.000Z' }))
    await s.save(taskRecord({ id: 't0000bbbb', created_at: '2026-11-26T11:00:00.000Z' }))
    await writeFile(join(s.dir, 't0000cccc.json'), '{"id": "t0000cccc", "text": 42}')
    const { tasks, problems } = await s.list()
    expect(tasks.map((t) => t.id)).toEqual(['t0000bbbb', 't0000aaaa'])
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain('t0000cccc.json')
    expect(await s.load('t0000aaaa')).toMatchObject({ id: 't0000aaaa' })
    expect(await s.load('../../etc/passwd')).toBeNull()
    expect(findTask(tasks, 't0000b')).toMatchObject({ task: { id: 't0000bbbb' } })
    expect(findTask(tasks, 't0000')).toEqual({
      error: '"t0000" names 2 tasks: give more of the id',
    })
  })

  it('a claim is exclusive while its Navi lives, and taken over once it is gone', async () => {
    const s = await store()
    expect(await s.claim('t0000aaaa', process.pid)).toBe(true)
    expect(await s.claim('t0000aaaa', process.pid)).toBe(true)
    // Another live Navi (this test's parent stands for it) cannot take it.
    const other = await store()
    const otherSame = createTaskStore({
      naviHome: join(s.dir, '..'),
      claudeConfigDir: '/',
      codexHome: '/',
    })
    expect(await otherSame.claim('t0000aaaa', process.ppid)).toBe(false)
    // A claim whose Navi died is taken over.
    expect(await other.claim('t0000bbbb', await deadPid())).toBe(true)
    expect(await other.claim('t0000bbbb', process.pid)).toBe(true)
  })

  it('hands off tasks by marker, once, and says which Navi hosts them while it lives', async () => {
    const s = await store()
    expect(s.hostPid()).toBeNull()
    await s.claimHost(process.pid)
    expect(s.hostPid()).toBe(process.pid)
    await s.markHandoff('t0000aaaa')
    expect(await s.takeHandoffs()).toEqual(['t0000aaaa'])
    expect(await s.takeHandoffs()).toEqual([])
    await s.releaseHost(process.pid)
    expect(s.hostPid()).toBeNull()
    await s.claimHost(await deadPid())
    expect(s.hostPid()).toBeNull()
  })
})
