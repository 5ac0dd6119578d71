import { mkdtempSync, rmSync } from 'node:fs'
import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHookInbox } from '../../electron/engine/adapters/hook-inbox.ts'
import { naviFiles, type EnginePaths } from '../../electron/engine/core/paths.ts'

let root: string
let paths: EnginePaths
let inbox: string
let clock = 0

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'navi-hook-inbox-'))
  paths = { naviHome: root, claudeConfigDir: join(root, 'c'), codexHome: join(root, 'x') }
  inbox = naviFiles(paths).hookInbox
  await mkdir(join(root, 'hooks'), { recursive: true })
})

afterEach(() => rmSync(root, { recursive: true, force: true }))

function line(session: string, event: string, extra: Record<string, unknown> = {}): string {
  clock += 1000
  const at = new Date(Date.UTC(2026, 0, 1) + clock).toISOString()
  return `${JSON.stringify({ hook_event_name: event, session_id: session, received_at: at, claude_pid: null, ...extra })}\n`
}

describe('createHookInbox', () => {
  it('reads nothing from a missing inbox without throwing', async () => {
    const result = await createHookInbox(paths).read()
    expect(result).toEqual({ states: new Map(), corrupt: 0, changed: false, errors: [] })
  })

  it('folds only what was appended since the previous read, counting corrupt lines', async () => {
    const reader = createHookInbox(paths)
    await writeFile(
      inbox,
      line('s1', 'SessionStart') + 'not json\n' + line('s1', 'UserPromptSubmit'),
    )
    const first = await reader.read()
    expect(first.states.get('s1')?.lastEvent).toBe('UserPromptSubmit')
    expect(first.corrupt).toBe(1)
    expect(first.changed).toBe(true)

    const unchanged = await reader.read()
    expect(unchanged.changed).toBe(false)

    await appendFile(inbox, line('s1', 'Stop') + '{"no":"hook"}\n' + line('s2', 'SessionStart'))
    const second = await reader.read()
    expect(second.states.get('s1')?.lastEvent).toBe('Stop')
    expect(second.states.get('s2')?.lastEvent).toBe('SessionStart')
    expect(second.corrupt).toBe(2)
  })

  it('waits for a half-written last line', async () => {
    const reader = createHookInbox(paths)
    const prompt = line('s1', 'UserPromptSubmit')
    const full = line('s1', 'Stop')
    await writeFile(inbox, prompt + full.slice(0, 20))
    expect((await reader.read()).states.get('s1')?.lastEvent).toBe('UserPromptSubmit')
    await appendFile(inbox, full.slice(20))
    const after = await reader.read()
    expect(after.states.get('s1')?.lastEvent).toBe('Stop')
    expect(after.corrupt).toBe(0)
  })

  it('reads the rotated file first at start', async () => {
    await writeFile(`${inbox}.1`, line('old', 'SessionStart') + line('s1', 'UserPromptSubmit'))
    await writeFile(inbox, line('s1', 'Stop'))
    const { states } = await createHookInbox(paths).read()
    expect(states.get('old')?.lastEvent).toBe('SessionStart')
    expect(states.get('s1')?.lastEvent).toBe('Stop')
  })

  it('after a rotation, folds the lines the old file got since the last read, then the new file', async () => {
    const reader = createHookInbox(paths)
    await writeFile(inbox, line('s1', 'SessionStart'))
    await reader.read()
    // Appended after the read, then rotated away by the handler before the next read.
    await appendFile(
      inbox,
      line('s1', 'PermissionRequest', { tool_name: 'Bash' }) + line('s2', 'SessionStart'),
    )
    await rename(inbox, `${inbox}.1`)
    await writeFile(inbox, line('s1', 'PostToolUse', { tool_name: 'Bash' }))
    const { states } = await reader.read()
    expect(states.get('s2')?.lastEvent).toBe('SessionStart')
    expect(states.get('s1')?.lastEvent).toBe('PostToolUse')
  })

  it('a truncated inbox restarts the tail without replaying the rotated file', async () => {
    // Longer than the inbox, so a replay from the inbox's offset would find lines in it.
    const older = Array.from({ length: 10 }, () => line('s1', 'UserPromptSubmit')).join('')
    await writeFile(`${inbox}.1`, older)
    await writeFile(
      inbox,
      line('s1', 'Stop') + line('s1', 'Notification', { notification_type: 'idle_prompt' }),
    )
    const reader = createHookInbox(paths)
    expect((await reader.read()).states.get('s1')?.lastEvent).toBe('Notification')
    await writeFile(inbox, line('s2', 'SessionStart'))
    const { states } = await reader.read()
    expect(states.get('s1')?.lastEvent).toBe('Notification')
    expect(states.get('s2')?.lastEvent).toBe('SessionStart')
  })

  describe('with its index, a new process', () => {
    const recent = (session: string, event: string, extra: Record<string, unknown> = {}) =>
      line(session, event, {
        received_at: new Date(Date.now() - 60_000 + clock).toISOString(),
        ...extra,
      })

    it('resumes where the last one stopped: the states as they were, only new lines read', async () => {
      await writeFile(
        inbox,
        recent('s1', 'SessionStart') + 'not json\n' + recent('s1', 'UserPromptSubmit'),
      )
      const first = createHookInbox(paths)
      await first.read()
      await first.flush()
      // Nothing new: nothing folded (a cold start would fold every line and say it changed).
      const resumed = await createHookInbox(paths).read()
      expect(resumed).toMatchObject({ corrupt: 1, changed: false })
      expect(resumed.states.get('s1')?.lastEvent).toBe('UserPromptSubmit')
      await appendFile(inbox, recent('s1', 'Stop'))
      const next = await createHookInbox(paths).read()
      expect(next.states.get('s1')?.lastEvent).toBe('Stop')
      expect(next).toMatchObject({ corrupt: 1, changed: true })
    })

    it('resumes in the rotated file, then folds the new inbox', async () => {
      await writeFile(inbox, recent('s1', 'SessionStart'))
      const first = createHookInbox(paths)
      await first.read()
      await first.flush()
      await appendFile(inbox, recent('s1', 'PermissionRequest', { tool_name: 'Bash' }))
      await rename(inbox, `${inbox}.1`)
      await writeFile(inbox, recent('s2', 'SessionStart'))
      const { states } = await createHookInbox(paths).read()
      expect(states.get('s1')?.lastEvent).toBe('PermissionRequest')
      expect(states.get('s2')?.lastEvent).toBe('SessionStart')
    })

    it('folds everything again when the index was edited or belongs to another inbox', async () => {
      await writeFile(inbox, recent('s1', 'SessionStart') + 'broken\n')
      const first = createHookInbox(paths)
      await first.read()
      await first.flush()
      const index = join(root, 'cache', 'hook-states.json')
      await writeFile(index, (await readFile(index, 'utf8')).replace('SessionStart', 'SessionEnd'))
      const edited = await createHookInbox(paths).read()
      expect(edited.states.get('s1')?.lastEvent).toBe('SessionStart')
      expect(edited.corrupt).toBe(1)
      await first.flush()
      await rm(inbox)
      await writeFile(inbox, recent('s3', 'SessionStart'))
      const other = await createHookInbox(paths).read()
      expect([...other.states.keys()]).toEqual(['s3'])
    })
  })
})
