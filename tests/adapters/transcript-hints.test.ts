import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createClaudeTranscriptSource } from '../../electron/engine/adapters/claude-transcripts.ts'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

const line = (session: string, text: string) =>
  `${JSON.stringify({ type: 'user', message: { role: 'user', content: text }, uuid: text, timestamp: new Date().toISOString(), cwd: '/p', sessionId: session })}\n`

async function corpus(count: number) {
  const root = await mkdtemp(join(tmpdir(), 'navi-hints-'))
  dirs.push(root)
  const project = join(root, 'projects', '-p')
  await mkdir(project, { recursive: true })
  const files: string[] = []
  for (let i = 0; i < count; i++) {
    const file = join(project, `s${i}.jsonl`)
    await writeFile(file, line(`s${i}`, `first ${i}`))
    files.push(file)
  }
  const paths = {
    naviHome: join(root, 'navi'),
    claudeConfigDir: root,
    codexHome: join(root, 'codex'),
  }
  return { project, files, source: createClaudeTranscriptSource(paths, { cacheFile: null }) }
}

describe('transcript scan with watcher hints', () => {
  it('reads only the files a watcher named, keeping every other summary', async () => {
    const { project, files, source } = await corpus(3)
    expect((await source.scan()).summaries).toHaveLength(3)

    const appended = line('s1', 'second prompt')
    await appendFile(files[1] as string, appended)
    const hinted = await source.scan({ changed: [files[1] as string] })
    expect(hinted.bytesRead).toBe(Buffer.byteLength(appended))
    expect(hinted.summaries.map((s) => s.sessionId).sort()).toEqual(['s0', 's1', 's2'])
    expect(hinted.summaries.find((s) => s.sessionId === 's1')?.lastPrompt).toBe('second prompt')

    // A change the watcher did not name is not read until the next full scan.
    await appendFile(files[0] as string, line('s0', 'unseen'))
    expect((await source.scan({ changed: [] })).bytesRead).toBe(0)
    expect((await source.scan()).summaries.find((s) => s.sessionId === 's0')?.lastPrompt).toBe(
      'unseen',
    )

    const added = join(project, 's9.jsonl')
    await writeFile(added, line('s9', 'new session'))
    await rm(files[2] as string)
    const next = await source.scan({ changed: [added, files[2] as string] })
    expect(next.summaries.map((s) => s.sessionId).sort()).toEqual(['s0', 's1', 's9'])
  })
})
